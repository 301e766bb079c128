#!/usr/bin/env bash
# Fourth lent call of 2026-11-27: D2Q37 host rows by lines or plain stores
# on the Xeon (its L3 reads 300 MiB: plain stores below 0.75 of it), the
# host-only build and the node's host parts, then the node tune with the
# rule's cache capped at 32 MiB (KOLB_LLC_BYTES). Usage: bash .gpu/drive5.sh ARCHIVE OUT
set -u
source "$(dirname "${BASH_SOURCE[0]}")/drive_lib.sh"
export OMP_PROC_BIND=false
run_timeout=40 trace_lines=1
rt() { echo inputs/11_rayleigh_taylor.yaml --threads 16 --set "domain.size=[2048,$1]" --set run.steps="$2"; }
for ny in 38 70 134; do
  run host_ny${ny}_plain $h X=1 -- $(rt $ny 200) --set execution.host_columns=0
  run host_ny${ny}_lines $h KOLB_LLC_BYTES=0 -- $(rt $ny 200) --set execution.host_columns=0
done
for m in 64 128; do run d2q37_m${m}_llc32 $g KOLB_LLC_BYTES=32MiB -- $(rt 4096 100) --set execution.host_columns=$m; done
t0=$SECONDS
KOLB_NODE_TRACE=0 KOLB_LLC_BYTES=32MiB timeout 100 "$g" tune inputs/11_rayleigh_taylor.yaml --threads 16 \
  --sweep 2 --repeats 1 --seconds 0.1 --set 'domain.size=[2048,4096]' \
  --set output.folder="$o/tune_d2q37_llc32" >"$o/tune_d2q37_llc32.log" 2>&1
echo "tune ($((SECONDS - t0)) s)"; grep -vE "^\s*$" "$o/tune_d2q37_llc32.log" | tail -n 26
rm -f "$o"/tune_d2q37_llc32/*.vti
