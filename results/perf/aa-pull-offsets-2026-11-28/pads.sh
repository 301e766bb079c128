#!/bin/bash
# D3Q19 160^3 aa and collide rows with the population stride's pad set (KOLB_STRIDE_PAD8/4):
# cur = the rule's pads (18, 10), few = 2 close pull pairs (28, 14), many = 9 (58, 53).
cd /tmp/ab
export OMP_NUM_THREADS=2 OMP_PROC_BIND=spread
for r in 1 2 3; do
  for cfg in cur:18:10 few:28:14 many:58:53; do
    IFS=: read name p8 p4 <<< "$cfg"
    rows=$(KOLB_STRIDE_PAD8=$p8 KOLB_STRIDE_PAD4=$p4 ./kolb-pad bench /work/main/perf/bench.yaml --set 'lattices=[D3Q19]' \
      --set 'layouts=[soa]' --set 'kernels=[aa,collide]' --set triad_megabytes=256 --set output=/tmp/ab/out-pad 2>&1 |
      awk '/^D3Q19 / {printf "%s/%s %s (%s)  ", $2, $4, $5, $7}')
    echo "r$r $name: $rows"
  done
done
