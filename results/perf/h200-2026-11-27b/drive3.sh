#!/usr/bin/env bash
# Second lent call of 2026-11-27: node steps traced phase by phase
# (KOLB_NODE_TRACE) on D2Q37 and D3Q19 AA at several splits and thread
# placements. Usage: bash .gpu/drive3.sh ARCHIVE OUT
set -u
source "$(dirname "${BASH_SOURCE[0]}")/drive_lib.sh"
rt=(inputs/11_rayleigh_taylor.yaml --threads 16 --set 'domain.size=[2048,4096]' --set run.steps=100)
duct=(inputs/10_node_duct3d.yaml --threads 16 --set 'domain.size=[512,128,128]'
  --set 'obstacles=[{type: sphere, center: [128, 64, 64], radius: 16}]' --set run.steps=200)
{ date -u; nvidia-smi -L; } > "$o/machine.txt"
for m in 1 2 4; do run d3q19_aa_m$m $g OMP_PROC_BIND=false -- "${duct[@]}" --set execution.streaming=aa --set execution.host_columns=$m; done
run d3q19_aa_m0 $g OMP_PROC_BIND=false -- "${duct[@]}" --set execution.streaming=aa --set execution.host_columns=0
run d3q19_tb_m2 $g OMP_PROC_BIND=false -- "${duct[@]}" --set execution.host_columns=2
for m in 0 6 32 64 128 262; do run d2q37_m$m $g OMP_PROC_BIND=false -- "${rt[@]}" --set execution.host_columns=$m; done
for m in 64 128; do run d2q37_m${m}_spread $g OMP_PROC_BIND=spread OMP_PLACES=threads -- "${rt[@]}" --set execution.host_columns=$m; done
run d2q37_m64_t15 $g OMP_PROC_BIND=false -- inputs/11_rayleigh_taylor.yaml --threads 15 \
  --set 'domain.size=[2048,4096]' --set run.steps=100 --set execution.host_columns=64
run d2q37_m6_spread $g OMP_PROC_BIND=spread OMP_PLACES=threads -- "${rt[@]}" --set execution.host_columns=6
