#!/usr/bin/env bash
# A/B of builds: alternated rounds of the same `kolb bench` call with each
# build, so that a shared machine's phases hit all of them alike.
#   perf/ab.sh ROUNDS KOLB... -- BENCH.yaml [--set ...]
# One line per build and round: "NAME rR:" then, per bench row,
# "lattice/precision/layout/kernel MLUPS (% of its bound[, % of the FP64
# peak])". NAME is the program's file name. OMP_NUM_THREADS (default 2)
# sets the threads; one thread gives the steadiest rows on a shared VM.
set -euo pipefail
usage="usage: perf/ab.sh ROUNDS KOLB... -- BENCH.yaml [--set ...]"
rounds=${1:?$usage}
shift
builds=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do builds+=("$1"); shift; done
[ $# -gt 1 ] && [ ${#builds[@]} -gt 0 ] || { echo "$usage" >&2; exit 2; }
shift
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} OMP_PROC_BIND=spread
for r in $(seq "$rounds"); do
  for b in "${builds[@]}"; do
    rows=$("$b" bench "$@" --set output="$out" 2>&1 | awk '/^D[23]Q[0-9]+ / {
      p = ""; for (i = 1; i <= NF; ++i) if ($i == "=") p = ", " $(i + 1) " of the FP64 peak";
      printf "%s/%s/%s/%s %s (%s%s)  ", $1, $2, $3, $4, $5, $7, p }')
    echo "$(basename "$b") r$r: $rows"
  done
done
