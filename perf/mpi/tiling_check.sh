#!/usr/bin/env bash
# A 2-D case on 4 ranks: every tiling (4x1, 2x2, 1x4) and the one `auto`
# picks, runs interleaved; is auto's choice the measured best or within 5 %?
#   perf/mpi/tiling_check.sh [KOLB] [OUT] [REPEATS] [SIZE]
# On a machine with fewer than 4 cores the ranks are oversubscribed.
set -euo pipefail
DEFAULT_REPEATS=5
# shellcheck source=perf/mpi/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
size=${4:-[1024,1024]}
args=(run "$root/inputs/01_cavity2d_re100.yaml" --set "domain.size=$size" --set run.steps=400
  --set output.vtk_every=0 --set output.observables_every=0 -q)
csv=$out/tiling_check.csv
echo "repeat,requested,tiling,mlups" >"$csv"
to_list() { [ "$1" = auto ] && echo auto || echo "[${1/x/,}]"; }
for r in $(seq "$repeats"); do
  for tiling in 4x1 2x2 1x4 auto; do
    mpiexec -n 4 --oversubscribe --bind-to none -x OMP_NUM_THREADS=1 "$kolb" "${args[@]}" \
      --set output.folder="$out/tmp" --set "execution.decomposition=$(to_list "$tiling")" \
      >"$out/tmp.log" 2>/dev/null
    t=$(report_field "$out/tmp/report.json" 'r["execution"]["mpi"]["tiling"]')
    echo "$r,$tiling,$t,$(report_field "$out/tmp/report.json" 'r["performance"]["mlups"]')" >>"$csv"
  done
done
grep -E "tiling|analytic" "$out/tmp.log" || true
rm -rf "$out/tmp" "$out/tmp.log"
python3 - "$csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
med = {}
for req in ["4x1", "2x2", "1x4", "auto"]:
    v = [float(r["mlups"]) for r in rows if r["requested"] == req]
    med[req] = statistics.median(v)
    picked = {r["tiling"] for r in rows if r["requested"] == req}
    print(f"{req:6s} -> {','.join(sorted(picked)):5s} median {med[req]:8.2f} MLUPS (min {min(v):.2f}, max {max(v):.2f})")
best = max(v for k, v in med.items() if k != "auto")
print(f"auto: {100 * med['auto'] / best:.1f} % of the best fixed tiling "
      f"({'within 5 %' if med['auto'] >= 0.95 * best else 'NOT within 5 %'})")
PY
