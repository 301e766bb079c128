#!/usr/bin/env bash
# Fused rows plain (KOLB_LLC_BYTES=1 TiB: every row "near the cache") and by
# lines (KOLB_LLC_BYTES=0) at sizes around the last-level cache, two rounds.
#   bash lines_or_plain.sh KOLB_D2Q37 KOLB_ALL OUT_FILE
# KOLB_D2Q37: a D2Q37 build, KOLB_ALL: a build with D2Q9 and D3Q19.
set -u
k37=$1 kall=$2 out=$3
root=$(cd "$(dirname "$0")/../../../.." && pwd)
tmp=$(mktemp -d)
row() {  # kolb yaml lattice size
  local line="$2 $3:"
  for mode in plain:1099511627776 lines:0; do
    KOLB_LLC_BYTES=${mode#*:} "$1" bench "$root/perf/$4" --set "lattices=[$2]" --set "layouts=[soa,csoa8]" \
      --set "kernels=[fused]" --set "precisions=[double]" --set "size.$2=[$3]" --set steps=20 --set repeats=3 \
      --set triad_megabytes=256 --set output="$tmp" >"$tmp/log" 2>&1
    line="$line  ${mode%%:*} $(grep "^$2 " "$tmp/log" | awk '{printf "%s ", $5}')"
  done
  echo "$line"
}
{
  echo "# lattice size: plain soa csoa8  lines soa csoa8 (fused MLUPS, medians of 3 x 20 steps)"
  for round in 1 2; do
    echo "# round $round"
    for s in 128,128 160,160 192,192 224,224 160,320 256,256; do row "$k37" D2Q37 $s bench_d2q37.yaml; done
    for s in 320,320 448,448 512,512; do row "$kall" D2Q9 $s bench.yaml; done
    for s in 40,40,40 46,46,46 52,52,52; do row "$kall" D3Q19 $s bench.yaml; done
  done
} >"$out"
rm -rf "$tmp"
