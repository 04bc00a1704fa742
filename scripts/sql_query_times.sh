#!/bin/bash
# Median server-side execution time (ms, from /v1/sql's execution_time_ms) of one SQL statement
# over RUNS runs against a running server (GNOMON_URL, default http://127.0.0.1:4399, database db).
# usage: scripts/sql_query_times.sh NAME SQL [RUNS]
set -euo pipefail
url=${GNOMON_URL:-http://127.0.0.1:4399}
name=$1; sql=$2; runs=${3:-7}
ts=()
for i in $(seq $runs); do
  t=$(curl -s -G "$url/v1/sql" --data-urlencode "db=db" --data-urlencode "sql=$sql" | python3 -c "import json,sys; d=json.load(sys.stdin); print(d.get('execution_time_ms', 'ERR '+str(d)[:200]))")
  ts+=($t)
done
printf "%s\t%s\n" "$name" "$(printf '%s\n' "${ts[@]}" | sort -g | sed -n "$(( (runs+1)/2 ))p")"
