#!/bin/bash
# A/B: old and new dev builds alternated, 3 rounds per set
cd /work/main
out=results/perf/strides-2026-11-26
export OMP_NUM_THREADS=2 OMP_PROC_BIND=spread OMP_PLACES=threads
for set in in_cache aliased bench_sizes; do
  for r in 1 2 3; do
    for v in old new; do
      echo "== $set $v round $r $(date +%T)"
      ${KOLB_OLD_NEW_DIR:-/tmp/b}/kolb_A_$v bench $out/$set.yaml --set output=out/strides-ab-$set-$v-$r 2>&1 | grep -E "^D|triad"
    done
  done
done
