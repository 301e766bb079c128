#!/bin/bash
# Alternated rounds: the kept build with and without aligned rows (KOLB_NO_ALIGN), per row size.
cd /tmp/ab
export OMP_NUM_THREADS=2 OMP_PROC_BIND=spread
for r in 1 2 3; do
  for sz in '[160,160,160]' '[96,96,96]' '[48,320,320]' '[16,800,800]'; do
    for mode in aligned plain; do
      if [ $mode = plain ]; then export KOLB_NO_ALIGN=1; else unset KOLB_NO_ALIGN; fi
      rows=$(./kolb-envalign bench /work/main/perf/bench.yaml --set 'lattices=[D3Q19]' --set 'layouts=[soa]' \
        --set 'kernels=[fused]' --set triad_megabytes=256 --set "size.D3Q19=$sz" --set output=/tmp/ab/out-thin 2>&1 |
        awk '/^D3Q19 / {printf "%s/%s %s (%s)  ", $2, $4, $5, $7}')
      echo "r$r $sz $mode: $rows"
    done
  done
done
