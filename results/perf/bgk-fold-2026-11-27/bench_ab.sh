#!/bin/bash
# usage: bench_ab.sh ROUNDS kolb...  (alternated rounds of perf/bench.yaml's soa FP64 fused and AA rows at
# its sizes, 2 threads: MLUPS and % of the same-pattern probe measured next to each row)
rounds=$1; shift
for r in $(seq "$rounds"); do for b in "$@"; do
  out=$(OMP_NUM_THREADS=2 OMP_PROC_BIND=spread "$b" bench "$(dirname "$0")/../../../perf/bench.yaml" \
    --set "precisions=[double]" --set "layouts=[soa]" --set "kernels=[fused,aa]" \
    --set output="${TMPDIR:-/tmp}/bench_ab_out" 2>&1)
  echo "$(basename "$b") r$r: $(echo "$out" | grep -E "^D(2Q9|3Q19) " | awk '{printf "%s/%s %s (%s)  ", $1, $4, $5, $7}')"
done; done
