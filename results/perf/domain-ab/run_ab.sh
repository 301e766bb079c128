#!/bin/bash
# How the before/after tables of docs/performance.md ("Before and after the
# Domain restructuring") were measured: /tmp/kolb_old is `kolb` built at
# 8a4f4b2 (the commit before it, -DKOLB_LATTICES="D2Q9;D3Q19", all layouts),
# /tmp/kolb_new the restructured build with -DKOLB_ALL_VARIANTS=ON; both run
# perf/bench.yaml one lattice and precision at a time, old then new.
cd "$(dirname "$0")/../../.."
out=${1:-/tmp/ab}
mkdir -p "$out"
for l in D2Q9 D3Q19; do
  for p in double float; do
    for v in old new; do
      start=$(date +%s)
      /tmp/kolb_$v bench perf/bench.yaml --set "lattices=[$l]" --set "precisions=[$p]" \
        --set output="$out/${v}_${l}_${p}" > "$out/${v}_${l}_${p}.log" 2>&1
      echo "$v $l $p: $(( $(date +%s) - start )) s" >> "$out/times.txt"
    done
  done
done
