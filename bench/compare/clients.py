"""Timing clients, one persistent connection each, latency = from sending the request to having
read the last byte of the answer (TSBS's definition, spec section 9.3).

HttpClient: HTTP/1.1 keep-alive (http.client) for Gnomon, InfluxDB, VictoriaMetrics and ClickHouse.
PgClient:   PostgreSQL frontend/backend protocol v3 over TCP (simple query, text format, trust
            auth), written here because Python's standard library has no PostgreSQL driver; the
            clock stops at ReadyForQuery, i.e. after every DataRow has been received.
"""
import http.client
import socket
import struct
import time


class HttpClient:
    def __init__(self, host, port, timeout=600):
        self.host, self.port, self.timeout = host, port, timeout
        self.conn = http.client.HTTPConnection(host, port, timeout=timeout)

    def request(self, method, path, body=None, headers=None):
        """Returns (status, body bytes, elapsed ns). One reconnect when a kept-alive connection was
        closed by the server before answering (not timed twice: the clock restarts)."""
        for attempt in (0, 1):
            try:
                t0 = time.perf_counter_ns()
                self.conn.request(method, path, body=body, headers=headers or {})
                r = self.conn.getresponse()
                data = r.read()
                return r.status, data, time.perf_counter_ns() - t0
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
                if attempt:
                    raise

    def close(self):
        self.conn.close()


class PgError(RuntimeError):
    pass


class PgClient:
    def __init__(self, host, port, user, database, timeout=600):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = bytearray()
        self.pos = 0
        params = b"user\0" + user.encode() + b"\0database\0" + database.encode() + b"\0\0"
        body = struct.pack("!I", 196608) + params
        self.sock.sendall(struct.pack("!I", len(body) + 4) + body)
        while True:
            t, payload = self._msg()
            if t == b"R":
                if struct.unpack("!I", payload[:4])[0] != 0:
                    raise PgError("server asks for a password; the benchmark cluster uses trust auth")
            elif t == b"E":
                raise PgError(self._error(payload))
            elif t == b"Z":
                return

    def _recv(self, n):
        while len(self.buf) - self.pos < n:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise PgError("connection closed by server")
            if self.pos:
                del self.buf[:self.pos]
                self.pos = 0
            self.buf += chunk
        out = bytes(self.buf[self.pos:self.pos + n])
        self.pos += n
        return out

    def _msg(self):
        head = self._recv(5)
        n = struct.unpack("!I", head[1:5])[0]
        return head[:1], self._recv(n - 4)

    @staticmethod
    def _error(payload):
        fields = {}
        for part in payload.split(b"\0"):
            if part:
                fields[part[:1]] = part[1:].decode(errors="replace")
        return fields.get(b"M", "error") + (f" ({fields[b'D']})" if b"D" in fields else "")

    def query(self, sql):
        """Returns ((column names, rows of text values or None), elapsed ns). The timed part only
        receives bytes and walks message boundaries up to ReadyForQuery; decoding comes after."""
        q = sql.encode() + b"\0"
        if self.pos:
            del self.buf[:self.pos]
            self.pos = 0
        buf = self.buf
        t0 = time.perf_counter_ns()
        self.sock.sendall(b"Q" + struct.pack("!I", len(q) + 4) + q)
        off = 0
        unpack = struct.unpack_from
        done = False
        while not done:
            while len(buf) - off >= 5:
                n = unpack("!I", buf, off + 1)[0]
                if len(buf) - off < n + 1:
                    break
                t = buf[off]
                off += n + 1
                if t == 0x5A:  # 'Z' ReadyForQuery: the whole answer is in
                    done = True
                    break
            if not done:
                chunk = self.sock.recv(1 << 22)
                if not chunk:
                    raise PgError("connection closed by server")
                buf += chunk
        elapsed = time.perf_counter_ns() - t0
        data = bytes(buf[:off])
        del buf[:off]
        names, rows, err = [], [], None
        i = 0
        while i < len(data):
            t = data[i:i + 1]
            n = unpack("!I", data, i + 1)[0]
            p = data[i + 5:i + 1 + n]
            i += n + 1
            if t == b"D":
                cnt = unpack("!H", p, 0)[0]
                o, row = 2, []
                for _ in range(cnt):
                    ln = unpack("!i", p, o)[0]
                    o += 4
                    if ln < 0:
                        row.append(None)
                    else:
                        row.append(p[o:o + ln].decode())
                        o += ln
                rows.append(row)
            elif t == b"T":
                cnt = unpack("!H", p, 0)[0]
                o = 2
                for _ in range(cnt):
                    e = p.index(b"\0", o)
                    names.append(p[o:e].decode())
                    o = e + 1 + 18
            elif t == b"E":
                err = self._error(p)
        if err:
            raise PgError(err)
        return (names, rows), elapsed

    def close(self):
        try:
            self.sock.sendall(b"X\0\0\0\4")
        finally:
            self.sock.close()
