#!/usr/bin/env bash
# The same D2Q37 code built by g++-12 and by clang++-15 (issue 16 item 3):
# the collision in and near the cache, the fused step in memory, and the two
# D2Q37 inputs, alternated rounds on a quiet machine; then the inputs'
# outputs compared byte for byte.
#   compare.sh GCC_KOLB CLANG_KOLB OUT_DIR [ROUNDS]
# Builds (D2Q37 alone is enough):
#   KOLB_BUILD_DIR=build-d2q37 KOLB_CMAKE_ARGS="-DKOLB_LATTICES=D2Q37 -DKOLB_ENABLE_TESTS=OFF" bash ci/build.sh
#   KOLB_CXX=clang++-15 KOLB_BUILD_DIR=build-d2q37-clang KOLB_CMAKE_ARGS="-DKOLB_LATTICES=D2Q37 -DKOLB_ENABLE_TESTS=OFF" bash ci/build.sh
set -euo pipefail
usage="usage: compare.sh GCC_KOLB CLANG_KOLB OUT_DIR [ROUNDS]"
gcc_kolb=${1:?$usage}
clang_kolb=${2:?$usage}
out=${3:?$usage}
rounds=${4:-3}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." && pwd)
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} OMP_PROC_BIND=spread OMP_PLACES=cores
mkdir -p "$out"

bench() {  # bench KOLB KERNEL N STEPS: MLUPS and % of the FP64 peak of soa and csoa8
  "$1" bench "$root/perf/bench_d2q37.yaml" --set "size.D2Q37=[$3,$3]" --set "steps=$4" \
    --set "kernels=[$2]" --set 'layouts=[soa,csoa8]' --set triad_megabytes=64 \
    --set output="$out/bench" 2>&1 | awk '/^D2Q37/ { for (i = 1; i <= NF; ++i) if ($i == "=") p = $(i + 1);
      printf "%s %s (%s)  ", $3, $5, p }'
}
run() {  # run KOLB INPUT STEPS FOLDER: MLUPS of the whole time loop
  "$1" run "$root/inputs/$2" -q --set "run.steps=$3" --set output.folder="$4" 2>&1 |
    grep -o '[0-9.]* MLUPS' | head -n 1
}
for r in $(seq "$rounds"); do
  for pair in "gcc:$gcc_kolb" "clang:$clang_kolb"; do
    c=${pair%%:*} k=${pair#*:}
    echo "round $r $c: collide 64^2: $(bench "$k" collide 64 1000)"
    echo "round $r $c: collide 224^2: $(bench "$k" collide 224 40)"
    echo "round $r $c: fused 1024^2: $(bench "$k" fused 1024 10)"
    echo "round $r $c: Rayleigh-Benard 192x64, 4000 steps: $(run "$k" 12_rayleigh_benard.yaml 4000 "$out/rb-$c")"
    echo "round $r $c: Rayleigh-Taylor 160x320, 1000 steps: $(run "$k" 11_rayleigh_taylor.yaml 1000 "$out/rt-$c")"
  done
done
for f in rb-gcc/observables.csv rt-gcc/observables.csv rb-gcc/fields_000004000.vti rt-gcc/fields_000001000.vti; do
  if cmp -s "$out/$f" "$out/${f/gcc/clang}"; then echo "identical: $f and ${f/gcc/clang}"; else echo "DIFFERENT: $f"; fi
done
