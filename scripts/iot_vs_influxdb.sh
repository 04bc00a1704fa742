#!/usr/bin/env bash
# The 13 TSBS IoT query types on Gnomon and on InfluxDB 1.x (Debian's `influxdb`, default
# settings), same data, same run (docs/benchmarks.md, "IoT queries against InfluxDB 1.6"):
#   scripts/iot_vs_influxdb.sh [BUILD_DIR]
# Both servers get TSBS's iot-s100-1d (100 trucks x 1 day, 1,554,681 rows, out-of-order and
# missing rows) through /write; Gnomon is then stopped cleanly (which flushes) and started again.
# For each type, QUERIES queries (TSBS's draws, seed 123) as TSBS's Influx builder writes them go
# to both servers' /query, and their Gnomon SQL form to Gnomon's /v1/sql, in ROUNDS alternating
# rounds, one worker. Prints the mean ms of each and InfluxDB's time over Gnomon's.
# WORK (default bench-results/iot-vs-influxdb) holds the data and the logs.
set -euo pipefail
cd "$(dirname "$0")/.."
GNOMON=${1:-build}/gnomon
QUERIES=${QUERIES:-10}; ROUNDS=${ROUNDS:-2}
WORK=${WORK:-bench-results/iot-vs-influxdb}
SHARED=${GNOMON_SHARED_DIR:-../shared}
DATA=${DATA:-$SHARED/tsbs/iot-s100-1d.influx.xz}; SCALE=${SCALE:-100}
TYPES=${TYPES:-"last-loc single-last-loc low-fuel high-load stationary-trucks long-driving-sessions long-daily-sessions avg-vs-projected-fuel-consumption avg-daily-driving-duration avg-daily-driving-session avg-load daily-activity breakdown-frequency"}
command -v "${INFLUXD:-influxd}" >/dev/null || { echo "no influxd: apt-get install influxdb" >&2; exit 2; }
rm -rf "$WORK/data" "$WORK/influx"
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)

source scripts/influxd_start.sh
PORT=$(free_port)
source scripts/server_start.sh
mean_ms() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["Totals"]["overallStats"]["all_queries"]["meanMilliseconds"])' "$1"; }
trap 'kill -TERM ${pid:-} ${INFLUXD_PID:-} 2>/dev/null || true' EXIT

start_influxd "$WORK"
start_server
for url in "$INFLUX_URL" "http://127.0.0.1:$PORT"; do
  "$GNOMON" bench load --url "$url" --db iot --file "$DATA" --workers 2 --batch-size 5000 --create-db \
    --reporting-period 0s --no-progress >/dev/null
done
kill -TERM "$pid"; wait "$pid" || true
start_server
GNOMON_URL="http://127.0.0.1:$PORT"

: >"$WORK/means.txt"
for type in $TYPES; do
  for format in sql influx; do
    q=$WORK/$type.$format.txt
    [ -f "$q" ] || "$GNOMON" bench generate-queries --use-case iot --query-type "$type" --scale "$SCALE" --seed 123 \
      --timestamp-start 2023-06-11T00:00:00Z --timestamp-end 2023-06-12T00:00:01Z --queries "$QUERIES" \
      --format "$format" --out "$q" 2>/dev/null
  done
  for round in $(seq 1 "$ROUNDS"); do
    for target in gnomon-sql gnomon-influxql influxdb; do
      case $target in
        gnomon-sql) args=(--url "$GNOMON_URL" --file "$WORK/$type.sql.txt") ;;
        gnomon-influxql) args=(--url "$GNOMON_URL" --influxql --file "$WORK/$type.influx.txt") ;;
        influxdb) args=(--url "$INFLUX_URL" --influxql --file "$WORK/$type.influx.txt") ;;
      esac
      "$GNOMON" bench run-queries --db iot "${args[@]}" --json "$WORK/r.json" >"$WORK/run.log" 2>&1 ||
        { echo "$type on $target failed:" >&2; tail -3 "$WORK/run.log" >&2; exit 1; }
      echo "$type $target $(mean_ms "$WORK/r.json")" >>"$WORK/means.txt"
    done
  done
done
python3 - "$WORK/means.txt" <<'PY'
import collections, sys
m, order = collections.defaultdict(list), []
for line in open(sys.argv[1]):
    t, target, ms = line.split()
    if t not in order: order.append(t)
    m[(t, target)].append(float(ms))
mean = lambda t, k: sum(m[(t, k)]) / len(m[(t, k)])
print(f"{'type':36} {'gnomon_sql':>10} {'gnomon_iql':>10} {'influxdb':>10} {'influx/iql':>10}")
for t in order:
    s, i, x = mean(t, 'gnomon-sql'), mean(t, 'gnomon-influxql'), mean(t, 'influxdb')
    print(f"{t:36} {s:10.2f} {i:10.2f} {x:10.2f} {x / i:10.1f}")
PY
