#!/bin/bash
# usage: [STEPS=N] cache_ab.sh ROUNDS name:kolb ...  (alternated rounds of in-cache D2Q9 384^2 and D3Q19 40^3 soa FP64 fused/AA rows)
# output: cache_d2q9_d3q19.txt
rounds=$1; shift
for r in $(seq $rounds); do
  for nb in "$@"; do
    name=${nb%%:*}; bin=${nb#*:}
    out=$(OMP_NUM_THREADS=2 OMP_PROC_BIND=spread "$bin" bench "$(dirname "$0")/../../../../perf/bench.yaml" --set "precisions=[double]" --set "layouts=[soa]" \
      --set "kernels=[fused,aa]" --set "size.D2Q9=[384,384]" --set "size.D3Q19=[40,40,40]" --set steps=${STEPS:-200} --set triad_megabytes=64 --set output="${TMPDIR:-/tmp}/cache_ab_out" 2>&1)
    echo "$name r$r: $(echo "$out" | grep -E "^D(2Q9|3Q19) " | awk '{printf "%s/%s %s  ", $1, $4, $5}')"
  done
done
