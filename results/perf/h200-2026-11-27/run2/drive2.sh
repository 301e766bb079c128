#!/usr/bin/env bash
# Second lent call: launch bounds of the GPU kernels (issue 16 item 2), the
# D2Q37 host rows' thread scaling and clang's peak (item 3), then the two
# GPU tests the first call's cap cut. bash .gpu/drive2.sh OUT DEADLINE
set -u
out=$1; deadline=$2; t0=$SECONDS
g=/tmp/g; k=/tmp/k; mkdir -p $g $k
tar -xJf .gpu/kolb.tar.xz -C $k && tar -xJf .gpu/lb.tar.xz -C $k
export LD_LIBRARY_PATH=$k/lib KOLB_SOURCE_DIR=$PWD OMP_PROC_BIND=false
log=$g/check.log
left() { echo $(( deadline - (SECONDS - t0) )); }
capped() {  # capped CAP LOGFILE CMD...: run under min(CAP, time left)
  local cap=$1 f=$2; shift 2
  local l=$(left); (( l < 10 )) && { echo "[skipped: $f]" >> $log; return; }
  (( cap > l )) && cap=$l
  timeout -k 3 $cap "$@" > $g/$f 2>&1
  echo "[$f rc=$? at $((SECONDS - t0)) s]" >> $log
  pkill -9 -f "$k/" 2>/dev/null; sleep 1
}
gpu_bench() {  # gpu_bench NAME KOLB
  capped 40 bench_$1.log "$2" bench perf/bench_gpu.yaml --threads 16 --set output=$g/bench_$1 \
    --set 'layouts=[soa]' --set 'kernels=[fused,aa]'
  grep -E "grid-stride|^D" $g/bench_$1.log | sed "s/^/$1 /" >> $log
}
for round in 1 2; do
  gpu_bench base_$round $k/bin/kolb
  for lb in 128_8 128_12 128_16; do gpu_bench lb${lb}_$round $k/lb_$lb/kolb; done
done
n=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
for lb in 128_8 128_12; do for p in double float; do
  capped 20 ncu_${lb}_${p}_aa.txt "$n" --clock-control none --kernel-name-base demangled \
    -k 'regex:AAPull|Collide' -c 2 --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section WarpStateStats --section MemoryWorkloadAnalysis \
    $k/lb_$lb/kolb bench .gpu/ncu.yaml --threads 16 --set "precisions=[$p]" --set "kernels=[aa]"
done; done
d37() {  # d37 NAME KOLB THREADS
  OMP_PROC_BIND=spread OMP_PLACES=cores capped 40 $1.log "$2" bench perf/bench_d2q37.yaml \
    --threads $3 --set 'layouts=[soa,csoa8]' --set 'kernels=[fused,collide]' \
    --set 'size.D2Q37=[2048,2048]' --set triad_megabytes=3072 --set output=$g/$1
  grep -E "peak|triad|^D" $g/$1.log | sed "s/^/$1 /" | cut -c1-260 >> $log
}
d37 host_v4_16 $k/host-v4/bin/kolb 16
d37 host_v4_8 $k/host-v4/bin/kolb 8
d37 host_clang_16 $k/host-clang-new/kolb 16
for t in test_poiseuille test_d2q37_physics; do
  OMP_NUM_THREADS=16 capped 120 $t.log $k/tests/$t
  grep -E "PASSED|FAILED|OK \]" $g/$t.log | tail -3 | sed "s/^/$t /" >> $log
done
cp $log $out/check.log
tar -C /tmp -czf $out/g.tar.gz g
echo "total $((SECONDS - t0)) s"; grep -v "^lb\|^base" $log | tail -c 4000
