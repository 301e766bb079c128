#!/usr/bin/env bash
# One short, lent GPU session: unpacks a bundle (ci/gpu-bundle.sh) and runs
# ci/gpu-check.sh's parts in priority order, each under a time cap, so that
# the whole ends within DEADLINE seconds and a part cut short costs only
# itself. Writes OUT_DIR/check.log (which part ran when, with its output)
# and OUT_DIR/results.tar.gz (every log, CSV and JSON; no VTK fields).
#   ci/gpu-session.sh ARCHIVE OUT_DIR DEADLINE [HOST_THREADS]
# Order and caps (seconds): the node's bitwise tests 45, the D3Q19 AA and
# D2Q37 node tunes 130 and 90 (issue 15; their logs time the swap on the
# halo lane, `lane`), every launch of three D3Q19 AA node runs timed
# (tools/kernel_times.cpp) 45, Nsight Systems on two node runs 75, the host-only
# references 110, the single-GPU bench (soa, fused and aa) 60, the other
# tests 120, D2Q37 on the GPU 60 (with its walls against the periodic
# box), Nsight Compute 90, launch shapes 60. On
# an H200 with 16 host threads the tests, bench, D2Q37, D3Q19 tune, Nsight
# Compute, host references and D2Q37 tune took 205 s together.
set -uo pipefail
usage="usage: ci/gpu-session.sh ARCHIVE OUT_DIR DEADLINE [HOST_THREADS]"
archive=$(realpath "${1:?$usage}")
out=${2:?$usage}
deadline=${3:?$usage}
threads=${4:-$(nproc)}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
t0=$SECONDS
k=$(mktemp -d)
work=$(mktemp -d)
trap 'rm -rf "$k" "$work"' EXIT
g=$work/g
mkdir -p "$g" "$out"
tar -xJf "$archive" -C "$k" || { echo "cannot unpack $archive"; exit 1; }
export LD_LIBRARY_PATH=$k/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for pair in KOLB_HOST_KOLB:host KOLB_HOST_KOLB_V4:host-v4 KOLB_HOST_KOLB_CLANG:host-clang; do
  [ -x "$k/${pair#*:}/bin/kolb" ] && export "${pair%%:*}=$k/${pair#*:}/bin/kolb"
done
{ date -u; nvidia-smi 2>&1; nvidia-smi -q 2>&1 | grep -A 30 "^    PCI$"; lscpu; } >"$g/machine.txt" 2>&1
log=$g/check.log
failed=0
part() {  # part CAP VAR=VALUE...: one ci/gpu-check.sh call under min(CAP, time left)
  local cap=$1 left rc
  shift
  left=$((deadline - (SECONDS - t0)))
  if ((left < 15)); then echo "[part $* skipped: $left s left]" >>"$log"; return; fi
  ((cap > left)) && cap=$left
  echo "[part $* cap $cap s, start at $((SECONDS - t0)) s]" >>"$log"
  env "$@" timeout -k 5 "$cap" bash "$root/ci/gpu-check.sh" "$k" "$g" "$threads" >>"$log" 2>&1
  rc=$?
  pkill -9 -f "$k/" 2>/dev/null  # what a cut part left running on the GPU
  echo "[part $* rc=$rc at $((SECONDS - t0)) s]" >>"$log"
  [ $rc = 0 ] || failed=1
  save  # what has run comes back even if the session is cut off
}
save() {
  cp "$log" "$out/check.log"
  tar -C "$work" --exclude='*.vti' -czf "$out/results.tar.gz" g
}
part 45 KOLB_GPU_PARTS=tests KOLB_GPU_TESTS=test_domain
part 130 KOLB_GPU_PARTS=tune KOLB_GPU_TUNES=d3q19_aa "KOLB_GPU_TUNE_ARGS=--sweep 4 --repeats 2 --seconds 0.2"
part 90 KOLB_GPU_PARTS=tune KOLB_GPU_TUNES=d2q37 "KOLB_GPU_TUNE_ARGS=--sweep 2 --repeats 1 --seconds 0.1"
part 45 KOLB_GPU_PARTS=ktimes
part 75 KOLB_GPU_PARTS=nsys
part 110 KOLB_GPU_PARTS=host
part 60 KOLB_GPU_PARTS=bench "KOLB_GPU_BENCH_ARGS=--set layouts=[soa] --set kernels=[fused,aa]"
others=$(cd "$k/tests" && ls test_* | grep -vx test_domain | tr '\n' ' ')
[ -n "$others" ] && part 120 KOLB_GPU_PARTS=tests "KOLB_GPU_TESTS=$others"
part 60 KOLB_GPU_PARTS=d2q37
part 90 KOLB_GPU_PARTS=ncu
part 60 KOLB_GPU_PARTS=blocks "KOLB_GPU_BLOCKS=32 64"
save
echo "[gpu-session] $((SECONDS - t0)) s; $out/check.log, $out/results.tar.gz"
exit $failed
