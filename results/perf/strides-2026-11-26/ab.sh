#!/bin/bash
# A/B of the population strides: the previous commit's build (kolb_A_old,
# arrays padded to 64 values) and this one's (kolb_A_new), alternated, three
# rounds per set of sizes (in_cache.yaml, aliased.yaml, bench_sizes.yaml).
# Both were built with
#   KOLB_BUILD_DIR=DIR KOLB_CMAKE_ARGS="-DKOLB_LATTICES=D2Q9;D3Q19 \
#     -DKOLB_PRECISIONS=double;float -DKOLB_LAYOUTS=SoA;CSoA8 -DKOLB_ENABLE_MPI=OFF" bash ci/build.sh
# (the old one from a worktree of b831e53) and copied to
# $KOLB_OLD_NEW_DIR/kolb_A_{old,new}. Output: ab-old-new.log.
cd "$(dirname "$0")/../../.."
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
