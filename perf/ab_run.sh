#!/usr/bin/env bash
# A/B of builds on whole runs: alternated rounds of the same `kolb run`
# (no outputs) with each build, so that a shared machine's phases hit all
# of them alike (perf/ab.sh does the same for `kolb bench` rows).
#   perf/ab_run.sh ROUNDS THREADS STEPS CASE.yaml SIZE KOLB... [-- --set KEY=VALUE...]
# One line per build and round: "PATH rR tT SIZE: MLUPS" (the steps alone,
# as `kolb run` prints them). SIZE is a YAML list, e.g. "[2048,12]"; what
# follows `--` goes to every run (e.g. --set execution.streaming=two_buffer).
set -euo pipefail
usage="usage: perf/ab_run.sh ROUNDS THREADS STEPS CASE.yaml SIZE KOLB... [-- --set KEY=VALUE...]"
[ $# -ge 6 ] || { echo "$usage" >&2; exit 2; }
rounds=$1 threads=$2 steps=$3 case_file=$4 size=$5
shift 5
builds=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do builds+=("$1"); shift; done
[ $# -gt 0 ] && shift  # the --
[ ${#builds[@]} -gt 0 ] || { echo "$usage" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for r in $(seq "$rounds"); do
  for b in "${builds[@]}"; do
    mlups=$(OMP_NUM_THREADS=$threads OMP_PROC_BIND=spread OMP_PLACES=threads "$b" run "$case_file" \
      --set "domain.size=$size" --set run.steps="$steps" --set output.vtk_every=0 \
      --set output.observables_every=0 --set output.folder="$out" "$@" 2>&1 |
      sed -n 's/.*the steps alone \([0-9.]*\) MLUPS.*/\1/p')
    echo "$b r$r t$threads $size: ${mlups:-failed}"
  done
done
