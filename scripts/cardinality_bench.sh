#!/usr/bin/env bash
# Ingest, memory, storage and a few queries at one fleet size (docs/benchmarks.md, "High
# cardinality"):
#   scripts/cardinality_bench.sh SERVER_BINARY SCALE END LABEL
# e.g. scripts/cardinality_bench.sh build/gnomon 100000 2023-06-11T00:10:00Z after-100k
# Generates cpu-only SCALE hosts from 2023-06-11T00:00:00Z to END (10 s interval) into a file
# once, starts SERVER_BINARY on an empty directory (default settings, fsync on), loads the file
# with `gnomon bench load --workers 4 --batch-size 10000` on the same machine, then times a
# one-host query and count(*), stops the server cleanly, and prints one line of figures (peak RSS
# of the load alone, and of the whole run with the queries and the stop).
# WORK (default bench-results/cardinality) holds the data files; LOADER (default build/gnomon)
# generates and loads; PORT (default 4317). TRACE=FILE also samples VmRSS and the engine's memory
# gauges from /metrics every 2 s into FILE (the input of scripts/plot_rss.py). PROBE=1 also
# times the one-host query every second during the load (median and max in the figures line).
# After the stop the server restarts on the same directory and the time to serving (/health)
# is reported; KILL9=1 kills it with SIGKILL instead of stopping it cleanly (start_s then covers
# WAL and registry-log replay), and reports a second start after a clean stop (start_clean_s).
set -euo pipefail
bin=$1; scale=$2; end=$3; label=$4
work=${WORK:-bench-results/cardinality}; loader=${LOADER:-build/gnomon}; port=${PORT:-4317}
mkdir -p "$work"
data=$work/cpu-$scale-$end.lp
if [ ! -f "$data" ]; then
  "$loader" bench generate-data --use-case cpu-only --scale "$scale" --seed 123 \
    --timestamp-start 2023-06-11T00:00:00Z --timestamp-end "$end" --log-interval 10s --out "$data" 2>/dev/null
fi
dir=$work/data-$label; rm -rf "$dir"; mkdir -p "$dir"
"$bin" server --data-dir "$dir" --http-addr 127.0.0.1:$port > "$work/server-$label.log" 2>&1 &
pid=$!
sleep 1
hwm=$work/hwm-$label
echo 0 > "$hwm"
anon=$work/anon-$label  # the peak of RssAnon, sampled: VmHWM also counts the mmapped segment pages a scan touches
echo 0 > "$anon"
trace=${TRACE:-}; [ -z "$trace" ] || : > "$trace"
gauges='^gnomon_engine_(series|series_index_bytes|segment_index_bytes|last_value_bytes|memtable_bytes|segment_files) '
( while kill -0 $pid 2>/dev/null; do
    r=$(awk '/VmHWM/ {print $2}' /proc/$pid/status 2>/dev/null || true)
    if [ -n "$r" ] && [ "$r" -gt "$(cat "$hwm")" ]; then echo "$r" > "$hwm"; fi
    a=$(awk '/RssAnon/ {print $2}' /proc/$pid/status 2>/dev/null || true)
    if [ -n "$a" ] && [ "$a" -gt "$(cat "$anon")" ]; then echo "$a" > "$anon"; fi
    if [ -n "$trace" ]; then
      m=$(curl -s -m 5 "http://127.0.0.1:$port/metrics" | grep -E "$gauges" | awk '{printf "%s=%s ", $1, $2}' || true)
      echo "$(date +%s) rss_kb=$(awk '/VmRSS/ {print $2}' /proc/$pid/status 2>/dev/null) anon_kb=$a $m" >> "$trace"
      sleep 2
    else
      sleep 1
    fi
  done ) &
q() { curl -s -o /dev/null -w '%{time_total}' "http://127.0.0.1:$port/v1/sql?db=benchmark" --data-urlencode "sql=$1"; }
one="SELECT max(usage_user) FROM cpu WHERE hostname='host_7' AND time >= '2023-06-11T00:00:00Z' AND time < '2023-06-11T00:01:00Z'"
probe=$work/probe-$label; : > "$probe"; rm -f "$probe.stop"
if [ -n "${PROBE:-}" ]; then
  ( sleep 5; while kill -0 $pid 2>/dev/null && [ ! -f "$probe.stop" ]; do q "$one" >> "$probe"; echo >> "$probe"; sleep 1; done ) &
fi
t0=$(date +%s.%N)
"$loader" bench load --url http://127.0.0.1:$port --file "$data" --workers 4 --batch-size 10000 \
  --create-db --reporting-period 0s --no-progress --json "$work/load-$label.json" > "$work/load-$label.out" 2>&1
t1=$(date +%s.%N)
touch "$probe.stop"
during=$(sort -n "$probe" | awk '{v[NR]=$1} END {if (NR) printf "%.1f/%.1f(n=%d)", v[int((NR+1)/2)]*1000, v[NR]*1000, NR; else printf "-"}')
cpu_ticks=$(awk '{print $14+$15}' /proc/$pid/stat)
hwm_load=$(awk '/VmHWM/ {print $2}' /proc/$pid/status)  # the peak of the load alone
q1=$(q "$one"); q2=$(q "$one")
qc=$(q "SELECT count(*) FROM cpu")
ts=$(date +%s.%N)
if [ -n "${KILL9:-}" ]; then kill -KILL $pid; else kill -TERM $pid; fi
wait $pid || true
te=$(date +%s.%N)
seg=$(find "$dir" -name '*.seg' -printf '%s\n' | awk '{s+=$1} END {print s+0}')  # before any restart
# Starts the server on $dir and waits for its first /health answer; sets pid and took (seconds).
start_serving() {
  local a b
  a=$(date +%s.%N)
  "$bin" server --data-dir "$dir" --http-addr 127.0.0.1:$port >> "$work/server-$label.log" 2>&1 &
  pid=$!
  until curl -s -o /dev/null "http://127.0.0.1:$port/health"; do
    kill -0 $pid 2>/dev/null || { echo "server exited during start" >&2; exit 1; }
    sleep 0.2
  done
  b=$(date +%s.%N)
  took=$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.1f", b - a}')
}
start_serving; start_s=$took
kill -TERM $pid; wait $pid || true
start_clean_s=-
if [ -n "${KILL9:-}" ]; then
  start_serving; start_clean_s=$took
  kill -TERM $pid; wait $pid || true
fi
rows=$(grep -o '"rowCount":[0-9]*' "$work/load-$label.json" | grep -o '[0-9]*$')
awk -v l="$label" -v s="$scale" -v r="$rows" -v t0="$t0" -v t1="$t1" -v c="$cpu_ticks" -v h="$(cat "$hwm")" -v an="$(cat "$anon")" -v hl="$hwm_load" \
    -v seg="$seg" -v during="$during" -v q1="$q1" -v q2="$q2" -v qc="$qc" -v ts="$ts" -v te="$te" -v st="$start_s" -v stc="$start_clean_s" -v k="${KILL9:+(SIGKILL)}" 'BEGIN {
  printf "%s scale=%s rows=%s rows/s=%.0f server_cpu_s=%.1f (%.2f us/row) peak_rss_load_mb=%.0f peak_rss_mb=%.0f peak_anon_mb=%.0f seg_bytes/metric=%.3f one_host_during_load_ms=%s one_host_ms=%.1f/%.1f count_ms=%.0f stop_s=%.1f%s start_s=%s start_clean_s=%s\n",
    l, s, r, r / (t1 - t0), c / 100, c / 100 / r * 1e6, hl / 1024, h / 1024, an / 1024, seg / (r * 10), during, q1 * 1000, q2 * 1000, qc * 1000, te - ts, k, st, stc }'
