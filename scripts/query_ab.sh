#!/usr/bin/env bash
# Query latency of two builds on the same data, for "no regression" checks:
#   scripts/query_ab.sh OLD_BUILD_DIR NEW_BUILD_DIR
# Runs scripts/fresh_vs_flushed.sh (SCALE, HOURS, QUERIES as there) for each build ROUNDS times
# (default 2), alternating A B A B so that drift on a shared machine hits both, and prints per
# devops type the median over the rounds of each build's per-round median, fresh and after the
# restart, and new/old ratios. (Round-to-round spread on the shared 2-core machine is ±30% for
# the same binary: use 4 or more rounds before reading a 10% difference.)
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=$1; NEW=$2; ROUNDS=${ROUNDS:-2}
WORK=${WORK:-bench-results/ab}
mkdir -p "$WORK"
for r in $(seq 1 "$ROUNDS"); do
  for side in old new; do
    build=$OLD; [ "$side" = new ] && build=$NEW
    out=$WORK/$side-$r; mkdir -p "$out"
    # The data file is generated once and shared; queries too (same seed, same span).
    WORK=$WORK/shared bash scripts/fresh_vs_flushed.sh "$build" >/dev/null
    cp "$WORK/shared/fresh.txt" "$out/fresh.txt"; cp "$WORK/shared/flushed.txt" "$out/flushed.txt"
  done
done
python3 - "$WORK" "$ROUNDS" <<'PY'
import sys
work, rounds = sys.argv[1], int(sys.argv[2])
import statistics
def median_of_rounds(side, phase):
    out = {}
    for r in range(1, rounds + 1):
        for line in open(f"{work}/{side}-{r}/{phase}.txt"):
            t, ms = line.split()
            out.setdefault(t, []).append(float(ms))
    return {t: statistics.median(v) for t, v in out.items()}
of, nf, oc, nc = median_of_rounds("old", "fresh"), median_of_rounds("new", "fresh"), median_of_rounds("old", "flushed"), median_of_rounds("new", "flushed")
print(f"{'type':<24} {'old fresh':>10} {'new fresh':>10} {'ratio':>6} {'old flushed':>12} {'new flushed':>12} {'ratio':>6}")
for t in sorted(of):
    print(f"{t:<24} {of[t]:>10.2f} {nf[t]:>10.2f} {nf[t]/of[t]:>6.2f} {oc[t]:>12.2f} {nc[t]:>12.2f} {nc[t]/oc[t]:>6.2f}")
PY
