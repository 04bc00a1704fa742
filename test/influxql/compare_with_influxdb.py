#!/usr/bin/env python3
"""Runs InfluxQL statements against InfluxDB 1.x and Gnomon and compares their /query answers.

  compare_with_influxdb.py --influx URL --gnomon URL [--db DB] [--per-file N] [--known FILE] [--record] FILE_OR_DIR...

FILE_OR_DIR: TSBS query files (lines "-- http: POST /query?q=..."), files of one statement per
line (both run against --db), or declarative tests (*.test, the format of
test/integration/influxql_test.cc: their `write` blocks are loaded into both servers first).
JSON answers are compared exactly, floats within 1e-9 relative. Exit status 1 on any difference;
each one is printed with both answers. --known names query files whose differences are
intended (test/influxql/known_differences.txt): they are counted apart and do not fail the run. --record rewrites each *.test file's expected answers with
InfluxDB's (a new test is written with placeholder answer lines, then recorded).
"""
import argparse, glob, json, os, sys, urllib.parse, urllib.request


def query(base, db, q, epoch=None, extra=None):
    params = {"db": db, "q": q}
    if epoch:
        params["epoch"] = epoch
    if extra:
        params.update(urllib.parse.parse_qsl(extra))
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


def post(url, body, ctype):
    req = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": ctype})
    with urllib.request.urlopen(req, timeout=600) as r:
        return r.status


def test_file(path):
    """(write blocks [(db, body)], queries [(db, option, statement, expected line index)], lines)."""
    lines = open(path).read().split("\n")
    writes, queries, i = [], [], 0
    while i < len(lines):
        words = lines[i].split()
        if not words or words[0].startswith("#"):
            i += 1
        elif words[0] == "write":
            j = i + 1
            while j < len(lines) and lines[j]:
                j += 1
            writes.append((words[1], "\n".join(lines[i + 1:j]) + "\n"))
            i = j + 1
        elif words[0] == "query":
            queries.append((words[1], words[2] if len(words) > 2 else "", lines[i + 1], i + 2))
            i += 3
        else:
            sys.exit(f"{path}:{i + 1}: unknown directive {words[0]}")
    return writes, queries, lines


def compare(a, name, db, q, extra=None):
    si, ji = query(a.influx, db, q, a.epoch, extra)
    sg, jg = query(a.gnomon, db, q, a.epoch, extra)
    d = None if si == sg else f"status {si} != {sg}"
    d = d or same(ji, jg)
    if d:
        print(f"DIFF {name}: {d}\n  q: {q}\n  influxdb: {json.dumps(ji)[:600]}\n  gnomon:   {json.dumps(jg)[:600]}")
    return d is None, ji


def run_test_file(a, path):
    writes, queries, lines = test_file(path)
    for db, body in writes:
        for base in (a.influx, a.gnomon):
            query(base, db, "CREATE DATABASE " + db)
            post(base + "/write?db=" + urllib.parse.quote(db), body.encode(), "text/plain")
    ok = 0
    for db, option, q, answer_line in queries:
        good, ji = compare(a, os.path.basename(path), db, q, option)
        ok += good
        if a.record:
            lines[answer_line] = json.dumps(ji, separators=(",", ":"), ensure_ascii=False)
    if a.record:
        open(path, "w").write("\n".join(lines))
    return ok, len(queries)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--influx", required=True)
    ap.add_argument("--gnomon", required=True)
    ap.add_argument("--db")
    ap.add_argument("--per-file", type=int, default=3)
    ap.add_argument("--epoch")
    ap.add_argument("--record", action="store_true")
    ap.add_argument("--known", help="file of query file names whose differences are intended")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    files = []
    for p in a.paths:
        files += sorted(glob.glob(os.path.join(p, "*"))) if os.path.isdir(p) else [p]
    known = {}
    if a.known:
        for line in open(a.known):
            if line.strip() and not line.startswith("#"):
                file_name, _, why = line.rstrip("\n").partition("\t")
                known[file_name] = why
    total = good = known_seen = known_same = 0
    for f in files:
        if f.endswith(".test"):
            ok, n = run_test_file(a, f)
            good += ok
            total += n
            continue
        if not a.db:
            sys.exit("--db is needed for " + f)
        name = os.path.basename(f)
        for q in statements(f, a.per_file):
            ok = compare(a, name, a.db, q)[0]
            if name in known:
                known_seen += 1
                known_same += ok
                continue
            total += 1
            good += ok
    print(f"{good}/{total} statements answered the same")
    if known_seen:
        print(f"{known_seen - known_same}/{known_seen} statements of known-different files differ "
              f"({', '.join(sorted(known))}: see {a.known})")
    sys.exit(1 if good != total else 0)


if __name__ == "__main__":
    main()
