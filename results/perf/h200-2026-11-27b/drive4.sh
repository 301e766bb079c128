#!/usr/bin/env bash
# Third lent call of 2026-11-27: what makes thin host parts slow on the GPU
# node: OpenMP's wait policy (KOLB_NODE_TRACE per phase), thread count and
# placement, and the host-only build on one block of a host part's size.
# Usage: bash .gpu/drive4.sh ARCHIVE OUT
set -u
source "$(dirname "${BASH_SOURCE[0]}")/drive_lib.sh"
rt() { echo inputs/11_rayleigh_taylor.yaml --threads "$1" --set "domain.size=[2048,$2]" --set run.steps="$3"; }
duct=(inputs/10_node_duct3d.yaml --threads 16 --set 'domain.size=[512,128,128]'
  --set 'obstacles=[{type: sphere, center: [128, 64, 64], radius: 16}]' --set run.steps=200)
{ date -u; lscpu; grep -E "MemTotal|Huge" /proc/meminfo; cat /sys/kernel/mm/transparent_hugepage/enabled; } > "$o/machine.txt" 2>&1
for m in 1 2; do run d3q19_aa_m${m}_active $g OMP_PROC_BIND=false OMP_WAIT_POLICY=active -- "${duct[@]}" --set execution.streaming=aa --set execution.host_columns=$m; done
for m in 6 64 128; do run d2q37_m${m}_active $g OMP_PROC_BIND=false OMP_WAIT_POLICY=active -- $(rt 16 4096 100) --set execution.host_columns=$m; done
run d2q37_m128_t8 $g OMP_PROC_BIND=false -- $(rt 8 4096 100) --set execution.host_columns=128
run d2q37_m64_close $g OMP_PROC_BIND=close OMP_PLACES=cores -- $(rt 16 4096 100) --set execution.host_columns=64
# The host-only build on one block of a host part's size (walls at both ends).
for ny in 70 134 268; do run host_ny${ny}_t16 $h OMP_PROC_BIND=false -- $(rt 16 $ny 200) --set execution.host_columns=0; done
run host_ny134_t16_spread $h OMP_PROC_BIND=spread OMP_PLACES=threads -- $(rt 16 134 200) --set execution.host_columns=0
run host_ny134_t8 $h OMP_PROC_BIND=false -- $(rt 8 134 200) --set execution.host_columns=0
run host_ny4096_t16 $h OMP_PROC_BIND=false -- $(rt 16 4096 12) --set execution.host_columns=0
