#!/usr/bin/env bash
# Queries on fresh data (still in memtables) against the same queries after a flush
# (docs/benchmarks.md, "Fresh data"):
#   scripts/fresh_vs_flushed.sh [BUILD_DIR]
# Loads cpu-only SCALE hosts x HOURS hours (default 100 x 4: the memtable holds all of it), runs
# QUERIES queries of each devops type, stops the server cleanly (which flushes), starts it again
# on the same directory and runs the same queries. Prints median milliseconds per type, both ways,
# and their ratio. WORK (default bench-results/fresh) holds data and logs; PORT (default 4327).
# USE_CASE=iot runs the 13 IoT types over TSBS's truck data instead (SCALE trucks).
set -euo pipefail
cd "$(dirname "$0")/.."
GNOMON=${1:-build}/gnomon
SCALE=${SCALE:-100}; HOURS=${HOURS:-4}; QUERIES=${QUERIES:-20}; USE_CASE=${USE_CASE:-cpu-only}
WORK=${WORK:-bench-results/fresh}; PORT=${PORT:-4327}
DEVOPS_TYPES="cpu-max-all-1 cpu-max-all-8 double-groupby-1 double-groupby-5 double-groupby-all groupby-orderby-limit high-cpu-1 high-cpu-all lastpoint single-groupby-1-1-1 single-groupby-1-1-12 single-groupby-1-8-1 single-groupby-5-1-1 single-groupby-5-1-12 single-groupby-5-8-1"
IOT_TYPES="last-loc single-last-loc low-fuel high-load stationary-trucks long-driving-sessions long-daily-sessions avg-vs-projected-fuel-consumption avg-daily-driving-duration avg-daily-driving-session avg-load daily-activity breakdown-frequency"
QUERY_USE_CASE=devops; DEFAULT_TYPES=$DEVOPS_TYPES
if [ "$USE_CASE" = iot ]; then QUERY_USE_CASE=iot; DEFAULT_TYPES=$IOT_TYPES; fi
TYPES=${TYPES:-$DEFAULT_TYPES}
START=2023-06-11T00:00:00Z
END=$(date -u -d "@$((1686441600 + HOURS * 3600))" +%Y-%m-%dT%H:%M:%SZ)
# Queries end one second past the data, as TSBS's setups generate them (spec section 6.1).
QUERY_END=$(date -u -d "@$((1686441600 + HOURS * 3600 + 1))" +%Y-%m-%dT%H:%M:%SZ)
URL=http://127.0.0.1:$PORT
mkdir -p "$WORK"
data=$WORK/$USE_CASE-$SCALE-$HOURS.lp
[ -f "$data" ] || "$GNOMON" bench generate-data --use-case "$USE_CASE" --scale "$SCALE" --seed 123 \
  --timestamp-start "$START" --timestamp-end "$END" --log-interval 10s --out "$data" 2>/dev/null
rm -rf "$WORK/data"

source scripts/server_start.sh
# Median ms of each type, one line "type ms" each, into $1.
run_all() {
  : >"$1"
  for type in $TYPES; do
    q=$WORK/$type.txt
    if [ ! -f "$q" ] && ! "$GNOMON" bench generate-queries --use-case "$QUERY_USE_CASE" --query-type "$type" \
        --scale "$SCALE" --seed 123 --timestamp-start "$START" --timestamp-end "$QUERY_END" \
        --queries "$QUERIES" --out "$q" 2>/dev/null; then
      continue  # the span is too short for this type
    fi
    "$GNOMON" bench run-queries --url "$URL" --db benchmark --file "$q" --workers 1 --json "$WORK/r.json" >/dev/null 2>&1
    echo "$type $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["Totals"]["overallQuantiles"]["all_queries"]["q50"])' "$WORK/r.json")" >>"$1"
  done
}

start_server
"$GNOMON" bench load --url "$URL" --db benchmark --file "$data" --workers 4 --batch-size 10000 \
  --create-db --no-progress --reporting-period 0s >/dev/null
run_all "$WORK/fresh.txt"
kill -TERM $pid; wait $pid || true
start_server
run_all "$WORK/flushed.txt"
kill -TERM $pid; wait $pid || true
printf '%-24s %10s %10s %7s\n' type fresh_ms flushed_ms ratio
join <(sort "$WORK/fresh.txt") <(sort "$WORK/flushed.txt") | awk '{printf "%-24s %10.2f %10.2f %7.2f\n", $1, $2, $3, $2 / $3}'
