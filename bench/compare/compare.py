#!/usr/bin/env python3
"""Query timing, answer checking and the comparison table for bench/compare/run.sh.

  compare.py run ENGINE --port P --queries-dir D --types "t1 t2" --qrange S E --out DIR
      Runs every instance of every type against ENGINE (gnomon, influxdb, victoriametrics,
      clickhouse, postgresql) with one client and one persistent connection, strictly in sequence,
      and writes DIR/<type>.json (latencies in ms, errors) and DIR/<type>.answers.json.gz (canonical
      answers, see dialects.py).
  compare.py check --queries-dir D --types ... --qrange S E --reference DIR ENGINE=DIR...
      Compares each engine's canonical answers with the reference (Gnomon's), instance by instance;
      writes the verdicts as JSON to stdout.
  compare.py table --root DIR --types ...
      Reads DIR/<engine>/{load,storage}.json, DIR/<engine>/queries/*.json, DIR/check.json and
      DIR/env.json; writes DIR/comparison.md and DIR/comparison.json and prints the Markdown.
"""
import argparse
import gzip
import json
import os
import statistics
import sys
import time
import urllib.parse

sys.dont_write_bytecode = True  # keep bench/compare free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dialects  # noqa: E402
from clients import HttpClient, PgClient, PgError  # noqa: E402

ENGINES = ["gnomon", "influxdb", "victoriametrics", "clickhouse", "postgresql"]
DB = "benchmark"


def load_queries(args, qtype):
    path = os.path.join(args.queries_dir, qtype + ".txt")
    s, e = (dialects.parse_rfc3339(x) for x in args.qrange)
    return dialects.load_query_file(path, qtype, s, e)


class Runner:
    """Sends one instance in the engine's dialect; returns (elapsed ns, canonical rows)."""

    def __init__(self, engine, port):
        self.engine = engine
        if engine == "postgresql":
            self.pg = PgClient("127.0.0.1", port, "postgres", DB)
            (_, rows), _ = self.pg.query("SELECT id, hostname FROM tags")
            self.tag_names = {r[0]: r[1] for r in rows}
        else:
            self.http = HttpClient("127.0.0.1", port)

    def _http(self, method, path, body=None, headers=None):
        status, data, ns = self.http.request(method, path, body, headers)
        if status != 200:
            raise RuntimeError(f"HTTP {status}: {data[:300].decode(errors='replace')}")
        return ns, data

    def run(self, q):
        e = self.engine
        if e == "gnomon":
            body = urllib.parse.urlencode({"sql": q.sql})
            ns, data = self._http("POST", f"/v1/sql?db={DB}&epoch=ns", body,
                                  {"Content-Type": "application/x-www-form-urlencoded"})
            return ns, dialects.canon_gnomon(q, data)
        if e == "influxdb":
            body = urllib.parse.urlencode({"q": q.influxql()})
            ns, data = self._http("POST", f"/query?db={DB}&epoch=ns", body,
                                  {"Content-Type": "application/x-www-form-urlencoded"})
            return ns, dialects.canon_influx(q, data)
        if e == "clickhouse":
            sql = q.clickhouse() + " FORMAT JSONCompact"
            ns, data = self._http("POST", f"/?database={DB}", sql.encode())
            return ns, dialects.canon_clickhouse(q, data)
        if e == "victoriametrics":
            path, params = q.promql()
            body = urllib.parse.urlencode(params)
            ns, data = self._http("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"})
            return ns, dialects.canon_victoria(q, data)
        if e == "postgresql":
            res, ns = self.pg.query(q.postgresql())
            return ns, dialects.canon_postgresql(q, res, self.tag_names)
        raise ValueError(e)

    def text(self, q):
        e = self.engine
        if e == "gnomon":
            return q.sql
        if e == "influxdb":
            return q.influxql()
        if e == "clickhouse":
            return q.clickhouse()
        if e == "postgresql":
            return q.postgresql()
        path, params = q.promql()
        return path + "?" + urllib.parse.urlencode(params)


def cmd_run(args):
    os.makedirs(args.out, exist_ok=True)
    runner = Runner(args.engine, args.port)
    for qtype in args.types.split():
        queries = load_queries(args, qtype)
        lat, answers, error = [], [], None
        loads = [os.getloadavg()[0]]
        for q in queries:
            try:
                ns, rows = runner.run(q)
            except (RuntimeError, PgError, ValueError, KeyError, json.JSONDecodeError) as ex:
                error = f"query {q.n}: {ex}"
                print(f"[{args.engine}] {qtype}: {error}", file=sys.stderr)
                break
            lat.append(ns / 1e6)
            answers.append({"n": q.n, "rows": rows})
        loads.append(os.getloadavg()[0])
        doc = {"engine": args.engine, "type": qtype, "label": queries[0].label if queries else qtype,
               "count": len(lat), "latencies_ms": lat, "error": error,
               "example": runner.text(queries[0]) if queries else "", "loadavg_1m": loads}
        if lat:
            doc.update(mean_ms=statistics.fmean(lat), median_ms=statistics.median(lat),
                       min_ms=min(lat), max_ms=max(lat))
        with open(os.path.join(args.out, qtype + ".json"), "w") as f:
            json.dump(doc, f, indent=1)
        with gzip.open(os.path.join(args.out, qtype + ".answers.json.gz"), "wt") as f:
            json.dump(answers, f)
        print(f"[{args.engine}] {qtype}: {len(lat)} queries, mean "
              f"{doc.get('mean_ms', float('nan')):.2f} ms" + (f"  ERROR {error}" if error else ""),
              file=sys.stderr)


def read_answers(d, qtype):
    p = os.path.join(d, qtype + ".answers.json.gz")
    if not os.path.exists(p):
        return None
    with gzip.open(p, "rt") as f:
        return {a["n"]: [tuple(r) for r in a["rows"]] for a in json.load(f)}


def describe_diff(ref, got, limit=3):
    rs, gs = set(ref), set(got)
    only_ref = sorted(rs - gs)[:limit]
    only_got = sorted(gs - rs)[:limit]
    return {"reference_rows": len(ref), "engine_rows": len(got),
            "only_in_reference": [list(r) for r in only_ref], "only_in_engine": [list(r) for r in only_got]}


def cmd_check(args):
    out = {}
    for spec in args.engines:
        engine, _, d = spec.partition("=")
        per_type = {}
        for qtype in args.types.split():
            ref = read_answers(args.reference, qtype)
            got = read_answers(d, qtype)
            queries = {q.n: q for q in load_queries(args, qtype)}
            if ref is None or got is None:
                per_type[qtype] = {"status": "not run"}
                continue
            match, mismatch, edges_only, details = 0, 0, 0, []
            for n, rows in got.items():
                if n not in ref:
                    continue
                q = queries[n]
                a, b = ref[n], rows
                if engine == "victoriametrics":
                    # PromQL range windows cannot be clipped to the SQL window: compare whole buckets.
                    a, b = dialects.drop_edges(q, a), dialects.drop_edges(q, b)
                if a == b:
                    match += 1
                    if engine == "victoriametrics" and q.edge_buckets():
                        edges_only += 1
                else:
                    mismatch += 1
                    if len(details) < 3:
                        details.append({"query": n, **describe_diff(a, b)})
            per_type[qtype] = {"status": "ok" if mismatch == 0 and match else
                               ("mismatch" if mismatch else "no answers"),
                               "matched": match, "mismatched": mismatch,
                               "compared_without_edge_buckets": edges_only, "examples": details}
        out[engine] = per_type
    json.dump(out, sys.stdout, indent=1)
    print()


def fmt_int(v):
    return f"{v:,.0f}" if isinstance(v, (int, float)) else "-"


def cmd_table(args):
    root = args.root
    types = args.types.split()
    env = json.load(open(os.path.join(root, "env.json"))) if os.path.exists(os.path.join(root, "env.json")) else {}
    check = json.load(open(os.path.join(root, "check.json"))) if os.path.exists(os.path.join(root, "check.json")) else {}
    data = {}
    for e in ENGINES:
        d = os.path.join(root, e)
        if not os.path.isdir(d):
            continue
        info = {}
        for name in ("load", "storage", "status"):
            p = os.path.join(d, name + ".json")
            if os.path.exists(p):
                info[name] = json.load(open(p))
        info["queries"] = {}
        for qtype in types:
            p = os.path.join(d, "queries", qtype + ".json")
            if os.path.exists(p):
                info["queries"][qtype] = json.load(open(p))
        data[e] = info
    engines = [e for e in ENGINES if e in data]
    peers = [e for e in engines if e != "gnomon"]

    def mean(e, t):
        q = data[e]["queries"].get(t)
        return q.get("mean_ms") if q and not q.get("error") else None

    def cell(e, t):
        q = data[e]["queries"].get(t)
        if not q:
            return "n/a"
        if q.get("error"):
            return "error"
        m = q.get("mean_ms")
        mark = ""
        c = check.get(e, {}).get(t)
        if e != "gnomon" and c and c.get("status") == "mismatch":
            mark = " ≠"
        return f"{m:.2f}{mark}" if m is not None else "n/a"

    def ratio(a, b):
        return f"{b / a:.2f}×" if a and b else "-"

    lines = []
    hdr = ["", *engines] + [f"peer/Gnomon {p}" for p in peers]
    lines.append("| " + " | ".join(hdr) + " |")
    lines.append("|" + "---|" * len(hdr))
    g = data.get("gnomon", {})

    def row(name, vals, ratios):
        lines.append("| " + " | ".join([name, *vals, *ratios]) + " |")

    def load_rate(e):
        return data[e].get("load", {}).get("rows_per_sec")

    def bpm(e):
        return data[e].get("storage", {}).get("bytes_per_metric")

    row("load rows/s (higher is better)", [fmt_int(load_rate(e)) for e in engines],
        [ratio(load_rate(p), load_rate("gnomon")) if "gnomon" in data else "-" for p in peers])
    row("bytes/metric (lower is better)", [f"{bpm(e):.3f}" if bpm(e) else "-" for e in engines],
        [ratio(bpm("gnomon"), bpm(p)) if "gnomon" in data else "-" for p in peers])
    for t in types:
        row(f"{t} mean ms", [cell(e, t) for e in engines],
            [ratio(mean("gnomon", t), mean(p, t)) if "gnomon" in data else "-" for p in peers])
    st = env.get("settings", {})
    la = env.get("loadavg_1m_during_run", {})
    head = [f"Workload: TSBS cpu-only, scale {st.get('scale')}, {st.get('start')} → {st.get('end')} "
            f"(10 s), seed {st.get('seed')}; {fmt_int(next(iter(data.values()), {}).get('load', {}).get('rows'))} rows; "
            f"{st.get('queries_per_type')} instances per query type, 1 client, sequential; "
            f"HTTP loads with {st.get('load_workers')} workers × {st.get('batch')} lines.",
            f"Machine: {env.get('nproc')} cores ({env.get('cpu')}), {env.get('memory')}, {env.get('os')}, "
            f"kernel {env.get('kernel')}. Load average (1 min) during the run: min {la.get('min')}, "
            f"mean {la.get('mean')}, max {la.get('max')} (shared machine).",
            f"Versions: Gnomon {env.get('gnomon')}; InfluxDB {env.get('influxdb')}; VictoriaMetrics "
            f"{env.get('victoria-metrics')}; ClickHouse {env.get('clickhouse-server')}; PostgreSQL "
            f"{env.get('postgresql')}.", ""]
    for e in engines:
        s = data[e].get("status", {}).get("status")
        if s and s != "ok":
            head.append(f"{e}: {s}")
    md = "\n".join(head + lines)
    notes = ["", "Ratios: load = Gnomon rows/s ÷ peer rows/s; bytes and latency = peer ÷ Gnomon "
             "(so > 1× means Gnomon is better in every row). ≠ = at least one instance answered "
             "differently from Gnomon (see check.json); error = the engine rejected the query.",
             ""]
    ag = data.get("gnomon", {}).get("queries", {})
    rq = [(t, ag[t].get("runner_mean_ms")) for t in types if t in ag and ag[t].get("runner_mean_ms")]
    if rq:
        notes.append("Gnomon with its own C++ runner (`gnomon bench run-queries`), mean ms: " +
                     ", ".join(f"{t} {m:.2f}" for t, m in rq))
    md += "\n" + "\n".join(notes)
    summary = {"env": env, "engines": data, "check": check, "types": types}
    with open(os.path.join(root, "comparison.json"), "w") as f:
        json.dump(summary, f, indent=1)
    with open(os.path.join(root, "comparison.md"), "w") as f:
        f.write(md + "\n")
    print(md)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("engine", choices=ENGINES)
    r.add_argument("--port", type=int, required=True)
    for s in (r, sub.add_parser("check")):
        s.add_argument("--queries-dir", required=True)
        s.add_argument("--types", required=True)
        s.add_argument("--qrange", nargs=2, required=True, metavar=("START", "END"))
    r.add_argument("--out", required=True)
    c = sub.choices["check"]
    c.add_argument("--reference", required=True)
    c.add_argument("engines", nargs="*")
    t = sub.add_parser("table")
    t.add_argument("--root", required=True)
    t.add_argument("--types", required=True)
    args = p.parse_args()
    {"run": cmd_run, "check": cmd_check, "table": cmd_table}[args.cmd](args)


if __name__ == "__main__":
    main()
