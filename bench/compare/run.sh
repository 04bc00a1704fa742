#!/usr/bin/env bash
# bench/compare/run.sh: the same TSBS cpu-only workload against Gnomon and the peers that Debian
# packages (InfluxDB 1.6, VictoriaMetrics, ClickHouse, PostgreSQL 15 with TSBS's TimescaleDB
# schema on plain tables), all on 127.0.0.1 with explicit ports, one engine at a time; prints one
# Markdown comparison table and writes JSON. Not part of CI. See docs/benchmarks.md.
#
# Usage: bench/compare/run.sh [BUILD_DIR]     (default: build; needs BUILD_DIR/gnomon)
# Knobs (environment):
#   COMPARE_SCALE     hosts                                 (default 100)
#   COMPARE_HOURS     hours of data from 2023-06-11         (default 24)
#   COMPARE_QUERIES   instances per query type              (default 20)
#   COMPARE_WORKERS   HTTP load workers (Gnomon, InfluxDB, VictoriaMetrics)   (default 4)
#   COMPARE_BATCH     lines per HTTP write                  (default 10000)
#   COMPARE_ENGINES   subset/order of: gnomon influxdb victoriametrics clickhouse postgresql
#   COMPARE_TYPES     query types (default: the 15 the TSBS reports use)
#   COMPARE_PORT_BASE first of 7 consecutive loopback ports (default 18400)
#   COMPARE_OUT       results folder (default bench-results/compare-s<scale>-h<hours>-q<queries>)
#   COMPARE_FRESH=1   discard earlier results in COMPARE_OUT instead of resuming
#   COMPARE_NO_INSTALL=1  do not run apt-get (a missing peer is then skipped)
#
# Restartable: data, query files and converted bulk files are kept in COMPARE_OUT/work; an engine
# whose phase finished has COMPARE_OUT/<engine>/done and is skipped on the next run; a failed or
# interrupted engine is redone from a fresh data directory. Every step logs to COMPARE_OUT/logs.
set -euo pipefail

cd "$(dirname "$0")/../.."
REPO=$(pwd)
HERE="$REPO/bench/compare"
BUILD_DIR=${1:-build}
GNOMON="$REPO/$BUILD_DIR/gnomon"
[[ "$BUILD_DIR" = /* ]] && GNOMON="$BUILD_DIR/gnomon"

SCALE=${COMPARE_SCALE:-100}
HOURS=${COMPARE_HOURS:-24}
QUERIES=${COMPARE_QUERIES:-20}
WORKERS=${COMPARE_WORKERS:-4}
BATCH=${COMPARE_BATCH:-10000}
ENGINES=${COMPARE_ENGINES:-"gnomon influxdb victoriametrics clickhouse postgresql"}
TYPES=${COMPARE_TYPES:-"single-groupby-1-1-1 single-groupby-1-1-12 single-groupby-1-8-1 single-groupby-5-1-1 single-groupby-5-1-12 single-groupby-5-8-1 cpu-max-all-1 cpu-max-all-8 double-groupby-1 double-groupby-5 double-groupby-all high-cpu-1 high-cpu-all lastpoint groupby-orderby-limit"}
PORT_BASE=${COMPARE_PORT_BASE:-18400}
OUT=${COMPARE_OUT:-bench-results/compare-s$SCALE-h$HOURS-q$QUERIES}
SEED=123
START=2023-06-11T00:00:00Z
START_EPOCH=1686441600
END=$(date -u -d "@$((START_EPOCH + HOURS * 3600))" +%Y-%m-%dT%H:%M:%SZ)
QUERY_END=$(date -u -d "@$((START_EPOCH + HOURS * 3600 + 1))" +%Y-%m-%dT%H:%M:%SZ)  # TSBS: data end + 1 s
DB=benchmark

P_GNOMON=$PORT_BASE
P_INFLUX=$((PORT_BASE + 1))
P_INFLUX_RPC=$((PORT_BASE + 2))
P_VM=$((PORT_BASE + 3))
P_CH_HTTP=$((PORT_BASE + 4))
P_CH_TCP=$((PORT_BASE + 5))
P_PG=$((PORT_BASE + 6))

log() { printf '[compare %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

for v in SCALE HOURS QUERIES WORKERS BATCH PORT_BASE; do
  [[ ${!v} =~ ^[0-9]+$ ]] || die "COMPARE_$v must be a non-negative integer, got '${!v}'"
done
[ -x "$GNOMON" ] || die "$GNOMON not found; build it first (cmake --build $BUILD_DIR --target gnomon)"
command -v python3 >/dev/null || die "python3 is required"

[ "${COMPARE_FRESH:-0}" = 1 ] && rm -rf "$OUT"
mkdir -p "$OUT/logs" "$OUT/work/queries"
OUT=$(cd "$OUT" && pwd)
WORK="$OUT/work"
LOGS="$OUT/logs"

# ---- bookkeeping: load-average sampler, cleanup of whatever this script started ----------------
SAMPLER_PID=""
ENGINE_PID=""
ENGINE_TMP=""
ENGINE_NAME=""
(while :; do echo "$(date -u +%s) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 5; done) >>"$LOGS/loadavg.log" &
SAMPLER_PID=$!
cleanup() {
  [ -n "$ENGINE_PID" ] && kill -TERM "$ENGINE_PID" 2>/dev/null && wait "$ENGINE_PID" 2>/dev/null || true
  [ -n "$SAMPLER_PID" ] && kill "$SAMPLER_PID" 2>/dev/null || true
  [ -n "$ENGINE_TMP" ] && rm -rf "$ENGINE_TMP"
  return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- 0. packages ----------------------------------------------------------------------------------
declare -A PKGS=([influxdb]="influxdb" [victoriametrics]="victoria-metrics"
                 [clickhouse]="clickhouse-server clickhouse-client" [postgresql]="postgresql")
declare -A AVAILABLE=([gnomon]=1)
install_peers() {
  local want=() e p
  for e in $ENGINES; do [ "$e" = gnomon ] || want+=(${PKGS[$e]:-}); done
  [ ${#want[@]} -gt 0 ] || return 0
  local missing=()
  for p in "${want[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ] && [ "${COMPARE_NO_INSTALL:-0}" != 1 ]; then
    log "apt-get install ${missing[*]}"
    # Debian's postinst scripts do not start services here (policy-rc.d / no init); every server is
    # started below by this script, on loopback only.
    { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"; } \
      >>"$LOGS/apt.log" 2>&1 || log "apt-get failed (see $LOGS/apt.log); peers whose package is missing are skipped"
  fi
  for e in $ENGINES; do
    [ "$e" = gnomon ] && continue
    local ok=1
    for p in ${PKGS[$e]:-none}; do
      if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
        ok=0
        log "SKIP $e: package $p is not installed and not installable here ($(apt-cache policy "$p" 2>/dev/null | sed -n 's/ *Candidate: //p'))"
      fi
    done
    [ $ok = 1 ] && AVAILABLE[$e]=1
  done
  return 0
}
install_peers
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)

pkgver() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo "not installed"; }

# ---- 1. environment -------------------------------------------------------------------------------
python3 - "$OUT/env.json" <<EOF
import json, os, platform, subprocess, sys
def sh(c):
    try: return subprocess.run(c, shell=True, capture_output=True, text=True).stdout.strip()
    except Exception as e: return str(e)
cpu = sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2").strip()
mem = sh("awk '/MemTotal/ {printf \"%.1f GiB\", \$2/1048576}' /proc/meminfo")
env = {"nproc": os.cpu_count(), "cpu": cpu, "memory": mem, "kernel": platform.release(),
       "os": sh(". /etc/os-release; echo \$PRETTY_NAME"),
       "gnomon": "$BUILD_DIR/gnomon " + sh("grep -m1 CMAKE_BUILD_TYPE:STRING '$REPO/$BUILD_DIR/CMakeCache.txt' | cut -d= -f2") + ", built " + sh("date -u -r '$GNOMON' +%Y-%m-%dT%H:%MZ") + " (tree at " + sh("git -C '$REPO' log -1 --format=%h --before=\\"$(date -u -r "$GNOMON" +%Y-%m-%dT%H:%M:%SZ)\\"") + ")",
       "influxdb": "$(pkgver influxdb)", "victoria-metrics": "$(pkgver victoria-metrics)",
       "clickhouse-server": "$(pkgver clickhouse-server)", "postgresql": "$(pkgver "postgresql-${PG_BIN//[^0-9]/}")",
       "python": platform.python_version(),
       "settings": {"scale": $SCALE, "hours": $HOURS, "start": "$START", "end": "$END",
                    "query_end": "$QUERY_END", "seed": $SEED, "queries_per_type": $QUERIES,
                    "load_workers": $WORKERS, "batch": $BATCH, "engines": "$ENGINES"},
       "loadavg_at_start": open("/proc/loadavg").read().split()[:3],
       "command": "COMPARE_SCALE=$SCALE COMPARE_HOURS=$HOURS COMPARE_QUERIES=$QUERIES bench/compare/run.sh $BUILD_DIR"}
json.dump(env, open(sys.argv[1], "w"), indent=1)
EOF

# ---- 2. data and queries (untimed, cached) --------------------------------------------------------
DATA="$WORK/data.lp"
if [ ! -f "$WORK/data.done" ]; then
  log "generating cpu-only data: scale $SCALE, $START -> $END, seed $SEED"
  "$GNOMON" bench generate-data --use-case cpu-only --scale "$SCALE" --seed "$SEED" \
    --timestamp-start "$START" --timestamp-end "$END" --log-interval 10s --out "$DATA" 2>"$LOGS/generate-data.log"
  wc -l <"$DATA" >"$WORK/rows"
  touch "$WORK/data.done"
fi
ROWS=$(cat "$WORK/rows")
METRICS=$((ROWS * 10))
log "data: $ROWS rows, $METRICS metrics ($DATA)"

RUN_TYPES=""
for t in $TYPES; do
  q="$WORK/queries/$t.txt"
  if [ ! -s "$q" ]; then
    if ! "$GNOMON" bench generate-queries --use-case devops --query-type "$t" --scale "$SCALE" --seed "$SEED" \
        --timestamp-start "$START" --timestamp-end "$QUERY_END" --queries "$QUERIES" --out "$q.tmp" \
        2>>"$LOGS/generate-queries.log"; then
      log "skipping query type $t: the range or scale cannot serve it (see logs/generate-queries.log)"
      rm -f "$q.tmp"
      continue
    fi
    mv "$q.tmp" "$q"
  fi
  RUN_TYPES+="$t "
done
RUN_TYPES=${RUN_TYPES% }
log "query types: $RUN_TYPES"

# ---- helpers ----------------------------------------------------------------------------------------
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_http() {  # url, seconds
  local i
  for ((i = 0; i < $2 * 10; i++)); do
    curl -fsS -o /dev/null --max-time 2 "$1" 2>/dev/null && return 0
    [ -n "$ENGINE_PID" ] && ! is_running "$ENGINE_PID" && return 1
    sleep 0.1
  done
  return 1
}
is_running() {  # pid: alive and not a zombie (kill -0 succeeds on zombies)
  local st
  st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$st" ] && [ "$st" != Z ]
}
stop_engine() {  # clean shutdown (flushes), wait up to 120 s
  [ -n "$ENGINE_PID" ] || return 0
  if [ "$ENGINE_NAME" = postgresql ]; then
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$ENGINE_TMP/pgdata" stop -m fast >/dev/null 2>&1 || true
  else
    kill -TERM "$ENGINE_PID" 2>/dev/null || true
  fi
  local i
  for ((i = 0; i < 1200; i++)); do is_running "$ENGINE_PID" || break; sleep 0.1; done
  if is_running "$ENGINE_PID"; then log "engine pid $ENGINE_PID did not stop in 120 s; killing"; kill -KILL "$ENGINE_PID"; fi
  wait "$ENGINE_PID" 2>/dev/null || true
  ENGINE_PID=""
}
timed() {  # name logfile cmd...: runs cmd, prints its wall seconds
  local name=$1 logf=$2; shift 2
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >>"$logf" 2>&1 || { log "$name failed (see $logf)"; return 1; }
  t1=$(date +%s.%N)
  python3 -c "print(f'{$t1 - $t0:.3f}')"
}
write_json() { python3 -c "import json,sys; json.dump(eval(sys.argv[2]), open(sys.argv[1],'w'), indent=1)" "$@"; }
du_bytes() { du -s -B1 "$@" | awk '{s += $1} END {print s}'; }     # allocated blocks: sparse preallocation counts what it holds
du_apparent() { du -s -b "$@" | awk '{s += $1} END {print s}'; }
ch() { curl -fsS --max-time 3600 "http://127.0.0.1:$P_CH_HTTP/" --data-binary "$1"; }
psql_pg() { "$PG_BIN/psql" -h 127.0.0.1 -p "$P_PG" -U postgres -v ON_ERROR_STOP=1 -qAt "$@"; }

# ---- per-engine start / load / flush --------------------------------------------------------------
start_engine() {  # e, logfile; sets ENGINE_PID; data lives in $ENGINE_TMP
  local e=$1 logf=$2
  case $e in
    gnomon)
      "$GNOMON" server --data-dir "$ENGINE_TMP/data" --http-addr "127.0.0.1:$P_GNOMON" >>"$logf" 2>&1 &
      ENGINE_PID=$!
      wait_http "http://127.0.0.1:$P_GNOMON/ping" 60 ;;
    influxdb)
      mkdir -p "$ENGINE_TMP/meta" "$ENGINE_TMP/data" "$ENGINE_TMP/wal"
      cat >"$ENGINE_TMP/influxdb.conf" <<EOF
reporting-disabled = true
bind-address = "127.0.0.1:$P_INFLUX_RPC"
[meta]
  dir = "$ENGINE_TMP/meta"
[data]
  dir = "$ENGINE_TMP/data"
  wal-dir = "$ENGINE_TMP/wal"
  query-log-enabled = false
  cache-snapshot-write-cold-duration = "10s"
  compact-full-write-cold-duration = "30s"
  max-series-per-database = 0
  max-values-per-tag = 0
[coordinator]
  query-timeout = "0s"
[http]
  enabled = true
  bind-address = "127.0.0.1:$P_INFLUX"
  log-enabled = false
  max-body-size = 0
  max-row-limit = 0
[monitor]
  store-enabled = false
[continuous_queries]
  enabled = false
[subscriber]
  enabled = false
EOF
      influxd -config "$ENGINE_TMP/influxdb.conf" >>"$logf" 2>&1 &
      ENGINE_PID=$!
      wait_http "http://127.0.0.1:$P_INFLUX/ping" 60 ;;
    victoriametrics)
      victoria-metrics -storageDataPath="$ENGINE_TMP/data" -httpListenAddr="127.0.0.1:$P_VM" \
        -retentionPeriod=100y -search.disableCache -loggerLevel=WARN >>"$logf" 2>&1 &
      ENGINE_PID=$!
      wait_http "http://127.0.0.1:$P_VM/health" 60 ;;
    clickhouse)
      mkdir -p "$ENGINE_TMP/ch/data" "$ENGINE_TMP/ch/tmp" "$ENGINE_TMP/ch/user_files" "$ENGINE_TMP/ch/format_schemas" "$ENGINE_TMP/log"
      cp /etc/clickhouse-server/users.xml "$ENGINE_TMP/users.xml"
      cat >"$ENGINE_TMP/config.xml" <<EOF
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>$ENGINE_TMP/log/server.log</log><errorlog>$ENGINE_TMP/log/error.log</errorlog><size>100M</size><count>2</count></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>$P_CH_HTTP</http_port>
  <tcp_port>$P_CH_TCP</tcp_port>
  <path>$ENGINE_TMP/ch/data/</path>
  <tmp_path>$ENGINE_TMP/ch/tmp/</tmp_path>
  <user_files_path>$ENGINE_TMP/ch/user_files/</user_files_path>
  <format_schema_path>$ENGINE_TMP/ch/format_schemas/</format_schema_path>
  <users_config>$ENGINE_TMP/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mark_cache_size>5368709120</mark_cache_size>
  <max_concurrent_queries>100</max_concurrent_queries>
</yandex>
EOF
      clickhouse-server --config-file="$ENGINE_TMP/config.xml" >>"$logf" 2>&1 &
      ENGINE_PID=$!
      wait_http "http://127.0.0.1:$P_CH_HTTP/ping" 120 ;;
    postgresql)
      local pgdata="$ENGINE_TMP/pgdata"
      if [ ! -d "$pgdata" ]; then
        chown postgres "$ENGINE_TMP" 2>/dev/null || true
        chmod 755 "$ENGINE_TMP"
        runuser -u postgres -- "$PG_BIN/initdb" -D "$pgdata" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >>"$logf" 2>&1
      fi
      runuser -u postgres -- "$PG_BIN/postgres" -D "$pgdata" -c port="$P_PG" -c listen_addresses=127.0.0.1 \
        -c unix_socket_directories="$ENGINE_TMP" -c timezone=UTC -c shared_buffers=1GB -c work_mem=64MB \
        -c maintenance_work_mem=512MB -c max_wal_size=4GB -c effective_cache_size=8GB >>"$logf" 2>&1 &
      ENGINE_PID=$!
      local i
      for ((i = 0; i < 600; i++)); do
        "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$P_PG" && return 0
        is_running "$ENGINE_PID" || return 1
        sleep 0.1
      done
      return 1 ;;
  esac
}

create_schema() {
  local e=$1
  case $e in
    clickhouse)
      ch "CREATE DATABASE IF NOT EXISTS $DB"
      ch "CREATE TABLE $DB.cpu (time DateTime, hostname String, region String, datacenter String, rack String, os String, arch String, team String, service String, service_version String, service_environment String, usage_user Float64, usage_system Float64, usage_idle Float64, usage_nice Float64, usage_iowait Float64, usage_irq Float64, usage_softirq Float64, usage_steal Float64, usage_guest Float64, usage_guest_nice Float64) ENGINE = MergeTree() PARTITION BY toYYYYMMDD(time) ORDER BY (hostname, time)" ;;
    postgresql)
      psql_pg -d postgres -c "CREATE DATABASE $DB"
      psql_pg -d "$DB" <<'EOF'
CREATE TABLE tags (id SERIAL PRIMARY KEY, hostname TEXT, region TEXT, datacenter TEXT, rack TEXT, os TEXT, arch TEXT, team TEXT, service TEXT, service_version TEXT, service_environment TEXT);
CREATE UNIQUE INDEX uniq1 ON tags (hostname, region, datacenter, rack, os, arch, team, service, service_version, service_environment);
CREATE INDEX ON tags (hostname);
CREATE TABLE cpu (time TIMESTAMPTZ NOT NULL, tags_id INTEGER, usage_user DOUBLE PRECISION, usage_system DOUBLE PRECISION, usage_idle DOUBLE PRECISION, usage_nice DOUBLE PRECISION, usage_iowait DOUBLE PRECISION, usage_irq DOUBLE PRECISION, usage_softirq DOUBLE PRECISION, usage_steal DOUBLE PRECISION, usage_guest DOUBLE PRECISION, usage_guest_nice DOUBLE PRECISION, additional_tags JSONB DEFAULT NULL);
CREATE INDEX ON cpu (tags_id, time DESC);
CREATE INDEX ON cpu (time DESC);
EOF
      ;;
  esac
}

load_engine() {  # e, logfile -> prints wall seconds of the load command
  local e=$1 logf=$2
  case $e in
    gnomon)   timed load "$logf" "$GNOMON" bench load --url "http://127.0.0.1:$P_GNOMON" --db "$DB" --file "$DATA" \
                --workers "$WORKERS" --batch-size "$BATCH" --create-db --no-progress --json "$OUT/$e/load-runner.json" ;;
    influxdb) timed load "$logf" "$GNOMON" bench load --url "http://127.0.0.1:$P_INFLUX" --db "$DB" --file "$DATA" \
                --workers "$WORKERS" --batch-size "$BATCH" --create-db --no-progress --json "$OUT/$e/load-runner.json" ;;
    victoriametrics) timed load "$logf" "$GNOMON" bench load --url "http://127.0.0.1:$P_VM" --db "$DB" --file "$DATA" \
                --workers "$WORKERS" --batch-size "$BATCH" --no-progress --json "$OUT/$e/load-runner.json" ;;
    clickhouse) timed load "$logf" bash -c "clickhouse-client --host 127.0.0.1 --port $P_CH_TCP --query 'INSERT INTO $DB.cpu FORMAT TabSeparated' < '$WORK/clickhouse.tsv'" ;;
    postgresql) timed load "$logf" "$PG_BIN/psql" -h 127.0.0.1 -p "$P_PG" -U postgres -d "$DB" -v ON_ERROR_STOP=1 \
                -c "\\copy tags FROM '$WORK/pg-tags.csv' CSV" \
                -c "\\copy cpu (time, tags_id, usage_user, usage_system, usage_idle, usage_nice, usage_iowait, usage_irq, usage_softirq, usage_steal, usage_guest, usage_guest_nice) FROM '$WORK/pg-cpu.csv' CSV" ;;
  esac
}

# Bring the engine to its settled on-disk state, stop it, and measure the bytes that hold the data.
flush_stop_measure() {  # e, logfile, outfile <- "bytes<TAB>what was measured"
  local e=$1 logf=$2 outf=$3
  case $e in
    gnomon)
      stop_engine  # a clean stop flushes memtables into segments
      echo -e "$ENGINE_TMP/data\t--data-dir after a clean stop (flushes memtables)" >"$outf" ;;
    influxdb)
      # cache-snapshot-write-cold-duration=10s / compact-full-write-cold-duration=30s: wait until the
      # WAL has been snapshotted into TSM and the shard fully compacted (at most 180 s).
      local i
      for ((i = 0; i < 90; i++)); do
        sleep 2
        [ "$(du_bytes "$ENGINE_TMP/wal")" -lt 1048576 ] && [ $i -ge 20 ] && break
      done
      stop_engine
      echo -e "$ENGINE_TMP/data $ENGINE_TMP/wal $ENGINE_TMP/meta\tdata+wal+meta after the WAL was snapshotted and the cold shard compacted, then stopped" >"$outf" ;;
    victoriametrics)
      curl -fsS "http://127.0.0.1:$P_VM/internal/force_flush" >>"$logf" 2>&1 || true
      curl -fsS "http://127.0.0.1:$P_VM/internal/force_merge" >>"$logf" 2>&1 || true
      sleep 10
      stop_engine
      echo -e "$ENGINE_TMP/data\t-storageDataPath after force_flush + force_merge, then stopped" >"$outf" ;;
    clickhouse)
      ch "OPTIMIZE TABLE $DB.cpu FINAL" >>"$logf" 2>&1
      stop_engine
      echo -e "$ENGINE_TMP/ch/data/data/$DB $ENGINE_TMP/ch/data/metadata\tthe database's data + metadata after OPTIMIZE TABLE FINAL, then stopped" >"$outf" ;;
    postgresql)
      psql_pg -d "$DB" -c "VACUUM ANALYZE" -c "CHECKPOINT" >>"$logf" 2>&1
      local oid
      oid=$(psql_pg -d "$DB" -c "SELECT oid FROM pg_database WHERE datname = '$DB'")
      stop_engine
      echo -e "$ENGINE_TMP/pgdata/base/$oid\tbase/<db oid> (tables + indexes) after VACUUM ANALYZE + CHECKPOINT, then stopped; pg_wal excluded" >"$outf" ;;
  esac
}

gnomon_runner_pass() {  # the C++ runner over the same files (supplementary column), after the Python pass
  local t
  for t in $RUN_TYPES; do
    "$GNOMON" bench run-queries --url "http://127.0.0.1:$P_GNOMON" --db "$DB" --file "$WORK/queries/$t.txt" \
      --workers 1 --json "$OUT/gnomon/runner/$t.json" >"$OUT/gnomon/runner/$t.txt" 2>"$OUT/gnomon/runner/$t.err" \
      || log "gnomon run-queries $t failed (see $OUT/gnomon/runner/$t.err)"
  done
  python3 - "$OUT/gnomon" $RUN_TYPES <<'EOF'
import json, os, sys
d = sys.argv[1]
for t in sys.argv[2:]:
    p, r = os.path.join(d, "queries", t + ".json"), os.path.join(d, "runner", t + ".json")
    if not (os.path.exists(p) and os.path.exists(r)):
        continue
    doc, run = json.load(open(p)), json.load(open(r))
    for g in run.get("Groups", []):
        if g.get("label") == "all queries":
            doc["runner_mean_ms"] = g.get("meanMs")
            json.dump(doc, open(p, "w"), indent=1)
EOF
}

engine_phase() {  # runs in a subshell: any failure ends this engine only
  local e=$1 dir="$OUT/$1" logf="$LOGS/$1.log"
  set -e
  ENGINE_NAME=$e
  trap 'exit 130' INT TERM
  ENGINE_TMP=$(mktemp -d "${TMPDIR:-/tmp}/gnomon-compare-$e.XXXXXX")
  trap 'stop_engine; rm -rf "$ENGINE_TMP"' EXIT
  for p in $P_GNOMON $P_INFLUX $P_INFLUX_RPC $P_VM $P_CH_HTTP $P_CH_TCP $P_PG; do
    port_free "$p" || { log "port $p is in use; set COMPARE_PORT_BASE"; return 1; }
  done
  case $e in
    clickhouse) [ -s "$WORK/clickhouse.tsv" ] || { log "converting to ClickHouse TSV (untimed)"; python3 "$HERE/lp_convert.py" clickhouse "$DATA" "$WORK/clickhouse.tsv.tmp" 2>>"$logf" && mv "$WORK/clickhouse.tsv.tmp" "$WORK/clickhouse.tsv"; } ;;
    postgresql) [ -s "$WORK/pg-cpu.csv" ] || { log "converting to PostgreSQL CSV (untimed)"; python3 "$HERE/lp_convert.py" postgresql "$DATA" "$WORK/pg-tags.csv" "$WORK/pg-cpu.csv.tmp" 2>>"$logf" && mv "$WORK/pg-cpu.csv.tmp" "$WORK/pg-cpu.csv"; } ;;
  esac
  log "$e: starting on 127.0.0.1 (data in $ENGINE_TMP)"
  start_engine "$e" "$logf" || { log "$e did not start (see $logf)"; return 1; }
  create_schema "$e" >>"$logf" 2>&1
  log "$e: loading $ROWS rows"
  local secs load_before load_after
  load_before=$(cut -d' ' -f1 /proc/loadavg)
  secs=$(load_engine "$e" "$logf") || return 1
  load_after=$(cut -d' ' -f1 /proc/loadavg)
  write_json "$dir/load.json" "{'rows': $ROWS, 'metrics': $METRICS, 'seconds': $secs, 'rows_per_sec': $ROWS / $secs, 'metrics_per_sec': $METRICS / $secs, 'loadavg_1m_before_after': [$load_before, $load_after]}"
  log "$e: loaded in $secs s ($(python3 -c "print(f'{$ROWS / $secs:,.0f}')") rows/s)"
  local m bytes what
  flush_stop_measure "$e" "$logf" "$dir/storage.tmp"
  m=$(cat "$dir/storage.tmp")
  local paths=${m%%$'\t'*} apparent
  what=${m#*$'\t'}
  bytes=$(du_bytes $paths)
  apparent=$(du_apparent $paths)
  du -a -B1 $paths 2>/dev/null | sort -n | tail -n 15 >>"$logf"
  write_json "$dir/storage.json" "{'bytes': $bytes, 'apparent_bytes': $apparent, 'metrics': $METRICS, 'bytes_per_metric': $bytes / $METRICS, 'method': '''du -s -B1 (allocated blocks) of $what'''}"
  log "$e: $bytes bytes on disk ($(python3 -c "print(f'{$bytes / $METRICS:.3f}')") bytes/metric)"
  log "$e: restarting for queries"
  start_engine "$e" "$logf" || { log "$e did not restart (see $logf)"; return 1; }
  local port
  case $e in gnomon) port=$P_GNOMON ;; influxdb) port=$P_INFLUX ;; victoriametrics) port=$P_VM ;;
             clickhouse) port=$P_CH_HTTP ;; postgresql) port=$P_PG ;; esac
  if [ -n "$RUN_TYPES" ]; then
    log "$e: running queries (1 client, sequential)"
    python3 "$HERE/compare.py" run "$e" --port "$port" --queries-dir "$WORK/queries" --types "$RUN_TYPES" \
      --qrange "$START" "$QUERY_END" --out "$dir/queries" 2> >(tee -a "$logf" >&2)
    if [ "$e" = gnomon ]; then mkdir -p "$dir/runner"; gnomon_runner_pass; fi
  fi
  stop_engine
  write_json "$dir/status.json" "{'status': 'ok'}"
  touch "$dir/done"
}

# ---- 3. engines, one at a time --------------------------------------------------------------------
for e in $ENGINES; do
  if [ -z "${AVAILABLE[$e]:-}" ]; then
    mkdir -p "$OUT/$e"; write_json "$OUT/$e/status.json" "{'status': 'skipped: package not available'}"
    continue
  fi
  if [ -f "$OUT/$e/done" ]; then log "$e: done in an earlier run, kept (COMPARE_FRESH=1 redoes it)"; continue; fi
  rm -rf "${OUT:?}/$e"; mkdir -p "$OUT/$e"
  set +e
  (engine_phase "$e")
  rc=$?
  set -e
  if [ $rc != 0 ]; then
    log "$e: FAILED (see $LOGS/$e.log); continuing with the next engine"
    write_json "$OUT/$e/status.json" "{'status': 'failed (see logs/$e.log)'}"
  fi
done

# ---- 4. answers and table ---------------------------------------------------------------------------
CHECK_ARGS=()
for e in $ENGINES; do [ "$e" != gnomon ] && [ -d "$OUT/$e/queries" ] && CHECK_ARGS+=("$e=$OUT/$e/queries"); done
if [ -d "$OUT/gnomon/queries" ] && [ ${#CHECK_ARGS[@]} -gt 0 ]; then
  python3 "$HERE/compare.py" check --queries-dir "$WORK/queries" --types "$RUN_TYPES" --qrange "$START" "$QUERY_END" \
    --reference "$OUT/gnomon/queries" "${CHECK_ARGS[@]}" >"$OUT/check.json"
  python3 - "$OUT/check.json" <<'EOF'
import json, sys
for e, types in json.load(open(sys.argv[1])).items():
    ok = [t for t, v in types.items() if v.get("status") == "ok"]
    bad = [f"{t} ({v.get('mismatched', 0)} of {v.get('matched', 0) + v.get('mismatched', 0)})"
           for t, v in types.items() if v.get("status") not in ("ok", "not run")]
    msg = f"[compare] answers {e}: {len(ok)} types identical to Gnomon"
    if bad:
        msg += "; differing: " + ", ".join(bad)
    print(msg, file=sys.stderr)
EOF
fi
python3 - "$OUT/env.json" "$LOGS/loadavg.log" <<'EOF'
import json, sys
env = json.load(open(sys.argv[1]))
vals = [float(l.split()[1]) for l in open(sys.argv[2]) if len(l.split()) >= 2]
if vals:
    env["loadavg_1m_during_run"] = {"min": min(vals), "mean": round(sum(vals) / len(vals), 2), "max": max(vals), "samples": len(vals)}
json.dump(env, open(sys.argv[1], "w"), indent=1)
EOF
python3 "$HERE/compare.py" table --root "$OUT" --types "$RUN_TYPES"
log "results: $OUT/comparison.md, $OUT/comparison.json, $OUT/check.json; logs in $LOGS"
