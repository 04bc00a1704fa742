#!/usr/bin/env python3
"""Convert TSBS cpu-only InfluxDB line protocol into the bulk formats of the SQL peers.

  lp_convert.py clickhouse DATA.lp OUT.tsv
      TSV for `INSERT INTO cpu FORMAT TabSeparated`: time ('YYYY-MM-DD hh:mm:ss', UTC), the 10 tag
      strings, the 10 field values (as written, without the `i` suffix).
  lp_convert.py postgresql DATA.lp TAGS.csv CPU.csv
      TSBS's TimescaleDB layout: TAGS.csv = id,<10 tags> (ids 1.. in order of first appearance, as
      TSBS's loader assigns them), CPU.csv = time ('YYYY-MM-DD hh:mm:ss+00'),tags_id,<10 fields>.

Only cpu-only data is accepted (one measurement `cpu`, 10 tags, 10 fields in TSBS order); anything
else stops with the line number, so a wrong input never yields a silently different table.
The conversion runs before the timed load, as TSBS generates each target's format beforehand.
"""
import sys
import time

TAGS = ["hostname", "region", "datacenter", "rack", "os", "arch", "team", "service",
        "service_version", "service_environment"]
FIELDS = ["usage_user", "usage_system", "usage_idle", "usage_nice", "usage_iowait", "usage_irq",
          "usage_softirq", "usage_steal", "usage_guest", "usage_guest_nice"]


def parse_lines(path):
    """Yields (tag values, field value strings, timestamp seconds) per data line."""
    with open(path, "r", encoding="ascii") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            parts = line.split(" ")
            if len(parts) != 3:
                sys.exit(f"{path}:{lineno}: expected 'series fields timestamp'")
            series = parts[0].split(",")
            if series[0] != "cpu" or len(series) != 11:
                sys.exit(f"{path}:{lineno}: not a cpu-only line with 10 tags")
            tags = []
            for kv, name in zip(series[1:], TAGS):
                k, _, v = kv.partition("=")
                if k != name:
                    sys.exit(f"{path}:{lineno}: tag {k!r} where {name!r} was expected")
                tags.append(v)
            fields = []
            for kv, name in zip(parts[1].split(","), FIELDS):
                k, _, v = kv.partition("=")
                if k != name:
                    sys.exit(f"{path}:{lineno}: field {k!r} where {name!r} was expected")
                fields.append(v[:-1] if v.endswith("i") else v)
            if len(fields) != 10:
                sys.exit(f"{path}:{lineno}: expected 10 fields")
            ns = int(parts[2])
            if ns % 1_000_000_000:
                sys.exit(f"{path}:{lineno}: timestamp is not whole seconds (DateTime would round)")
            yield tags, fields, ns // 1_000_000_000


class TimeText:
    """Caches the text of each distinct second (TSBS data has one timestamp per host per 10 s)."""

    def __init__(self, suffix):
        self.suffix = suffix
        self.cache = {}

    def __call__(self, s):
        t = self.cache.get(s)
        if t is None:
            t = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(s)) + self.suffix
            self.cache[s] = t
        return t


def clickhouse(src, out):
    fmt = TimeText("")
    n = 0
    with open(out, "w", encoding="ascii", buffering=1 << 20) as o:
        for tags, fields, s in parse_lines(src):
            o.write(fmt(s) + "\t" + "\t".join(tags) + "\t" + "\t".join(fields) + "\n")
            n += 1
    print(f"clickhouse: {n} rows -> {out}", file=sys.stderr)


def postgresql(src, tags_out, cpu_out):
    fmt = TimeText("+00")
    ids = {}
    n = 0
    with open(tags_out, "w", encoding="ascii") as t, \
            open(cpu_out, "w", encoding="ascii", buffering=1 << 20) as o:
        for tags, fields, s in parse_lines(src):
            key = tuple(tags)
            tid = ids.get(key)
            if tid is None:
                tid = len(ids) + 1
                ids[key] = tid
                t.write(str(tid) + "," + ",".join(tags) + "\n")
            o.write(fmt(s) + "," + str(tid) + "," + ",".join(fields) + "\n")
            n += 1
    print(f"postgresql: {n} rows, {len(ids)} tag sets -> {tags_out}, {cpu_out}", file=sys.stderr)


def main(argv):
    if len(argv) == 4 and argv[1] == "clickhouse":
        clickhouse(argv[2], argv[3])
    elif len(argv) == 5 and argv[1] == "postgresql":
        postgresql(argv[2], argv[3], argv[4])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
