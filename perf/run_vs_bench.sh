#!/usr/bin/env bash
# Whole runs against the bench: `kolb run` of a case against `kolb bench` of
# the same variant (D3Q19, FP64, SoA) and size (a periodic box, its periodic
# halos filled every step as a run fills them), for two-buffer (bench row
# `fused`) and AA streaming. The bench row (the median of its repeats) is
# taken right before and right after each run and the run is judged against
# their mean, so that a drift of the machine's memory bandwidth during the
# run is shared. CASE:
#  - cavity: the 3-D cavity (walls on every face, a moving lid), 128^3 and
#    160^3 (issue 16 item 6);
#  - duct: the 3-D duct with a velocity inlet, a pressure outlet and walls
#    (inputs/15_duct3d_inlet_outlet.yaml), 128x64x64 and 256x64x64.
#
#   perf/run_vs_bench.sh [KOLB] [OUT] [REPEATS] [STEPS] [CASE]
#
# Writes OUT/run_vs_bench.csv: per repeat, size and scheme, the bench MLUPS
# (before, after, mean), the run's time loop and steps alone, and
# loop / (steps x sites / bench mean), the bench's MLUPS over the run's;
# then the median of that ratio per case.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
kolb=${1:-$root/build/bin/kolb}
out=${2:-$root/out/run_vs_bench}
repeats=${3:-3}
steps=${4:-200}
case=${5:-cavity}
case $case in
  cavity) input=$root/inputs/06_cavity3d_re1000.yaml sizes="128,128,128 160,160,160" ;;
  duct) input=$root/inputs/15_duct3d_inlet_outlet.yaml sizes="128,64,64 256,64,64" ;;
  *) echo "run_vs_bench.sh: CASE is cavity or duct, not '$case'" >&2; exit 2 ;;
esac
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=perf/lib.sh
source "$root/perf/lib.sh"

# The row of $work/bench.yaml (written below for each case).
bench_row() {
  "$kolb" bench "$work/bench.yaml" >/dev/null 2>&1
  report_field "$work/bench/bench.json" 'r["rows"][0]["mlups"]'
}

csv="$out/run_vs_bench.csv"
echo "repeat,size,streaming,bench_before,bench_after,bench_mlups,loop_seconds,step_seconds,loop_mlups,solver_mlups,loop_over_bench" >"$csv"
for r in $(seq 1 "$repeats"); do
  for size in $sizes; do
    sites=$(( ${size//,/*} ))
    for scheme in two_buffer aa; do
      kernel=$([ "$scheme" = aa ] && echo aa || echo fused)
      cat >"$work/bench.yaml" <<EOF
lattices: [D3Q19]
precisions: [double]
layouts: [soa]
kernels: [$kernel]
size: {D3Q19: [$size]}
steps: 10
repeats: 3
triad_megabytes: 64
output: $work/bench
EOF
      before=$(bench_row)
      # A fresh folder each time, as a first run has: replacing the last
      # run's final snapshot (135 MB at 160^3) cost ~0.08 s more on ext4.
      rm -rf "$work/run"
      extra=()
      [ "$case" = cavity ] && extra=(--set "physics.reference_length=${size%%,*}")
      "$kolb" run "$input" --set "domain.size=[$size]" ${extra[@]+"${extra[@]}"} \
        --set run.steps="$steps" --set output.vtk_every=0 \
        --set output.observables_every=0 --set execution.streaming=$scheme \
        --set output.folder="$work/run" >/dev/null 2>&1
      after=$(bench_row)
      bench=$(python3 -c "print(($before + $after) / 2)")
      rep="$work/run/report.json"
      loop=$(report_field "$rep" 'r["performance"]["loop_seconds"]')
      step=$(report_field "$rep" 'r["performance"]["solver_seconds"]')
      lm=$(report_field "$rep" 'r["performance"]["mlups"]')
      sm=$(report_field "$rep" 'r["performance"]["solver_mlups"]')
      ratio=$(python3 -c "print(round($loop / ($steps * $sites / ($bench * 1e6)), 3))")
      echo "$r,${size//,/x},$scheme,$before,$after,$bench,$loop,$step,$lm,$sm,$ratio" | tee -a "$csv"
    done
  done
done
echo "wrote $csv"
python3 - "$csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for case in sorted({(r["size"], r["streaming"]) for r in rows}):
    ratios = [float(r["loop_over_bench"]) for r in rows if (r["size"], r["streaming"]) == case]
    print(f"{case[0]} {case[1]:10s} loop / bench: median {statistics.median(ratios):.3f} "
          f"of {len(ratios)} ({', '.join(f'{x:.3f}' for x in ratios)})")
PY
