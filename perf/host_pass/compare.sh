#!/usr/bin/env bash
# The host pass of a CUDA build against a host-only build, on one variant's
# host translation unit: which row loops gcc vectorised (-fopt-info) and how
# many packed and scalar floating-point instructions each row function has.
#   bash perf/host_pass/compare.sh CUDA_BUILD HOST_BUILD [OUT] [VARIANT]
# e.g. bash perf/host_pass/compare.sh build-cuda build out/host_pass
# (VARIANT: D3Q19_double_SoA_bgk by default; the builds must hold it).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cuda=$(cd "${1:?CUDA build folder}" && pwd)
host=$(cd "${2:?host-only build folder}" && pwd)
out=${3:-$root/out/host_pass}
variant=${4:-D3Q19_double_SoA_bgk}
mkdir -p "$out"
out=$(cd "$out" && pwd)
source "$root/ci/lib.sh"
kolb_cuda_env
object=src/CMakeFiles/kolb.dir/variants/part_${variant}_host.cpp.o
compile() {  # build folder, name: the object's own command, writing elsewhere
  local cmd
  cmd=$(cd "$1" && ninja -t commands "$object" | tail -1 |
    sed "s# -MD -MT [^ ]* -MF [^ ]*##; s# -o [^ ]*# -o $out/$2.o#")
  [ "$2" = cuda ] && cmd="$cmd -Xcompiler -fopt-info-vec-optimized" || cmd="$cmd -fopt-info-vec-optimized"
  (cd "$1" && eval "$cmd") 2>&1 | grep -E "kernels/(policy|host_rows).hpp.*loop vectorized" | sed "s#^.*/include/##" |
    sort | uniq -c > "$out/$2-vectorised-loops.txt"
  echo "$2: $(awk '{ n += $1 } END { print n + 0 }' "$out/$2-vectorised-loops.txt") row loops vectorised ($out/$2-vectorised-loops.txt)"
}
compile "$cuda" cuda
compile "$host" host
python3 "$root/perf/host_pass/count_vector_ops.py" "CUDA host pass=$out/cuda.o" \
  "host-only=$out/host.o" | tee "$out/row_functions.md"
rm -f "$out/cuda.o" "$out/host.o"
