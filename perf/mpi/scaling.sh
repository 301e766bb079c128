#!/usr/bin/env bash
# Strong and weak scaling of a D2Q9 cavity over 1, 2 and 4 MPI ranks (one
# OpenMP thread each, tiling auto) and, on the same cores, 1 rank with 2 and
# 4 OpenMP threads, then the tiling model's prediction of
# the efficiency for 1 to 4096 ranks from the costs it measured, as CSV and
# PNG (perf/mpi/scaling_model.py, gnuplot).
#   perf/mpi/scaling.sh [KOLB] [OUT] [REPEATS]
# Ranks beyond the machine's cores are oversubscribed (marked in the CSV).
set -euo pipefail
DEFAULT_REPEATS=3
# shellcheck source=perf/mpi/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cores=$(nproc)
csv=$out/scaling.csv
echo "kind,ranks,size_x,size_y,repeat,tiling,mlups,step_s,predicted_step_s,site_s,latency_s,bx_Bps,by_Bps,oversubscribed" >"$csv"
run() {  # run KIND RANKS LX LY REPEAT [THREADS]: RANKS ranks x 1 thread, or 1 rank x THREADS
  local kind=$1 n=$2 lx=$3 ly=$4 r=$5 threads=${6:-1}
  local ranks=$n
  [ "$threads" -gt 1 ] && ranks=1
  mpiexec -n "$ranks" --oversubscribe --bind-to none -x OMP_NUM_THREADS="$threads" "$kolb" run \
    "$root/inputs/01_cavity2d_re100.yaml" --set "domain.size=[$lx,$ly]" --set run.steps=300 \
    --set output.vtk_every=0 --set output.observables_every=0 --set output.folder="$out/tmp" -q \
    >/dev/null 2>&1
  python3 - "$out/tmp/report.json" "$kind" "$n" "$lx" "$ly" "$r" "$cores" >>"$csv" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
kind, n, lx, ly, rep, cores = sys.argv[2:]
mpi = r["execution"].get("mpi", {"tiling": "1x1", "model": None})
m = mpi.get("model") or {}
sites = int(lx) * int(ly)
mlups = r["performance"]["mlups"]
bw = m.get("face_bandwidth_Bps", [0, 0, 0])
print(",".join(str(v) for v in [kind, n, lx, ly, rep, mpi["tiling"], mlups, sites / (mlups * 1e6),
      m.get("predicted_step_s", ""), m.get("site_seconds", ""), m.get("latency_s", ""), bw[0], bw[1],
      int(n) > int(cores)]))
PY
}
for r in $(seq "$repeats"); do
  for n in 1 2 4; do
    declare -A weak=([1]="1024 512" [2]="1024 1024" [4]="2048 1024")
    run strong "$n" 1024 1024 "$r"
    run weak "$n" ${weak[$n]} "$r"
    # The same cores as one rank's OpenMP threads: what MPI costs.
    if [ "$n" -gt 1 ]; then
      run strong_threads "$n" 1024 1024 "$r" "$n"
      run weak_threads "$n" ${weak[$n]} "$r" "$n"
    fi
  done
done
rm -rf "$out/tmp"
python3 "$root/perf/mpi/scaling_model.py" "$csv" "$out"
