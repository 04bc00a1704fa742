"""One TSBS query instance, parsed from Gnomon's SQL, and its text in each peer's dialect, plus the
canonical form of each engine's answer (so answers can be compared across engines).

A query instance is what `gnomon bench generate-queries` wrote (GreptimeDB builder shape, time
column `time`, bounds truncated to whole seconds). Every translation keeps those exact bounds, hosts
and metrics, so all engines are asked the same question.

Canonical answers (lists of tuples, times in integer nanoseconds, numbers as '%.6f' text):
  single-groupby / cpu-max-all:  (bucket, v1..vM) sorted by bucket; empty buckets dropped
  double-groupby:                (bucket, v1..vM) sorted; hostname dropped, because Gnomon's query
                                 (the Greptime builder's) does not select it
  high-cpu:                      (time, hostname, usage_user..usage_guest_nice) sorted
  lastpoint:                     (hostname, usage_user..usage_guest_nice) sorted; Gnomon's query
                                 (last_value per column) returns no time
  groupby-orderby-limit:         (bucket, max) newest first
"""
import calendar
import json
import re
import time
import urllib.parse

FIELDS = ["usage_user", "usage_system", "usage_idle", "usage_nice", "usage_iowait", "usage_irq",
          "usage_softirq", "usage_steal", "usage_guest", "usage_guest_nice"]
TAGS = ["hostname", "region", "datacenter", "rack", "os", "arch", "team", "service",
        "service_version", "service_environment"]
NS = 1_000_000_000


def kind_of(qtype):
    for prefix, kind in (("single-groupby", "sg"), ("cpu-max-all", "cma"), ("double-groupby", "dg"),
                         ("high-cpu", "hc"), ("lastpoint", "lp"), ("groupby-orderby-limit", "gol")):
        if qtype.startswith(prefix):
            return kind
    raise ValueError(f"unknown query type {qtype}")


def parse_rfc3339(s):
    """'2023-06-11T02:17:08Z' (whole seconds, UTC) -> Unix seconds."""
    return calendar.timegm(time.strptime(s, "%Y-%m-%dT%H:%M:%SZ"))


def sql_time(s):
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(s))


def rfc3339(s):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(s))


def num(v):
    return None if v is None else "%.6f" % float(v)


class Query:
    """One parsed instance. start/end/T are Unix seconds; bucket is seconds (60 or 3600)."""

    def __init__(self, qtype, n, label, sql, qstart, qend):
        self.qtype, self.n, self.label, self.sql = qtype, n, label, sql
        self.kind = kind_of(qtype)
        self.qstart, self.qend = qstart, qend  # generator range (for lastpoint's lookback)
        self.hosts = re.findall(r"hostname = '([^']+)'", sql)
        self.metrics = [m for _, m in re.findall(r"\b(max|avg)\((usage_\w+)\)", sql)]
        lo = re.search(r">= '([^']+)'", sql)
        hi = re.search(r"< '([^']+)'", sql)
        self.start = parse_rfc3339(lo.group(1)) if lo else None
        self.end = parse_rfc3339(hi.group(1)) if hi else None
        self.bucket = 3600 if self.kind in ("cma", "dg") else 60
        if self.kind in ("sg", "cma", "dg") and (not self.metrics or self.start is None):
            raise ValueError(f"{qtype} #{n}: cannot parse {sql!r}")
        if self.kind == "gol" and self.end is None:
            raise ValueError(f"{qtype} #{n}: no end bound in {sql!r}")

    # ---- dialects -------------------------------------------------------------------------------
    def influxql(self):
        """TSBS's InfluxQL builder text, except groupby-orderby-limit, which gets the ORDER BY time
        DESC that TSBS's builder omits (without it InfluxQL returns the *earliest* 5 buckets)."""
        hosts = " or ".join(f"hostname = '{h}'" for h in self.hosts)
        rng = f"time >= '{rfc3339(self.start)}' and time < '{rfc3339(self.end)}'" if self.start is not None else ""
        if self.kind in ("sg", "cma"):
            sel = ",".join(f"max({m})" for m in self.metrics)
            g = "1m" if self.bucket == 60 else "1h"
            return f"SELECT {sel} from cpu where ({hosts}) and {rng} group by time({g})"
        if self.kind == "dg":
            sel = ", ".join(f"mean({m})" for m in self.metrics)
            return f"SELECT {sel} from cpu where {rng} group by time(1h),hostname"
        if self.kind == "hc":
            h = f" and ({hosts})" if self.hosts else ""
            return f"SELECT * from cpu where usage_user > 90.0{h} and {rng}"
        if self.kind == "lp":
            return 'SELECT * from cpu group by "hostname" order by time desc limit 1'
        return (f"SELECT max(usage_user) from cpu WHERE time < '{rfc3339(self.end)}' "
                f"group by time(1m) fill(none) order by time desc limit 5")

    def clickhouse(self):
        """TSBS's ClickHouse builder shape on one denormalised table (tags as columns)."""
        hosts = ", ".join(f"'{h}'" for h in self.hosts)
        rng = f"time >= '{sql_time(self.start)}' AND time < '{sql_time(self.end)}'" if self.start is not None else ""
        if self.kind in ("sg", "cma"):
            f = "toStartOfMinute" if self.bucket == 60 else "toStartOfHour"
            sel = ", ".join(f"max({m}) AS max_{m}" for m in self.metrics)
            return (f"SELECT {f}(time) AS bucket, {sel} FROM cpu WHERE hostname IN ({hosts}) AND {rng} "
                    f"GROUP BY bucket ORDER BY bucket")
        if self.kind == "dg":
            sel = ", ".join(f"avg({m}) AS mean_{m}" for m in self.metrics)
            return (f"SELECT toStartOfHour(time) AS hour, hostname, {sel} FROM cpu WHERE {rng} "
                    f"GROUP BY hour, hostname ORDER BY hour, hostname")
        if self.kind == "hc":
            h = f" AND hostname IN ({hosts})" if self.hosts else ""
            return f"SELECT * FROM cpu WHERE usage_user > 90.0 AND {rng}{h}"
        if self.kind == "lp":
            return ("SELECT * FROM cpu WHERE (hostname, time) IN "
                    "(SELECT hostname, max(time) FROM cpu GROUP BY hostname) ORDER BY hostname")
        return (f"SELECT toStartOfMinute(time) AS minute, max(usage_user) FROM cpu "
                f"WHERE time < '{sql_time(self.end)}' GROUP BY minute ORDER BY minute DESC LIMIT 5")

    def postgresql(self):
        """TSBS's TimescaleDB builder text (tags table, tags_id filter), with date_trunc in place of
        time_bucket (identical for 1 min / 1 h buckets in UTC) and second-precision bounds."""
        hosts = ", ".join(f"'{h}'" for h in self.hosts)
        tag_filter = f"tags_id IN (SELECT id FROM tags WHERE hostname IN ({hosts}))"
        rng = f"time >= '{rfc3339(self.start)}' AND time < '{rfc3339(self.end)}'" if self.start is not None else ""
        if self.kind in ("sg", "cma"):
            unit = "minute" if self.bucket == 60 else "hour"
            sel = ", ".join(f"max({m}) as max_{m}" for m in self.metrics)
            return (f"SELECT date_trunc('{unit}', time) AS bucket, {sel} FROM cpu WHERE {tag_filter} "
                    f"AND {rng} GROUP BY bucket ORDER BY bucket ASC")
        if self.kind == "dg":
            sel = ", ".join(f"avg({m}) as mean_{m}" for m in self.metrics)
            cols = ", ".join(f"mean_{m}" for m in self.metrics)
            return (f"WITH cpu_avg AS (SELECT date_trunc('hour', time) as hour, tags_id, {sel} FROM cpu "
                    f"WHERE {rng} GROUP BY 1, 2) SELECT hour, tags.hostname, {cols} FROM cpu_avg "
                    f"JOIN tags ON cpu_avg.tags_id = tags.id ORDER BY hour, tags.hostname")
        if self.kind == "hc":
            h = f" AND {tag_filter}" if self.hosts else ""
            return f"SELECT * FROM cpu WHERE usage_user > 90.0 AND {rng}{h}"
        if self.kind == "lp":
            return ("SELECT DISTINCT ON (t.hostname) * FROM tags t INNER JOIN LATERAL "
                    "(SELECT * FROM cpu c WHERE c.tags_id = t.id ORDER BY time DESC LIMIT 1) AS b ON true "
                    "ORDER BY t.hostname, b.time DESC")
        return (f"SELECT date_trunc('minute', time) AS minute, max(usage_user) FROM cpu "
                f"WHERE time < '{rfc3339(self.end)}' GROUP BY minute ORDER BY minute DESC LIMIT 5")

    def promql(self):
        """(path, params) for VictoriaMetrics. Range windows (t - w, t] cannot be clipped to the
        query's [start, end), so a bucket is evaluated at its last second and buckets that the SQL
        window cuts (first/last) are excluded when comparing (see edge_buckets)."""
        hosts = "|".join(re.escape(h) for h in self.hosts)
        hsel = f',hostname=~"^({hosts})$"' if self.hosts else ""
        b = self.bucket
        if self.kind in ("sg", "cma", "dg"):
            names = "|".join(self.metrics)
            sel = f'{{__name__=~"cpu_({names})"{hsel}}}'
            first = self.start // b * b
            last = (self.end - 1) // b * b
            if self.kind == "dg":
                q = f"avg_over_time({sel}[{b}s]) keep_metric_names"
            else:
                q = f"max(max_over_time({sel}[{b}s]) keep_metric_names) by (__name__)"
            return "/api/v1/query_range", {"query": q, "start": first + b - 1, "end": last + b - 1,
                                           "step": f"{b}s", "nocache": "1"}
        if self.kind == "hc":
            q = (f'{{__name__=~"cpu_usage_.*"{hsel}}} and on(hostname) '
                 f'(cpu_usage_user{{{hsel[1:]}}} > 90)')
            first = -(-self.start // 10) * 10
            last = (self.end - 1) // 10 * 10
            return "/api/v1/query_range", {"query": q, "start": first, "end": last, "step": "10s",
                                           "nocache": "1"}
        if self.kind == "lp":
            window = self.qend - self.qstart
            q = f'last_over_time({{__name__=~"cpu_usage_.*"}}[{window}s]) keep_metric_names'
            return "/api/v1/query", {"query": q, "time": self.qend, "nocache": "1"}
        last = (self.end - 1) // 60 * 60
        q = "max(max_over_time(cpu_usage_user[60s]))"
        return "/api/v1/query_range", {"query": q, "start": last - 4 * 60 + 59, "end": last + 59,
                                       "step": "60s", "nocache": "1"}

    def edge_buckets(self):
        """Bucket starts (ns) whose SQL bucket is cut by the query window; only VictoriaMetrics
        answers differ there."""
        if self.kind in ("sg", "cma", "dg"):
            b = self.bucket
            edges = set()
            if self.start % b:
                edges.add(self.start // b * b * NS)
            if self.end % b:
                edges.add((self.end - 1) // b * b * NS)
            return edges
        if self.kind == "gol":
            return {(self.end - 1) // 60 * 60 * NS} if self.end % 60 else set()
        return set()


def load_query_file(path, qtype, qstart, qend):
    """Reads `gnomon bench generate-queries` output (blocks of '-- key: value' lines + SQL)."""
    out = []
    with open(path, encoding="utf-8") as f:
        blocks = f.read().split("\n\n")
    for block in blocks:
        lines = [l for l in block.strip("\n").split("\n") if l]
        if not lines:
            continue
        meta = {}
        sql = []
        for l in lines:
            if l.startswith("-- ") and ":" in l and not sql:
                k, _, v = l[3:].partition(":")
                meta[k.strip()] = v.strip()
            else:
                sql.append(l)
        out.append(Query(qtype, int(meta.get("query", len(out) + 1)), meta.get("label", qtype),
                         "\n".join(sql), qstart, qend))
    return out


# ---- canonical answers --------------------------------------------------------------------------
def _ts_text_ns(s):
    """'2023-06-11 02:17:00' / '2023-06-11 02:17:00+00' / RFC 3339 -> ns."""
    s = s.strip().replace("T", " ").rstrip("Z")
    if s.endswith("+00"):
        s = s[:-3]
    frac = 0
    if "." in s:
        s, f = s.split(".", 1)
        frac = int((f + "000000000")[:9])
    return calendar.timegm(time.strptime(s, "%Y-%m-%d %H:%M:%S")) * NS + frac


def _finish(q, rows):
    if q.kind == "gol":
        return [tuple(r) for r in rows]
    return sorted(tuple(r) for r in rows)


def canon_gnomon(q, body):
    """Gnomon /v1/sql?epoch=ns JSON: {"columns":[{"name","type"}],"rows":[[..]]}."""
    doc = json.loads(body)
    names = [c["name"] for c in doc["columns"]]
    rows = []
    for r in doc["rows"]:
        if q.kind in ("sg", "cma", "dg", "gol"):
            rows.append((int(r[-1]),) + tuple(num(v) for v in r[:-1]))
        elif q.kind == "hc":
            d = dict(zip(names, r))
            rows.append((int(d["time"]), d["hostname"]) + tuple(num(d[f]) for f in FIELDS))
        else:  # lastpoint: 10 tags then 10 fields, positionally (last_value(...) columns)
            rows.append((r[0],) + tuple(num(v) for v in r[10:20]))
    return _finish(q, rows)


def canon_influx(q, body):
    """InfluxDB /query?epoch=ns JSON. Empty buckets (all values null) are dropped: InfluxQL fills
    them with null where SQL engines return no row."""
    doc = json.loads(body)
    res = doc["results"][0]
    if "error" in res:
        raise RuntimeError(res["error"])
    rows = []
    for s in res.get("series", []):
        cols = s["columns"]
        tags = s.get("tags", {})
        for v in s["values"]:
            d = dict(zip(cols, v))
            if q.kind in ("sg", "cma", "dg", "gol"):
                vals = v[1:]
                if all(x is None for x in vals):
                    continue
                rows.append((int(v[0]),) + tuple(num(x) for x in vals))
            elif q.kind == "hc":
                rows.append((int(d["time"]), d["hostname"]) + tuple(num(d[f]) for f in FIELDS))
            else:
                rows.append((tags.get("hostname", d.get("hostname")),) + tuple(num(d[f]) for f in FIELDS))
    return _finish(q, rows)


def canon_clickhouse(q, body):
    """ClickHouse FORMAT JSONCompact; DateTime arrives as 'YYYY-MM-DD hh:mm:ss' (server TZ UTC)."""
    doc = json.loads(body)
    names = [m["name"] for m in doc["meta"]]
    rows = []
    for r in doc["data"]:
        if q.kind in ("sg", "cma", "gol"):
            rows.append((_ts_text_ns(r[0]),) + tuple(num(v) for v in r[1:]))
        elif q.kind == "dg":
            rows.append((_ts_text_ns(r[0]),) + tuple(num(v) for v in r[2:]))
        else:
            d = dict(zip(names, r))
            vals = tuple(num(d[f]) for f in FIELDS)
            rows.append(((_ts_text_ns(d["time"]), d["hostname"]) if q.kind == "hc" else (d["hostname"],)) + vals)
    return _finish(q, rows)


def canon_postgresql(q, result, tag_names):
    """result = (column names, rows of text values) from the wire client; tag_names maps tags_id
    (text) -> hostname for high-cpu, whose TSBS query returns tags_id, not the hostname."""
    names, data = result
    rows = []
    for r in data:
        if q.kind in ("sg", "cma", "gol"):
            rows.append((_ts_text_ns(r[0]),) + tuple(num(v) for v in r[1:]))
        elif q.kind == "dg":
            rows.append((_ts_text_ns(r[0]),) + tuple(num(v) for v in r[2:]))
        else:
            d = dict(zip(names, r))
            vals = tuple(num(d[f]) for f in FIELDS)
            if q.kind == "hc":
                rows.append((_ts_text_ns(d["time"]), tag_names[d["tags_id"]]) + vals)
            else:
                rows.append((d["hostname"],) + vals)
    return _finish(q, rows)


def canon_victoria(q, body):
    doc = json.loads(body)
    if doc.get("status") != "success":
        raise RuntimeError(doc.get("error", body[:200]))
    res = doc["data"]["result"]
    b = q.bucket
    if q.kind in ("sg", "cma", "gol"):
        by_t = {}
        order = q.metrics if q.kind != "gol" else ["usage_user"]
        for s in res:
            name = s["metric"].get("__name__", "cpu_usage_user")[4:]
            for t, v in s["values"]:
                by_t.setdefault(int(float(t)) - (b - 1), {})[name] = v
        rows = [((t) * NS,) + tuple(num(d.get(m)) for m in order) for t, d in by_t.items()]
        if q.kind == "gol":
            rows.sort(reverse=True)
        return _finish(q, rows)
    if q.kind == "dg":
        by = {}
        for s in res:
            name = s["metric"]["__name__"][4:]
            for t, v in s["values"]:
                by.setdefault((int(float(t)) - (b - 1), s["metric"]["hostname"]), {})[name] = v
        return _finish(q, [((k[0]) * NS,) + tuple(num(d.get(m)) for m in q.metrics) for k, d in by.items()])
    if q.kind == "hc":
        by = {}
        for s in res:
            name = s["metric"]["__name__"][4:]
            for t, v in s["values"]:
                by.setdefault((int(float(t)), s["metric"]["hostname"]), {})[name] = v
        return _finish(q, [(k[0] * NS, k[1]) + tuple(num(d.get(f)) for f in FIELDS) for k, d in by.items()])
    by = {}
    for s in res:
        by.setdefault(s["metric"]["hostname"], {})[s["metric"]["__name__"][4:]] = s["value"][1]
    return _finish(q, [(h,) + tuple(num(d.get(f)) for f in FIELDS) for h, d in by.items()])


def drop_edges(q, rows):
    edges = q.edge_buckets()
    if not edges:
        return rows
    return [r for r in rows if r[0] not in edges]


def influx_url(q, db):
    return "/query?" + urllib.parse.urlencode({"db": db, "epoch": "ns", "q": q.influxql()})
