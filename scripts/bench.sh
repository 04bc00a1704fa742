#!/usr/bin/env bash
# `make bench`: one TSBS-style benchmark cycle on a temporary data directory.
#   generate cpu-only data -> start `gnomon server` -> `bench load` -> generate and run each devops
#   query type -> stop the server (a clean stop flushes) -> measure storage -> `bench report`.
# Results land in bench-results/<UTC timestamp>/ (summary.md, summary.json, latency.svg, raw logs).
#
# Usage: scripts/bench.sh [BUILD_DIR]   (default: build)
# Knobs (environment):
#   BENCH_SCALE    hosts                          (default 100)
#   BENCH_HOURS    hours of data from 2023-06-11  (default 24)
#   BENCH_WORKERS  load workers                   (default 4)
#   BENCH_BATCH    lines per write request        (default 10000)
#   BENCH_QUERIES  queries per query type; 0 = skip queries (default 20)
#   BENCH_PORT     server port                    (default: a free loopback port)
#   BENCH_TYPES    space-separated query types    (default: all 16 devops types)
set -euo pipefail

cd "$(dirname "$0")/.."
BUILD_DIR=${1:-build}
GNOMON="$BUILD_DIR/gnomon"
BENCH_SCALE=${BENCH_SCALE:-100}
BENCH_HOURS=${BENCH_HOURS:-24}
BENCH_WORKERS=${BENCH_WORKERS:-4}
BENCH_BATCH=${BENCH_BATCH:-10000}
BENCH_QUERIES=${BENCH_QUERIES:-20}
BENCH_TYPES=${BENCH_TYPES:-"cpu-max-all-1 cpu-max-all-8 cpu-max-all-32-24 double-groupby-1 double-groupby-5 double-groupby-all groupby-orderby-limit high-cpu-1 high-cpu-all lastpoint single-groupby-1-1-1 single-groupby-1-1-12 single-groupby-1-8-1 single-groupby-5-1-1 single-groupby-5-1-12 single-groupby-5-8-1"}
SEED=123
START=2023-06-11T00:00:00Z
START_EPOCH=1686441600

log() { printf '[bench] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

[ -x "$GNOMON" ] || die "$GNOMON not found; build first (make build)"
for v in BENCH_SCALE BENCH_HOURS BENCH_WORKERS BENCH_BATCH BENCH_QUERIES; do
  [[ ${!v} =~ ^[0-9]+$ ]] || die "$v must be a non-negative integer, got '${!v}'"
done
[ "$BENCH_SCALE" -gt 0 ] && [ "$BENCH_HOURS" -gt 0 ] || die "BENCH_SCALE and BENCH_HOURS must be > 0"

END=$(date -u -d "@$((START_EPOCH + BENCH_HOURS * 3600))" +%Y-%m-%dT%H:%M:%SZ)
QUERY_END=$(date -u -d "@$((START_EPOCH + BENCH_HOURS * 3600 + 1))" +%Y-%m-%dT%H:%M:%SZ)  # TSBS: data end + 1 s

free_port() {
  if command -v python3 >/dev/null; then
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
  else
    echo $((20000 + RANDOM % 20000))
  fi
}
PORT=${BENCH_PORT:-$(free_port)}
URL="http://127.0.0.1:$PORT"

STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT="bench-results/$STAMP"
mkdir -p "$OUT"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gnomon-bench.XXXXXX")
SERVER_PID=""

stop_server() {
  [ -n "$SERVER_PID" ] || return 0
  kill -TERM "$SERVER_PID" 2>/dev/null || true
  local status=0
  wait "$SERVER_PID" || status=$?
  SERVER_PID=""
  return $status
}
cleanup() {
  stop_server || true
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "scale $BENCH_SCALE, $START -> $END, results in $OUT"

# 1. Data (untimed).
log "generating cpu-only data"
"$GNOMON" bench generate-data --use-case cpu-only --scale "$BENCH_SCALE" --seed "$SEED" \
  --timestamp-start "$START" --timestamp-end "$END" --log-interval 10s --out "$WORK/data.lp"
# Write the data file back now, so that the server's WAL fsyncs during the timed load do not also
# wait for these ~300 MB of dirty pages (as TSBS, whose data files are generated beforehand).
sync

# 2. Server on a fresh data directory.
"$GNOMON" server --data-dir "$WORK/data" --http-addr "127.0.0.1:$PORT" >"$OUT/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 100); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then break; fi
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$OUT/server.log" >&2; die "server exited at start"; }
  sleep 0.1
done
(exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null || die "server did not listen on port $PORT"
log "server pid $SERVER_PID on $URL"

# 3. Load.
"$GNOMON" bench load --url "$URL" --db benchmark --file "$WORK/data.lp" --workers "$BENCH_WORKERS" \
  --batch-size "$BENCH_BATCH" --create-db --json "$OUT/load.json" | tee "$OUT/load.txt"

# 4. Queries, one run per type (1 worker, TSBS's reference setting).
QUERY_JSONS=()
FAILED_TYPES=()
if [ "$BENCH_QUERIES" -gt 0 ] && "$GNOMON" bench generate-queries --help >/dev/null 2>&1; then
  mkdir -p "$OUT/queries"
  for type in $BENCH_TYPES; do
    qfile="$WORK/$type.txt"
    if ! "$GNOMON" bench generate-queries --use-case devops --query-type "$type" \
        --scale "$BENCH_SCALE" --seed "$SEED" --timestamp-start "$START" \
        --timestamp-end "$QUERY_END" --queries "$BENCH_QUERIES" --out "$qfile" 2>"$WORK/gen.err"; then
      log "skipping $type: $(tr '\n' ' ' <"$WORK/gen.err")"
      continue
    fi
    log "running $type"
    if "$GNOMON" bench run-queries --url "$URL" --db benchmark --file "$qfile" --workers 1 \
        --json "$OUT/queries/$type.json" >"$OUT/queries/$type.txt" 2>"$OUT/queries/$type.err"; then
      QUERY_JSONS+=("$OUT/queries/$type.json")
    else
      FAILED_TYPES+=("$type")
      log "FAILED $type: $(tail -n 1 "$OUT/queries/$type.err")"
    fi
  done
elif [ "$BENCH_QUERIES" -gt 0 ]; then
  log "this gnomon has no 'bench generate-queries'; skipping queries"
fi

# 5. Storage, after a clean stop (which flushes memtables into segments).
log "stopping the server"
stop_server || die "server did not stop cleanly (see $OUT/server.log)"
STORAGE_BYTES=$(du -sb "$WORK/data" | cut -f1)
log "data directory: $STORAGE_BYTES bytes"

# 6. Report.
REPORT_ARGS=(--load "$OUT/load.json" --storage-bytes "$STORAGE_BYTES" --out "$OUT"
  --setting "use case=cpu-only" --setting "scale=$BENCH_SCALE" --setting "seed=$SEED"
  --setting "time range=$START .. $END (10s interval)"
  --setting "queries per type=$BENCH_QUERIES (1 worker)")
if [ ${#QUERY_JSONS[@]} -gt 0 ]; then REPORT_ARGS+=(--queries "${QUERY_JSONS[@]}"); fi
"$GNOMON" bench report "${REPORT_ARGS[@]}"
log "report: $OUT/summary.md"

if [ ${#FAILED_TYPES[@]} -gt 0 ]; then
  die "query types failed: ${FAILED_TYPES[*]} (details in $OUT/queries/*.err)"
fi
