#!/usr/bin/env bash
# Same D3Q19 lattice, same 2 cores: 1 rank x 2 OpenMP threads against 2 MPI
# ranks x 1 thread (1-D slabs along x, along z, and the tiling `auto`
# picks), runs interleaved.
#   perf/mpi/ranks_vs_threads.sh [KOLB] [OUT] [REPEATS]
# Writes OUT/ranks_vs_threads.csv and prints the medians.
set -euo pipefail
DEFAULT_REPEATS=5
# shellcheck source=perf/mpi/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
case_args=(run "$root/inputs/07_taylor_green3d.yaml" --set "domain.size=[128,96,96]"
  --set run.steps=100 --set output.vtk_every=0 --set output.observables_every=0 -q)
csv=$out/ranks_vs_threads.csv
echo "repeat,config,ranks,threads,tiling,mlups" >"$csv"
mlups() { report_field "$1" 'r["performance"]["mlups"]'; }
for r in $(seq "$repeats"); do
  OMP_NUM_THREADS=2 "$kolb" "${case_args[@]}" --set output.folder="$out/tmp1" >/dev/null
  echo "$r,1 rank x 2 threads,1,2,1x1x1,$(mlups "$out/tmp1/report.json")" >>"$csv"
  for tiling in 1d "[1,1,2]" auto; do
    mpiexec -n 2 --bind-to core -x OMP_NUM_THREADS=1 "$kolb" "${case_args[@]}" \
      --set output.folder="$out/tmp2" --set "execution.decomposition=$tiling" >/dev/null
    t=$(report_field "$out/tmp2/report.json" 'r["execution"]["mpi"]["tiling"]')
    [ "$tiling" = auto ] && t="auto:$t"
    echo "$r,2 ranks x 1 thread,2,1,$t,$(mlups "$out/tmp2/report.json")" >>"$csv"
  done
done
rm -rf "$out/tmp1" "$out/tmp2"
python3 - "$csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
groups = {}
for r in rows:
    groups.setdefault((r["config"], r["tiling"]), []).append(float(r["mlups"]))
base = statistics.median(groups[("1 rank x 2 threads", "1x1x1")])
for (config, tiling), v in groups.items():
    m = statistics.median(v)
    print(f"{config:20s} {tiling:7s} median {m:7.2f} MLUPS  (min {min(v):.2f}, max {max(v):.2f})  {100*m/base:6.1f} % of 1 rank x 2 threads")
PY
