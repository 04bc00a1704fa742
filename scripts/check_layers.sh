#!/usr/bin/env bash
# Fails when a module includes a header from a layer above it (design.md: dependencies point down).
set -euo pipefail
cd "$(dirname "$0")/.."

# layer -> the layers it may include (besides itself).
declare -A allowed=(
  [base]=""
  [port]="base"
  [encoding]="base"
  [wal]="base port"
  [index]="base port encoding"
  [storage]="base port encoding wal index"
  [query]="base port encoding wal index storage"
  [server]="base port encoding wal index storage query"
  [bench]="base port encoding"
  [torture]="base port bench"
)

status=0
for layer in "${!allowed[@]}"; do
  [ -d "src/$layer" ] || continue
  while IFS= read -r hit; do
    file=${hit%%:*}
    target=$(sed -E 's/.*#include "src\/([a-z_]+)\/.*/\1/' <<<"$hit")
    [ "$target" = "$layer" ] && continue
    ok=0
    for a in ${allowed[$layer]}; do [ "$a" = "$target" ] && ok=1; done
    if [ $ok -eq 0 ]; then
      echo "layering violation: $file includes src/$target (src/$layer may use: ${allowed[$layer]:-nothing})"
      status=1
    fi
  done < <(grep -rnE '#include "src/[a-z_]+/' "src/$layer" || true)
done
[ $status -eq 0 ] && echo "layering ok"
exit $status
