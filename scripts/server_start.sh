# Sourced by the benchmark scripts: start_server runs "$GNOMON" server on $DATA_DIR (default
# "$WORK/data") at 127.0.0.1:$PORT (log: $WORK/server.log), sets $pid, and returns once the port
# answers (at most 60 s; a start-up replaying a large WAL can take a while).
start_server() {
  if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then echo "port $PORT is in use" >&2; exit 1; fi
  "$GNOMON" server --data-dir "${DATA_DIR:-$WORK/data}" --http-addr "127.0.0.1:$PORT" >>"$WORK/server.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 600); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && return; sleep 0.1; done
  echo "server did not start" >&2; exit 1
}
