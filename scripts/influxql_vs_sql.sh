#!/usr/bin/env bash
# The devops queries in InfluxQL (/query) against the same questions in SQL (/v1/sql), on the same
# server and data (docs/benchmarks.md, "InfluxQL against SQL"):
#   scripts/influxql_vs_sql.sh [BUILD_DIR]
# Loads cpu-only SCALE hosts x HOURS hours (default 100 x 24), stops the server cleanly (which
# flushes) and starts it again, then for each devops type runs QUERIES queries (TSBS's draws, seed
# 123) as TSBS's Influx builder writes them and as Gnomon SQL, alternating, ROUNDS times. Prints the
# mean milliseconds of each language per type and their ratio (InfluxQL / SQL).
# groupby-orderby-limit: TSBS's InfluxQL text has no ORDER BY, so it asks for the earliest five
# buckets before the end, not the latest (spec 7.6); the two are not the same question there.
# WORK (default bench-results/influxql-vs-sql) holds data and logs; PORT (default 4328).
set -euo pipefail
cd "$(dirname "$0")/.."
GNOMON=${1:-build}/gnomon
SCALE=${SCALE:-100}; HOURS=${HOURS:-24}; QUERIES=${QUERIES:-20}; ROUNDS=${ROUNDS:-2}
WORK=${WORK:-bench-results/influxql-vs-sql}; PORT=${PORT:-4328}
TYPES=${TYPES:-"cpu-max-all-1 cpu-max-all-8 double-groupby-1 double-groupby-5 double-groupby-all groupby-orderby-limit high-cpu-1 high-cpu-all lastpoint single-groupby-1-1-1 single-groupby-1-1-12 single-groupby-1-8-1 single-groupby-5-1-1 single-groupby-5-1-12 single-groupby-5-8-1"}
START=2023-06-11T00:00:00Z
END=$(date -u -d "@$((1686441600 + HOURS * 3600))" +%Y-%m-%dT%H:%M:%SZ)
QUERY_END=$(date -u -d "@$((1686441600 + HOURS * 3600 + 1))" +%Y-%m-%dT%H:%M:%SZ)
URL=http://127.0.0.1:$PORT
mkdir -p "$WORK"
data=$WORK/cpu-only-$SCALE-$HOURS.lp
[ -f "$data" ] || "$GNOMON" bench generate-data --use-case cpu-only --scale "$SCALE" --seed 123 \
  --timestamp-start "$START" --timestamp-end "$END" --log-interval 10s --out "$data" 2>/dev/null
rm -rf "$WORK/data"

source scripts/server_start.sh
mean_ms() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["Totals"]["overallStats"]["all_queries"]["meanMilliseconds"])' "$1"; }

start_server
"$GNOMON" bench load --url "$URL" --db benchmark --file "$data" --workers 4 --batch-size 10000 \
  --create-db --no-progress --reporting-period 0s >/dev/null
kill -TERM $pid; wait $pid || true
start_server
: >"$WORK/means.txt"
for type in $TYPES; do
  for format in sql influx; do
    q=$WORK/$type.$format.txt
    [ -f "$q" ] || "$GNOMON" bench generate-queries --use-case devops --query-type "$type" --scale "$SCALE" \
      --seed 123 --timestamp-start "$START" --timestamp-end "$QUERY_END" --queries "$QUERIES" --format "$format" \
      --out "$q" 2>/dev/null
  done
  for round in $(seq 1 "$ROUNDS"); do
    "$GNOMON" bench run-queries --url "$URL" --db benchmark --file "$WORK/$type.sql.txt" --json "$WORK/r.json" >/dev/null 2>&1
    echo "$type sql $(mean_ms "$WORK/r.json")" >>"$WORK/means.txt"
    "$GNOMON" bench run-queries --url "$URL" --db benchmark --influxql --file "$WORK/$type.influx.txt" \
      --json "$WORK/r.json" >/dev/null 2>&1
    echo "$type influxql $(mean_ms "$WORK/r.json")" >>"$WORK/means.txt"
  done
done
kill -TERM $pid; wait $pid || true
python3 - "$WORK/means.txt" <<'PY'
import collections, sys
m = collections.defaultdict(list)
order = []
for line in open(sys.argv[1]):
    t, lang, ms = line.split()
    if t not in order: order.append(t)
    m[(t, lang)].append(float(ms))
print(f"{'type':24} {'sql_ms':>9} {'influxql_ms':>12} {'ratio':>6}")
for t in order:
    s = sum(m[(t, 'sql')]) / len(m[(t, 'sql')]); i = sum(m[(t, 'influxql')]) / len(m[(t, 'influxql')])
    print(f"{t:24} {s:9.2f} {i:12.2f} {i / s:6.2f}")
PY
