#!/usr/bin/env bash
# Whole runs against the bench (issue 16 item 6): `kolb run` on the 3-D
# cavity (walls on every face, a moving lid, FP64, SoA) against `kolb bench`
# of the same variant and size (a periodic box, its periodic halos filled
# every step as a run fills them), for two-buffer (bench row `fused`) and AA
# streaming. The bench row (the median of its repeats) is taken right before
# and right after each run and the run is judged against their mean, so that
# a drift of the machine's memory bandwidth during the run is shared.
#
#   perf/run_vs_bench.sh [KOLB] [OUT] [REPEATS] [STEPS]
#
# Writes OUT/run_vs_bench.csv: per repeat, size and scheme, the bench MLUPS
# (before, after, mean), the run's time loop and steps alone, and
# loop / (steps x sites / bench mean); then the median of that ratio per case.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
kolb=${1:-$root/build/bin/kolb}
out=${2:-$root/out/run_vs_bench}
repeats=${3:-3}
steps=${4:-200}
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
  for n in 128 160; do
    for scheme in two_buffer aa; do
      kernel=$([ "$scheme" = aa ] && echo aa || echo fused)
      cat >"$work/bench.yaml" <<EOF
lattices: [D3Q19]
precisions: [double]
layouts: [soa]
kernels: [$kernel]
size: {D3Q19: [$n, $n, $n]}
steps: 10
repeats: 3
triad_megabytes: 64
output: $work/bench
EOF
      before=$(bench_row)
      # A fresh folder each time, as a first run has: replacing the last
      # run's final snapshot (135 MB at 160^3) cost ~0.08 s more on ext4.
      rm -rf "$work/run"
      "$kolb" run "$root/inputs/06_cavity3d_re1000.yaml" --set "domain.size=[$n,$n,$n]" \
        --set physics.reference_length=$n --set run.steps="$steps" --set output.vtk_every=0 \
        --set output.observables_every=0 --set execution.streaming=$scheme \
        --set output.folder="$work/run" >/dev/null 2>&1
      after=$(bench_row)
      bench=$(python3 -c "print(($before + $after) / 2)")
      rep="$work/run/report.json"
      loop=$(report_field "$rep" 'r["performance"]["loop_seconds"]')
      step=$(report_field "$rep" 'r["performance"]["solver_seconds"]')
      lm=$(report_field "$rep" 'r["performance"]["mlups"]')
      sm=$(report_field "$rep" 'r["performance"]["solver_mlups"]')
      ratio=$(python3 -c "print(round($loop / ($steps * $n**3 / ($bench * 1e6)), 3))")
      echo "$r,$n,$scheme,$before,$after,$bench,$loop,$step,$lm,$sm,$ratio" | tee -a "$csv"
    done
  done
done
echo "wrote $csv"
python3 - "$csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for case in sorted({(int(r["size"]), r["streaming"]) for r in rows}):
    ratios = [float(r["loop_over_bench"]) for r in rows if (int(r["size"]), r["streaming"]) == case]
    print(f"{case[0]}^3 {case[1]:10s} loop / bench: median {statistics.median(ratios):.3f} "
          f"of {len(ratios)} ({', '.join(f'{x:.3f}' for x in ratios)})")
PY
