#!/bin/bash
# The CPU pair (node at the tuned split) against one block on both cores,
# interleaved rounds; "steps alone" MLUPS of kolb run. From the repository
# root: K=build/bin/kolb results/tune/runs/xeon-2026-11-29/pair-vs-block.sh
K=${K:-build/bin/kolb}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
CAV1=$tmp/cavity_one_block.yaml DUCT1=$tmp/duct_one_block.yaml
grep -v host_columns inputs/09_node_cavity2d.yaml > "$CAV1"
grep -v host_columns inputs/10_node_duct3d.yaml > "$DUCT1"
export OMP_PROC_BIND=spread OMP_PLACES=threads
one() {  # label input steps extra...
  local l=$1 f=$2 n=$3; shift 3
  local m=$($K run $f --set run.steps=$n --set output.folder="$tmp/out" --set output.observables_every=0 --set output.vtk_every=0 "$@" 2>&1 | sed -n 's/.*the steps alone \([0-9.]*\) MLUPS.*/\1/p')
  printf '%s %s  ' "$l" "$m"
}
for r in 1 2 3; do
  echo -n "r$r: "
  one d2q9-aa-block "$CAV1" 2000 --set execution.streaming=aa
  one d2q9-aa-M247 inputs/09_node_cavity2d.yaml 2000 --set execution.streaming=aa --set execution.host_columns=247 --set execution.rebalance=0
  one d2q9-2buf-block "$CAV1" 1000
  one d2q9-2buf-M246 inputs/09_node_cavity2d.yaml 1000 --set execution.host_columns=246 --set execution.rebalance=0
  one d3q19-aa-block "$DUCT1" 200 --set execution.streaming=aa
  one d3q19-aa-M22 inputs/10_node_duct3d.yaml 200 --set execution.streaming=aa --set execution.host_columns=22 --set execution.rebalance=0
  one d3q19-2buf-block "$DUCT1" 100
  one d3q19-2buf-M24 inputs/10_node_duct3d.yaml 100 --set execution.host_columns=24 --set execution.rebalance=0
  echo
done
