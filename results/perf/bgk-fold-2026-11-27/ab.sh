#!/bin/bash
# usage: q_ab.sh ROUNDS THREADS N3 N2 bin...
rounds=$1; t=$2; n=$3; m=$4; shift 4
for r in $(seq $rounds); do for b in "$@"; do
out=$(OMP_NUM_THREADS=$t OMP_PROC_BIND=spread $b bench /work/main/perf/bench.yaml --set "precisions=[double]" --set "layouts=[soa]" --set "kernels=[fused,aa,collide]" --set "size.D3Q19=[$n,$n,$n]" --set "size.D2Q9=[$m,$m]" --set steps=$((400*40*40*40/(n*n*n))) --set triad_megabytes=64 --set output=/tmp/cab_out 2>&1)
echo "$(basename $b) r$r: $(echo "$out" | grep -E "^D(2Q9|3Q19) " | awk '{printf "%s/%s %s  ", $1, $4, $5}')"
done; done
