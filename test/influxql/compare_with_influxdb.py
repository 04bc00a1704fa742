#!/usr/bin/env python3
"""Runs InfluxQL statements against InfluxDB 1.x and Gnomon and compares their /query answers.

  compare_with_influxdb.py --influx URL --gnomon URL --db DB [--per-file N] FILE_OR_DIR...

FILE_OR_DIR: TSBS query files (lines "-- http: POST /query?q=...") or files of one statement per
line. JSON answers are compared exactly, floats within 1e-9 relative. Exit status 1 on any
difference; each one is printed with both answers.
"""
import argparse, glob, json, os, sys, urllib.parse, urllib.request


def query(base, db, q, epoch=None):
    params = {"db": db, "q": q}
    if epoch:
        params["epoch"] = epoch
    data = urllib.parse.urlencode(params).encode()
    req = urllib.request.Request(base + "/query", data=data, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=600) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def same(a, b, path="$"):
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
            if a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b)):
                return None
        return f"{path}: {a!r} != {b!r}"
    if type(a) != type(b):
        return f"{path}: {a!r} != {b!r}"
    if isinstance(a, dict):
        # InfluxDB 1.x marks a series of over 10,000 values "partial" even when it sends it whole
        # (its chunks merged); Gnomon does not. docs/influxql.md lists this difference.
        a = {k: v for k, v in a.items() if k != "partial"}
        b = {k: v for k, v in b.items() if k != "partial"}
        if set(a) != set(b):
            return f"{path}: keys {sorted(a)} != {sorted(b)}"
        for k in a:
            d = same(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = same(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"


def statements(path, per_file):
    out = []
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("-- http: "):
            url = line.split(" ", 3)[3]
            qs = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)
            out.append(qs["q"][0])
        elif line and not line.startswith("--") and not line.startswith("#") and not path.endswith(".txt"):
            out.append(line)
        if per_file and len(out) >= per_file:
            break
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--influx", required=True)
    ap.add_argument("--gnomon", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--per-file", type=int, default=3)
    ap.add_argument("--epoch")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    files = []
    for p in a.paths:
        files += sorted(glob.glob(os.path.join(p, "*"))) if os.path.isdir(p) else [p]
    total = bad = 0
    for f in files:
        for q in statements(f, a.per_file):
            total += 1
            si, ji = query(a.influx, a.db, q, a.epoch)
            sg, jg = query(a.gnomon, a.db, q, a.epoch)
            d = None if si == sg else f"status {si} != {sg}"
            d = d or same(ji, jg)
            if d:
                bad += 1
                print(f"DIFF {os.path.basename(f)}: {d}\n  q: {q}\n  influxdb: {json.dumps(ji)[:600]}\n  gnomon:   {json.dumps(jg)[:600]}")
    print(f"{total - bad}/{total} statements answered the same")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
