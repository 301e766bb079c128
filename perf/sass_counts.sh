#!/usr/bin/env bash
# What the device code of kolb's site kernels costs, read from a CUDA object
# or binary without a GPU: for each split-launch kernel (FlatSplitLoop) the
# SASS instructions, how many come before its first global load, the
# integer ones (address and index arithmetic), and its registers.
#   perf/sass_counts.sh build-cuda/src/CMakeFiles/kolb.dir/variants/part_D3Q19_float_SoA_bgk_device.cpp.o
# Columns: instructions (NOPs left out), first LDG, integer, registers, the
# launch (Kokkos' or kolb's own, KOLB_GPU_BLOCK), the kernel (functor,
# forced model 1/0, bulk pass 1 or general pass 0). Needs cuobjdump and
# cu++filt (CUDA 11.8: ci/lib.sh kolb_cuda_env).
set -euo pipefail
object=${1:?usage: perf/sass_counts.sh CUDA_OBJECT}
sass=$(mktemp)
trap 'rm -f "$sass"' EXIT
cuobjdump -sass "$object" >"$sass"
declare -A regs
while read -r r fn; do regs[$fn]=$r; done < <(cuobjdump --dump-resource-usage "$object" |
  awk '/Function/{fn=$2; sub(/:$/, "", fn)} /REG:/{match($0, /REG:[0-9]+/); print substr($0, RSTART + 4, RLENGTH - 4), fn}')
printf '%6s %6s %6s %5s  %-6s %s\n' instr 1st-LDG int regs launch kernel
grep -n 'Function : ' "$sass" | while IFS= read -r line; do
  n=${line%%:*}
  mangled=${line##*Function : }
  name=$(cu++filt <<<"$mangled")
  [[ $name == *FlatSplitLoop* ]] || continue
  short=$(grep -o 'FlatSplitLoop<kolb::[A-Za-z]*<.*Space, (bool)[01]>' <<<"$name" |
    sed -E 's/kolb::|Kokkos::|impl:://g; s/<(D2Q9|D3Q19|D2Q37), /<\1 /; s/\(bool\)//g' || true)
  launch=kokkos
  [[ $name == *for_each_index_kernel* ]] && launch=own
  body=$(awk -v s="$n" 'NR > s && /Function :/ {exit} NR > s' "$sass" | grep -E '^\s+/\*[0-9a-f]{4}\*/' |
    sed -E 's/^\s+\/\*[0-9a-f]+\*\/\s+//; s/ +\/\*.*//' | grep -v '^NOP')
  total=$(wc -l <<<"$body")
  first=$(awk '/LDG/ {print NR; exit}' <<<"$body")
  integer=$(grep -cE '^(@!?U?P[0-9T] +)?U?(IMAD|IADD3|LEA|SHF|LOP3|ISETP|SEL|IABS|I2F|F2I|PRMT|IMNMX)' <<<"$body" || true)
  printf '%6s %6s %6s %5s  %-6s %s\n' "$total" "${first:--}" "$integer" "${regs[$mangled]:-?}" "$launch" "$short"
done
