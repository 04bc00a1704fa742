#!/usr/bin/env bash
# Queries on fresh data (still in memtables) against the same queries after a flush
# (docs/benchmarks.md, "Fresh data"):
#   scripts/fresh_vs_flushed.sh [BUILD_DIR]
# Loads cpu-only SCALE hosts x HOURS hours (default 100 x 4: the memtable holds all of it) into
# two servers: one keeps it in its memtables (fresh), the other is stopped cleanly (which
# flushes) and started again on its directory (flushed). Then runs QUERIES queries of each devops
# type PASSES times (default 3), alternating the two servers pass by pass so that the shared
# machine's drift hits both alike. The first pass meets the data cold (pages never read, caches
# empty), the later ones warm. Prints per type the median ms of the first pass and the median of
# the later passes' medians, both ways, and their ratios; writes "type warm_ms" lines to
# $WORK/fresh.txt and $WORK/flushed.txt (scripts/query_ab.sh reads them). WORK (default
# bench-results/fresh) holds data and logs; the servers listen on PORT and PORT+1 (default 4327).
# USE_CASE=iot runs the 13 IoT types over TSBS's truck data instead (SCALE trucks).
set -euo pipefail
cd "$(dirname "$0")/.."
GNOMON=${1:-build}/gnomon
SCALE=${SCALE:-100}; HOURS=${HOURS:-4}; QUERIES=${QUERIES:-20}; USE_CASE=${USE_CASE:-cpu-only}
PASSES=${PASSES:-3}
WORK=${WORK:-bench-results/fresh}; BASE_PORT=${PORT:-4327}
DEVOPS_TYPES="cpu-max-all-1 cpu-max-all-8 double-groupby-1 double-groupby-5 double-groupby-all groupby-orderby-limit high-cpu-1 high-cpu-all lastpoint single-groupby-1-1-1 single-groupby-1-1-12 single-groupby-1-8-1 single-groupby-5-1-1 single-groupby-5-1-12 single-groupby-5-8-1"
IOT_TYPES="last-loc single-last-loc low-fuel high-load stationary-trucks long-driving-sessions long-daily-sessions avg-vs-projected-fuel-consumption avg-daily-driving-duration avg-daily-driving-session avg-load daily-activity breakdown-frequency"
QUERY_USE_CASE=devops; DEFAULT_TYPES=$DEVOPS_TYPES
if [ "$USE_CASE" = iot ]; then QUERY_USE_CASE=iot; DEFAULT_TYPES=$IOT_TYPES; fi
TYPES=${TYPES:-$DEFAULT_TYPES}
START=2023-06-11T00:00:00Z
END=$(date -u -d "@$((1686441600 + HOURS * 3600))" +%Y-%m-%dT%H:%M:%SZ)
# Queries end one second past the data, as TSBS's setups generate them (spec section 6.1).
QUERY_END=$(date -u -d "@$((1686441600 + HOURS * 3600 + 1))" +%Y-%m-%dT%H:%M:%SZ)
mkdir -p "$WORK"
data=$WORK/$USE_CASE-$SCALE-$HOURS.lp
[ -f "$data" ] || "$GNOMON" bench generate-data --use-case "$USE_CASE" --scale "$SCALE" --seed 123 \
  --timestamp-start "$START" --timestamp-end "$END" --log-interval 10s --out "$data" 2>/dev/null
rm -rf "$WORK/data-fresh" "$WORK/data-flushed"

source scripts/server_start.sh
pids=()
trap 'kill -TERM "${pids[@]}" 2>/dev/null || true' EXIT
# Starts the server of `side` (fresh: PORT, flushed: PORT+1) on $WORK/data-SIDE; sets $pid.
start_side() {
  local port=$BASE_PORT
  [ "$1" = flushed ] && port=$((BASE_PORT + 1))
  PORT=$port DATA_DIR=$WORK/data-$1 start_server
}
load() {
  "$GNOMON" bench load --url "http://127.0.0.1:$1" --db benchmark --file "$data" --workers 4 \
    --batch-size 10000 --create-db --no-progress --reporting-period 0s >/dev/null
}
start_side flushed; load $((BASE_PORT + 1)); kill -TERM $pid; wait $pid || true
start_side flushed; pids+=($pid)
start_side fresh; pids+=($pid); load "$BASE_PORT"

# The median ms of one pass of query file $2 against port $1.
one_pass() {
  "$GNOMON" bench run-queries --url "http://127.0.0.1:$1" --db benchmark --file "$2" --workers 1 \
    --json "$WORK/r.json" >/dev/null 2>&1
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["Totals"]["overallQuantiles"]["all_queries"]["q50"])' "$WORK/r.json"
}
: >"$WORK/fresh.txt"; : >"$WORK/flushed.txt"; : >"$WORK/table.txt"
for type in $TYPES; do
  q=$WORK/$type.txt
  if [ ! -f "$q" ] && ! "$GNOMON" bench generate-queries --use-case "$QUERY_USE_CASE" --query-type "$type" \
      --scale "$SCALE" --seed 123 --timestamp-start "$START" --timestamp-end "$QUERY_END" \
      --queries "$QUERIES" --out "$q" 2>/dev/null; then
    continue  # the span is too short for this type
  fi
  fresh=""; flushed=""
  for _ in $(seq 1 "$PASSES"); do
    fresh="$fresh $(one_pass "$BASE_PORT" "$q")"
    flushed="$flushed $(one_pass $((BASE_PORT + 1)) "$q")"
  done
  python3 - "$type" "$WORK" "$fresh" "$flushed" <<'PY'
import statistics, sys
t, work = sys.argv[1], sys.argv[2]
fr, fl = ([float(x) for x in a.split()] for a in sys.argv[3:5])
warm = lambda m: statistics.median(m[1:] or m)
open(f"{work}/fresh.txt", "a").write(f"{t} {warm(fr)}\n")
open(f"{work}/flushed.txt", "a").write(f"{t} {warm(fl)}\n")
open(f"{work}/table.txt", "a").write(
    f"{t:<24} {fr[0]:>10.2f} {fl[0]:>10.2f} {fr[0] / fl[0]:>7.2f} {warm(fr):>10.2f} {warm(fl):>10.2f} {warm(fr) / warm(fl):>7.2f}\n")
PY
done
printf '%-24s %10s %10s %7s %10s %10s %7s\n' type fresh_cold flush_cold ratio fresh_warm flush_warm ratio
cat "$WORK/table.txt"
