#!/usr/bin/env bash
# One lent GPU call: unpack the bundle, run ci/gpu-check.sh parts in priority
# order, each capped so that the whole ends by DEADLINE seconds, pack results.
#   bash .gpu/drive.sh OUT DEADLINE
set -u
out=$1; deadline=$2; t0=$SECONDS
g=/tmp/g; k=/tmp/k; mkdir -p $g $k
tar -xJf .gpu/kolb.tar.xz -C $k
export LD_LIBRARY_PATH=$k/lib KOLB_HOST_KOLB=$k/host/bin/kolb \
  KOLB_HOST_KOLB_V4=$k/host-v4/bin/kolb KOLB_HOST_KOLB_CLANG=$k/host-clang/bin/kolb
{ date -u; git log -1 --format='%H %s' 2>/dev/null; nvidia-smi; lscpu; free -g; } > $g/machine.txt 2>&1
part() {  # part CAP VAR=VALUE...
  local cap=$1; shift
  local left=$(( deadline - (SECONDS - t0) ))
  (( left < 15 )) && { echo "[part $* skipped: ${left} s left]" >> $g/check.log; return; }
  (( cap > left )) && cap=$left
  echo "[part $* cap ${cap} s, start at $((SECONDS - t0)) s]" >> $g/check.log
  env "$@" timeout -k 5 $cap bash ci/gpu-check.sh $k $g 16 >> $g/check.log 2>&1
  local rc=$?
  pkill -9 -f "$k/" 2>/dev/null; sleep 1
  echo "[part $* rc=$rc at $((SECONDS - t0)) s]" >> $g/check.log
}
# What limits the D3Q19 kernels (issue 16 item 2): Nsight Compute on the
# AA pull, AA collide and fused kernels of FP64 and FP32 (bulk pass).
ncu_part() {
  local n p kern left
  n=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  echo "[ncu $n, start at $((SECONDS - t0)) s]" >> $g/check.log
  for p in double float; do for kern in aa fused; do
    left=$(( deadline - (SECONDS - t0) )); (( left < 20 )) && return
    timeout -k 5 $(( left < 25 ? left : 25 )) "$n" --clock-control none --kernel-name-base demangled \
      -k 'regex:AAPull|StreamCollide|Collide' -c 2 \
      --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
      --section LaunchStats --section WarpStateStats \
      $k/bin/kolb bench .gpu/ncu.yaml --threads 16 --set "precisions=[$p]" --set "kernels=[$kern]" \
      > $g/ncu_${p}_$kern.txt 2>&1
    echo "[ncu $p $kern rc=$? at $((SECONDS - t0)) s]" >> $g/check.log
    pkill -9 -f "$k/" 2>/dev/null; sleep 1
  done; done
}
part 45 KOLB_GPU_PARTS=tests KOLB_GPU_TESTS="test_domain"
part 60 KOLB_GPU_PARTS=bench "KOLB_GPU_BENCH_ARGS=--set layouts=[soa] --set kernels=[fused,aa]"
part 45 KOLB_GPU_PARTS=d2q37
part 130 KOLB_GPU_PARTS=tune KOLB_GPU_TUNES=d3q19_aa "KOLB_GPU_TUNE_ARGS=--sweep 4 --repeats 2 --seconds 0.2"
ncu_part
part 110 KOLB_GPU_PARTS=host
part 90 KOLB_GPU_PARTS=tune KOLB_GPU_TUNES=d2q37 "KOLB_GPU_TUNE_ARGS=--sweep 2 --repeats 1 --seconds 0.1"
rest=$(cd $k/tests && ls test_* | grep -v -e '^test_domain$' -e '^test_d2q37_physics$' -e '^test_poiseuille$' | tr '\n' ' ')
part 60 KOLB_GPU_PARTS=tests "KOLB_GPU_TESTS=$rest test_poiseuille test_d2q37_physics"
part 60 KOLB_GPU_PARTS=blocks "KOLB_GPU_BLOCKS=32 64"
rm -rf $g/run_cavity* $g/cli_work
find $g -name '*.vti' -delete
cp $g/check.log $out/check.log
tar -C /tmp -czf $out/g.tar.gz g
echo "total $((SECONDS - t0)) s"
cat $g/check.log | grep -v "^D[23]" | tail -c 6000
