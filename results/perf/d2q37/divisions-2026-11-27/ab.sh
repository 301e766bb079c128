#!/bin/bash
# usage: [T=threads] ab.sh SIZE KERNEL ROUNDS kolb...  (alternated D2Q37 bench rows, soa and csoa8; output as in ab.txt)
size=$1; kern=$2; rounds=$3; shift 3
for r in $(seq $rounds); do
  for b in "$@"; do
    out=$(OMP_NUM_THREADS=${T:-2} OMP_PROC_BIND=spread "$b" bench "$(dirname "$0")/../../../../perf/bench_d2q37.yaml" --set "size.D2Q37=[$size,$size]" --set steps=$([ $size -le 128 ] && echo 1000 || echo 20) --set "kernels=[$kern]" --set "layouts=[soa,csoa8]" --set triad_megabytes=64 --set output="${TMPDIR:-/tmp}/ab_out" 2>&1)
    echo "$b r$r: $(echo "$out" | grep -E "^D2Q37" | awk '{printf "%s %s  ", $3, $5}') $(echo "$out" | grep -E "^D2Q37" | grep -o "[0-9.]*% of the FP64" | tr '\n' ' ')"
  done
done
