#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer: builds every fuzz target in a clang build dir
# (-DGNOMON_LIBFUZZER=ON: ASan + UBSan, libFuzzer instrumentation) and runs each for SECONDS over a
# scratch copy of its seed corpus, so the committed corpora are never written to. Prints per target
# libFuzzer's final line (executions, coverage, features, corpus). Crashers are kept in
# BUILD_DIR/fuzz-out/<target>/ (artifact_prefix); add them to the target's corpus as regression seeds.
# usage: scripts/fuzz.sh [SECONDS] [BUILD_DIR] [TARGET...]
set -euo pipefail
SECONDS_PER_TARGET=${1:-60}
BUILD_DIR=${2:-build-fuzz}
shift $(( $# > 2 ? 2 : $# )) || true
JOBS=${JOBS:-$(nproc)}

if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ not found; install clang (scripts/bootstrap.sh --fuzz)" >&2
  exit 1
fi
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" \
    -DGNOMON_LIBFUZZER=ON -DGNOMON_BUILD_TESTS=OFF -DGNOMON_BUILD_BENCHMARKS=OFF
fi
cmake --build "$BUILD_DIR" --target help >/dev/null  # re-runs cmake when a CMakeLists changed

mapfile -t ENTRIES < "$BUILD_DIR/fuzz_targets.txt"
declare -a TARGETS=()
for entry in "${ENTRIES[@]}"; do
  name=${entry%% *}
  if [ $# -eq 0 ] || [[ " $* " == *" $name "* ]]; then TARGETS+=("$name"); fi
done
cmake --build "$BUILD_DIR" -j "$JOBS" --target "${TARGETS[@]}"

status=0
summary=()
for entry in "${ENTRIES[@]}"; do
  read -r name binary corpus <<< "$entry"
  [[ " ${TARGETS[*]} " == *" $name "* ]] || continue
  out="$BUILD_DIR/fuzz-out/$name"
  rm -rf "$out" && mkdir -p "$out/corpus" "$out/artifacts"
  cp -r "$corpus"/. "$out/corpus/"
  echo "== $name: ${SECONDS_PER_TARGET}s over $(ls "$out/corpus" | wc -l) seeds"
  rc=0
  # -rss_limit_mb stays under what a shared 2-core box can give; -max_len bounds the WAL's
  # multi-block inputs.
  "$binary" "$out/corpus" -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 \
    -max_len=131072 -print_final_stats=1 -artifact_prefix="$out/artifacts/" \
    > "$out/log.txt" 2>&1 || rc=$?
  last=$(grep -E '^#[0-9]+' "$out/log.txt" | tail -1 || true)
  execs=$(grep -E '^stat::number_of_executed_units' "$out/log.txt" | awk '{print $2}' || true)
  if [ $rc -ne 0 ]; then
    status=1
    echo "   CRASH (rc $rc): $(ls "$out/artifacts")"
    grep -E 'ERROR|BUG:|runtime error|SUMMARY' "$out/log.txt" | head -5 | sed 's/^/   /' || true
  fi
  echo "   executions: ${execs:-?}   $last"
  summary+=("$name: executions ${execs:-?}; ${last#*	}")
done
echo
echo "fuzz summary (${SECONDS_PER_TARGET}s each):"
printf '  %s\n' "${summary[@]}"
exit $status
