#!/bin/bash
# Interleaved fixed splits of the D2Q9 AA CPU-only node (steps alone MLUPS),
# and one block on 2 OpenMP threads (bench, periodic box of the same size).
K=/tmp/bt/bin/kolb
cd /work/main
for r in 1 2 3 4 5 6; do
  line="round $r"
  for M in 0 512 228; do
    v=$($K run inputs/09_node_cavity2d.yaml --set execution.streaming=aa --set execution.host_columns=$M --set run.steps=400 --set output.observables_every=0 --set output.vtk_every=0 --set execution.rebalance=0 --set output.folder=/tmp/pair/r 2>&1 | grep -o "steps alone [0-9.]*" | awk '{print $3}')
    line="$line M$M=$v"
  done
  v=$(OMP_PROC_BIND=true $K bench perf/bench.yaml --threads 2 --set 'lattices=[D2Q9]' --set 'precisions=[double]' --set 'layouts=[csoa8]' --set 'kernels=[aa]' --set 'size.D2Q9=[1024,1024]' --set steps=100 --set repeats=3 --set triad_megabytes=256 --set output=/tmp/pair/b 2>&1 | grep "^D2Q9" | awk '{print $5, $7}')
  echo "$line onebock2thr=$v"
done
