#!/usr/bin/env bash
# Runs a CUDA or HIP build on a machine with a GPU (CI has none): every test
# executable, the command-line test, the single-GPU benchmark, the load
# balancer on the node cases at GPU sizes (GPU + OpenMP host at once), and
# the host part's references from a host-only build on the same CPU.
#   ci/gpu-check.sh BUILD_DIR OUT_DIR [HOST_THREADS]
# KOLB_GPU_PARTS picks parts (default: "tests bench d2q37 tune host runs";
# also "blocks", "ncu", Nsight Compute on the D3Q19 kernels, "nsys",
# Nsight Systems on two node runs, and "ktimes", every launch of three node
# runs timed by tools/kernel_times.cpp);
# KOLB_GPU_TUNES the node tunes (default: "d2q9 d3q19 d3q19_aa d2q37");
# KOLB_GPU_BENCH_ARGS extra arguments for the single-GPU benchmark (e.g.
# "--set kernels=[fused,aa]"); KOLB_GPU_TEST_JOBS test executables at a
# time (default 1: processes sharing a GPU are time-sliced; on an H200, 4 at
# a time ran the cavity test in 118 s, alone in 2 s);
# KOLB_GPU_TESTS the test executables (default: all); KOLB_GPU_TUNE_ARGS
# replaces the tunes' "--sweep 8 --repeats 3 --seconds 0.2"; part "blocks"
# benches D2Q9/D3Q19 soa rows for each KOLB_GPU_BLOCK in KOLB_GPU_BLOCKS
# (default "0 32 64 256": Kokkos' launch, then 32 and 64, the sizes Kokkos
# 3.4's block formula gives most kernels, and 256); KOLB_HOST_KOLB a host-only
# kolb built for this CPU (the host part without it is skipped),
# KOLB_HOST_KOLB_V4 optionally one built for x86-64-v4 and KOLB_HOST_KOLB_CLANG
# one built by clang (KOLB_CXX; their D2Q37 bench). Works on a
# relocated build too (test executables are found in BUILD_DIR/tests, inputs
# in this checkout; see ci/gpu-bundle.sh). Exit 1 if any part failed.
set -uo pipefail
build=$(cd "${1:?usage: ci/gpu-check.sh BUILD_DIR OUT_DIR [HOST_THREADS]}" && pwd)
out=${2:?usage: ci/gpu-check.sh BUILD_DIR OUT_DIR [HOST_THREADS]}
threads=${3:-$(nproc)}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
kolb=$build/bin/kolb
mkdir -p "$out" && out=$(cd "$out" && pwd)
export KOLB_SOURCE_DIR=$root OMP_PROC_BIND=false
failed=0
parts=" ${KOLB_GPU_PARTS:-tests bench d2q37 tune host runs} "
tunes=" ${KOLB_GPU_TUNES:-d2q9 d3q19 d3q19_aa d2q37} "
want() { [[ $parts == *" $1 "* ]]; }
elapsed() { awk -v now="$EPOCHREALTIME" -v t0="$1" 'BEGIN { printf "%.1f", now - t0 }'; }

if want tests; then
echo "== tests ($build)"
# KOLB_GPU_TEST_JOBS executables at a time, each with its share of the host
# threads.
jobs=${KOLB_GPU_TEST_JOBS:-1}
run_test() {
  local t=$1 name t0=$EPOCHREALTIME rc verdict
  name=$(basename "$t")
  OMP_NUM_THREADS=$(( threads / jobs > 0 ? threads / jobs : 1 )) timeout 900 "$t" >"$out/$name.log" 2>&1
  rc=$?
  if [ $rc = 0 ]; then verdict=passed; else verdict="FAILED (exit $rc)"; fi
  echo "$name: $verdict in $(elapsed "$t0") s ($(grep -c '^\[       OK' "$out/$name.log") gtest cases ok)"
}
export -f run_test elapsed
export out threads jobs
if [ -n "${KOLB_GPU_TESTS:-}" ]; then
  for t in $KOLB_GPU_TESTS; do echo "$build/tests/$t"; done
else
  find "$build/tests" -maxdepth 1 -name 'test_*' -type f -perm -u+x | sort
fi |
  xargs -P "$jobs" -I{} bash -c 'run_test {}' | tee "$out/tests.txt"
grep -q FAILED "$out/tests.txt" && failed=1
t0=$EPOCHREALTIME
if bash "$root/tests/cli/test_cli.sh" "$kolb" "$root" "$out/cli_work" >"$out/test_cli.log" 2>&1; then
  echo "test_cli: passed in $(elapsed "$t0") s"
else
  echo "test_cli: FAILED"; failed=1; grep FAIL "$out/test_cli.log"
fi
rm -rf "$out/cli_work"
fi

if want bench; then
echo "== single-GPU benchmark"
eval "extra=(${KOLB_GPU_BENCH_ARGS:-})"
"$kolb" bench "$root/perf/bench_gpu.yaml" --threads "$threads" --set output="$out/bench" "${extra[@]}" \
  >"$out/bench.log" 2>&1 || { echo "bench FAILED"; failed=1; }
tail -n 60 "$out/bench.log"
fi

if want blocks; then
echo "== launch shape: threads per block of kolb's CUDA launches (KOLB_GPU_BLOCK)"
for b in ${KOLB_GPU_BLOCKS:-0 32 64 256}; do
  KOLB_GPU_BLOCK=$b "$kolb" bench "$root/perf/bench_gpu.yaml" --threads "$threads" \
    --set output="$out/blocks_$b" --set 'precisions=[double,float]' --set 'layouts=[soa]' \
    --set 'kernels=[fused,aa]' >"$out/blocks_$b.log" 2>&1 || { echo "bench KOLB_GPU_BLOCK=$b FAILED"; failed=1; }
  echo "KOLB_GPU_BLOCK=$b"; grep -E "probes on|grid-stride|^D" "$out/blocks_$b.log"
done
fi

if want ncu; then
echo "== Nsight Compute: D3Q19 SoA AA and fused kernels, FP64 and FP32, 192^3"
# Occupancy, DRAM throughput and stall reasons of the bulk kernels (the
# first two launches of each row; docs/gpu-clusters.md, "What limits them").
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -n 1)
[ -n "$ncu" ] || { echo "ncu FAILED: Nsight Compute not found"; failed=1; }
[ -n "$ncu" ] && for p in double float; do for k in aa fused; do
  "$ncu" --clock-control none --kernel-name-base demangled -k 'regex:AAPull|StreamCollide|Collide' -c 2 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
    --section LaunchStats --section WarpStateStats \
    "$kolb" bench "$root/perf/bench_gpu.yaml" --threads "$threads" --set output="$out/ncu_bench" \
    --set 'lattices=[D3Q19]' --set 'layouts=[soa]' --set "precisions=[$p]" --set "kernels=[$k]" \
    --set 'size.D3Q19=[192,192,192]' --set steps=2 --set repeats=1 --set triad_megabytes=256 \
    >"$out/ncu_${p}_$k.txt" 2>&1 || { echo "ncu $p $k FAILED"; failed=1; }
  echo "$p $k: $(grep -E 'Duration|DRAM Throughput|Registers Per|Achieved Occupancy' "$out/ncu_${p}_$k.txt" |
    head -n 4 | awk '{print $1, $2, $NF}' | paste -sd ' ')"
done; done
fi

if want d2q37; then
echo "== single-GPU D2Q37 (issue 16 item 2: the bytes' bound)"
"$kolb" bench "$root/perf/bench_d2q37.yaml" --threads "$threads" --set output="$out/bench_d2q37" \
  --set 'size.D2Q37=[4096,4096]' --set 'layouts=[soa,csoa8]' --set 'kernels=[fused]' \
  --set triad_megabytes=6144 >"$out/bench_d2q37.log" 2>&1 || { echo "bench d2q37 FAILED"; failed=1; }
tail -n 8 "$out/bench_d2q37.log"
# What the wall rows cost the GPU: the Rayleigh-Taylor case alone on it
# (walls on y) against the bench's periodic box of the same size, collision
# and layout (steps alone against the row).
echo "== D2Q37 wall rows on the GPU: walled case against the periodic box"
"$kolb" bench "$root/perf/bench_d2q37.yaml" --threads "$threads" --set output="$out/bench_d2q37_bgk" \
  --set 'size.D2Q37=[2048,4096]' --set 'layouts=[soa]' --set 'kernels=[fused]' \
  --set d2q37_collision=bgk --set triad_megabytes=1024 >"$out/bench_d2q37_bgk.log" 2>&1 ||
  { echo "bench d2q37 bgk FAILED"; failed=1; }
grep -E "^D2Q37" "$out/bench_d2q37_bgk.log"
"$kolb" run "$root/inputs/11_rayleigh_taylor.yaml" --threads "$threads" \
  --set 'domain.size=[2048,4096]' --set execution.layout=soa --set execution.host_columns=0 \
  --set run.steps=400 --set output.vtk_every=0 --set output.observables_every=0 \
  --set output.folder="$out/run_d2q37_walls" >"$out/run_d2q37_walls.log" 2>&1 ||
  { echo "run d2q37 walls FAILED"; failed=1; }
grep -E "^done" "$out/run_d2q37_walls.log"
fi

tune() {  # tune NAME CASE --set ...
  local name=$1 case=$2; shift 2
  "$kolb" tune "$root/$case" --threads "$threads" ${KOLB_GPU_TUNE_ARGS:---sweep 8 --repeats 3 --seconds 0.2} \
    --set output.folder="$out/tune_$name" "$@" >"$out/tune_$name.log" 2>&1 || { echo "tune $name FAILED"; failed=1; }
  tail -n 25 "$out/tune_$name.log"
}
# The node's D3Q19 case at GPU size, csoa8 as in the input (a layout
# ci/device-build.sh compiles).
duct=(inputs/10_node_duct3d.yaml --set 'domain.size=[512,128,128]'
  --set 'obstacles=[{type: sphere, center: [128, 64, 64], radius: 16}]')
if want nsys; then
echo "== Nsight Systems: the node's steps (D3Q19 AA duct at M = 2, D2Q37 at M = 12)"
# Where a node step's time goes on the GPU's streams: the kernels, the
# swap's copies and their bandwidth (docs/heterogeneous.md, "Overlapped
# swap"). Text summaries and the trace of the copies only; the report
# files are deleted.
nsys=$(command -v nsys || ls /opt/nvidia/nsight-systems/*/bin/nsys /usr/local/cuda/bin/nsys 2>/dev/null | head -n 1)
[ -n "$nsys" ] || echo "nsys skipped: Nsight Systems not found (the lent H200 machines have none)"
nsys_run() {  # nsys_run NAME CASE --set ...
  local name=$1 case=$2; shift 2
  "$nsys" profile --trace=cuda --sample=none --cpuctxsw=none -f true -o "$out/nsys_$name" \
    "$kolb" run "$root/$case" -q --threads "$threads" --set output.vtk_every=0 \
    --set output.observables_every=0 --set output.folder="$out/nsys_run_$name" "$@" \
    >"$out/nsys_$name.log" 2>&1 || { echo "nsys $name FAILED"; failed=1; return; }
  { "$nsys" stats -r cuda_gpu_mem_time_sum,cuda_gpu_mem_size_sum,cuda_gpu_kern_sum "$out/nsys_$name.nsys-rep" ||
    "$nsys" stats -r gpumemtimesum,gpumemsizesum,gpukernsum "$out/nsys_$name.nsys-rep"; } >"$out/nsys_${name}_sum.txt" 2>&1
  { "$nsys" stats -r cuda_gpu_trace -f csv "$out/nsys_$name.nsys-rep" ||
    "$nsys" stats -r gputrace -f csv "$out/nsys_$name.nsys-rep"; } 2>&1 | tail -n 400 >"$out/nsys_${name}_trace.csv"
  rm -f "$out/nsys_$name".nsys-rep "$out/nsys_$name".sqlite
  grep -E "^\s*[0-9]" "$out/nsys_${name}_sum.txt" | head -n 12
}
[ -n "$nsys" ] && nsys_run d3q19_aa "${duct[@]}" --set execution.streaming=aa \
  --set execution.host_columns=2 --set run.steps=200 --set execution.rebalance=0
[ -n "$nsys" ] && nsys_run d2q37 inputs/11_rayleigh_taylor.yaml --set 'domain.size=[2048,4096]' \
  --set execution.host_columns=12 --set run.steps=100 --set execution.rebalance=0
fi

if want ktimes; then
echo "== kernel times: the node's host side, launch by launch (D3Q19 AA duct at M = 0, 1, 2)"
# Where the host side's fixed cost per step goes on a machine without
# nsys: every launch and copy timed by name on the host clock
# (tools/kernel_times.cpp), with the node trace beside (KOLB_NODE_TRACE).
ktimes=$build/lib/libkolb_kernel_times.so
if [ -f "$ktimes" ]; then
  for m in 0 1 2; do
    KOKKOS_PROFILE_LIBRARY=$ktimes KOLB_KERNEL_TIMES=$out/ktimes_d3q19_aa_m$m.txt KOLB_NODE_TRACE=100 \
      "$kolb" run "$root/${duct[0]}" "${duct[@]:1}" --threads "$threads" --set execution.streaming=aa \
      --set execution.host_columns=$m --set run.steps=400 --set execution.rebalance=0 \
      --set output.vtk_every=0 --set output.observables_every=0 --set output.folder="$out/ktimes_run_m$m" \
      >"$out/ktimes_d3q19_aa_m$m.log" 2>&1 || { echo "ktimes m$m FAILED"; failed=1; }
    grep -E "^done|node trace" "$out/ktimes_d3q19_aa_m$m.log" | tail -n 3
    head -n 14 "$out/ktimes_d3q19_aa_m$m.txt"
  done
else
  echo "ktimes skipped: $ktimes not built"
fi
fi

if want tune; then
echo "== load balancer, GPU + $threads host threads"
# Issue 15 judges D3Q19 against the GPU alone with AA, and D2Q37 (two-buffer only).
want_tune() { [[ $tunes == *" $1 "* ]]; }
want_tune d2q9 && tune d2q9 inputs/09_node_cavity2d.yaml --set 'domain.size=[8192,4096]' \
  --set physics.reference_length=8192
want_tune d3q19 && tune d3q19 "${duct[@]}"
want_tune d3q19_aa && tune d3q19_aa "${duct[@]}" --set execution.streaming=aa
want_tune d2q37 && tune d2q37 inputs/11_rayleigh_taylor.yaml --set 'domain.size=[2048,4096]'
fi

if want host && [ -n "${KOLB_HOST_KOLB:-}" ]; then
echo "== host-only build on this CPU, $threads threads (the node's host part should match it)"
host_run() {  # host_run NAME CASE --set ...: one block (M = 0) on OpenMP
  local name=$1 case=$2; shift 2
  "$KOLB_HOST_KOLB" run "$root/$case" -q --threads "$threads" --set execution.host_columns=0 \
    --set output.vtk_every=0 --set output.observables_every=0 --set output.folder="$out/host_$name" "$@" \
    >"$out/host_$name.log" 2>&1 || { echo "host run $name FAILED"; failed=1; }
  echo "$name: $(grep '^done' "$out/host_$name.log")"
}
host_run d3q19 "${duct[@]}" --set run.steps=60
host_run d3q19_aa "${duct[@]}" --set run.steps=60 --set execution.streaming=aa
host_run d2q37 inputs/11_rayleigh_taylor.yaml --set 'domain.size=[2048,4096]' --set run.steps=12
# issue 16 item 3: D2Q37 against the FP64 peak measured in the same process,
# also from the host-only builds for x86-64-v4 (AVX-512: GPU nodes' Xeons
# have it, and the v3 build leaves half their FMA width) and by clang (its
# D2Q37 collision ran faster on the project's VM: docs/thermal.md) when given.
host_bench_d2q37() {  # host_bench_d2q37 NAME KOLB
  OMP_PROC_BIND=spread OMP_PLACES=cores "$2" bench "$root/perf/bench_d2q37.yaml" \
    --threads "$threads" --set 'layouts=[soa,csoa8]' --set 'kernels=[fused,collide]' \
    --set output="$out/$1" >"$out/$1.log" 2>&1 || { echo "$1 FAILED"; failed=1; }
  tail -n 8 "$out/$1.log"
}
host_bench_d2q37 host_bench_d2q37 "$KOLB_HOST_KOLB"
[ -n "${KOLB_HOST_KOLB_V4:-}" ] && host_bench_d2q37 host_v4_bench_d2q37 "$KOLB_HOST_KOLB_V4"
[ -n "${KOLB_HOST_KOLB_CLANG:-}" ] && host_bench_d2q37 host_clang_bench_d2q37 "$KOLB_HOST_KOLB_CLANG"
fi
if want runs; then
echo "== whole runs on the GPU (AA streaming, walls everywhere)"
"$kolb" run "$root/inputs/06_cavity3d_re1000.yaml" -q --set 'domain.size=[256,256,256]' \
  --set physics.reference_length=256 --set run.steps=1000 --set output.vtk_every=0 \
  --set output.observables_every=500 --set execution.streaming=aa \
  --set output.folder="$out/run_cavity3d" 2>&1 | tail -n 3 || failed=1
"$kolb" run "$root/inputs/03_cavity2d_re1000.yaml" -q --set 'domain.size=[4096,4096]' \
  --set physics.reference_length=4096 --set run.steps=1000 --set output.vtk_every=0 \
  --set output.observables_every=500 --set execution.streaming=aa \
  --set output.folder="$out/run_cavity2d" 2>&1 | tail -n 3 || failed=1
rm -f "$out"/run_cavity*/*.vti  # GB-sized fields: keep the reports and observables
fi
exit $failed
