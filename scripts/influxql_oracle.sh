#!/bin/bash
# The InfluxDB oracle (`make oracle`): InfluxDB 1.x (Debian's `influxdb` package) and Gnomon, each
# on a fresh data directory and a free loopback port, get the same line protocol; then every TSBS
# InfluxQL statement (devops and IoT, ORACLE_PER_FILE of each query file) and every statement of
# test/influxql/*.test run against both and their /query JSON answers are compared
# (test/influxql/compare_with_influxdb.py; floats within 1e-9 relative). Intended differences are
# listed in test/influxql/known_differences.txt and docs/influxql.md. Exit status 1 on any difference.
#
#   ORACLE_PER_FILE  statements per TSBS query file (default 3; 0 = all)
#   ORACLE_KEEP      1: leave both servers running at the end (their URLs are printed)
#   INFLUXD          the InfluxDB 1.x server binary (default: influxd on PATH)
#   GNOMON_SHARED_DIR  where tsbs/ lies (default ../shared)
set -euo pipefail
cd "$(dirname "$0")/.."
GNOMON=${GNOMON:-build/gnomon}
INFLUXD=${INFLUXD:-influxd}
SHARED=${GNOMON_SHARED_DIR:-../shared}
PER_FILE=${ORACLE_PER_FILE:-3}

log() { echo "[oracle] $*" >&2; }
die() { log "$*"; exit 2; }

command -v "$INFLUXD" >/dev/null || die "no $INFLUXD: install InfluxDB 1.x (apt-get install influxdb)"
[ -x "$GNOMON" ] || die "no $GNOMON: run make build first"
[ -d "$SHARED/tsbs" ] || die "no $SHARED/tsbs (set GNOMON_SHARED_DIR)"

source scripts/influxd_start.sh
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gnomon-oracle.XXXXXX")
PIDS=()
cleanup() {
  if [ "${ORACLE_KEEP:-0}" != 1 ]; then
    for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT

start_influxd "$WORK"
PIDS+=("$INFLUXD_PID")

GPORT=$(free_port)
"$GNOMON" server --data-dir "$WORK/gnomon" --http-addr "127.0.0.1:$GPORT" >"$WORK/gnomon.log" 2>&1 &
PIDS+=($!)
wait_listening "$GPORT" "$!" "$WORK/gnomon.log"
GNOMON_URL="http://127.0.0.1:$GPORT"
log "InfluxDB $INFLUX_URL, Gnomon $GNOMON_URL, work $WORK"

load() {  # file db
  for url in "$INFLUX_URL" "$GNOMON_URL"; do
    "$GNOMON" bench load --url "$url" --db "$2" --file "$1" --workers 2 --batch-size 5000 \
      --create-db --reporting-period 0s --no-progress >/dev/null
  done
}
log "loading cpu-only (100 hosts, 1 day) into benchmark and IoT (100 trucks, 1 day) into iot"
load "$SHARED/tsbs/cpu-only-s100-1d.influx.xz" benchmark
load "$SHARED/tsbs/iot-s100-1d.influx.xz" iot

status=0
COMPARE=(python3 test/influxql/compare_with_influxdb.py --influx "$INFLUX_URL" --gnomon "$GNOMON_URL"
         --known test/influxql/known_differences.txt)
"${COMPARE[@]}" --db benchmark --per-file "$PER_FILE" "$SHARED/tsbs/queries/influx" || status=1
"${COMPARE[@]}" --db iot --per-file "$PER_FILE" "$SHARED/tsbs/queries-iot/influx" || status=1
"${COMPARE[@]}" test/influxql/*.test || status=1
[ "${ORACLE_KEEP:-0}" = 1 ] && log "left running: InfluxDB $INFLUX_URL, Gnomon $GNOMON_URL (pids ${PIDS[*]})"
exit $status
