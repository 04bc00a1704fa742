# Sourced by the scripts that run InfluxDB 1.x beside Gnomon (the oracle, the IoT comparison):
# start_influxd WORK writes a config for a fresh data directory under WORK, starts "$INFLUXD"
# (default influxd) on a free loopback port, waits until it listens, and sets INFLUXD_PID and
# INFLUX_URL. free_port and wait_listening serve the callers' own servers too.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

wait_listening() {  # port pid log
  for _ in $(seq 1 300); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    kill -0 "$2" 2>/dev/null || { cat "$3" >&2; echo "server exited at start" >&2; exit 2; }
    sleep 0.1
  done
  echo "nothing listened on port $1" >&2
  exit 2
}

start_influxd() {  # work dir
  local port
  port=$(free_port)
  cat >"$1/influxdb.conf" <<CONF
reporting-disabled = true
bind-address = "127.0.0.1:$(free_port)"
[meta]
  dir = "$1/influx/meta"
[data]
  dir = "$1/influx/data"
  wal-dir = "$1/influx/wal"
  query-log-enabled = false
  max-values-per-tag = 0
[http]
  bind-address = "127.0.0.1:$port"
  log-enabled = false
[monitor]
  store-enabled = false
CONF
  "${INFLUXD:-influxd}" -config "$1/influxdb.conf" >"$1/influxd.log" 2>&1 &
  INFLUXD_PID=$!
  wait_listening "$port" "$INFLUXD_PID" "$1/influxd.log"
  INFLUX_URL="http://127.0.0.1:$port"
}
