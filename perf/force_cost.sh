#!/usr/bin/env bash
# What the forces on a body cost when computed every step: the 3-D duct of
# inputs/15_duct3d_inlet_outlet.yaml at 128x64x64 with a sphere (radius 8)
# in it, run with `output.forces_every: 1` and with forces only at the
# first and last step (`forces_every: 0`), alternated in rounds so that a
# shared machine's phases hit both alike, for both streaming schemes.
#
#   perf/force_cost.sh [KOLB] [ROUNDS] [STEPS]
#
# Prints per round and scheme: the loop's seconds with forces every step
# and without, their ratio - 1 (everything forces_every: 1 costs: the
# forces and the step-by-step chunks), and force_seconds / solver_seconds
# of the run with forces (the forces' rows: the evaluation, the sum over
# ranks and the CSV row, against the steps alone).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
kolb=${1:-$root/build/bin/kolb}
rounds=${2:-3}
steps=${3:-400}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# performance.KEY of the run in $work/FOLDER's report.json.
perf_of() {  # FOLDER KEY
  python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['performance'][sys.argv[2]])" \
    "$work/$1/report.json" "$2"
}

run() {  # FOLDER SCHEME EVERY
  "$kolb" run "$root/inputs/15_duct3d_inlet_outlet.yaml" -q \
    --set 'domain.size=[128,64,64]' --set run.steps="$steps" --set physics.tau=0.56 \
    --set 'obstacles=[{type: sphere, center: [40, 32, 32], radius: 8}]' \
    --set 'forces={reference_velocity: 0.05, reference_length: 16, reference_area: 201.06}' \
    --set execution.streaming="$2" --set output.forces_every="$3" \
    --set output.vtk_every=0 --set output.observables_every=0 --set output.folder="$work/$1" \
    >/dev/null
}

printf "%-10s %5s %12s %12s %10s %16s\n" scheme round "loop forces" "loop none" "extra" "force/solver"
for r in $(seq "$rounds"); do
  for scheme in two_buffer aa; do
    run with "$scheme" 1
    run without "$scheme" 0
    with=$(perf_of with loop_seconds)
    without=$(perf_of without loop_seconds)
    share=$(python3 -c "print('%.2f %%' % (100 * $(perf_of with force_seconds) / $(perf_of with solver_seconds)))")
    printf "%-10s %5s %12.3f %12.3f %9.1f%% %16s\n" "$scheme" "$r" "$with" "$without" \
      "$(python3 -c "print(100 * ($with / $without - 1))")" "$share"
  done
done
