#!/usr/bin/env bash
# kolb run under mpiexec: outputs of a tiled run (one .vti piece per rank, a
# .pvti index, rank 0's report), the same observables as one rank, and
# errors: a tiling the ranks cannot make is one clear message and exit 2; a
# rank that fails ends every rank within seconds, keeping what was written.
#   test_mpi_cli.sh KOLB_BINARY SOURCE_DIR WORK_DIR
set -u
kolb=$1 src=$2 work=$3
# shellcheck source=tests/cli/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
mpi() { local n=$1; shift; timeout 120 mpiexec -n "$n" --oversubscribe "$@"; }
cavity=(run "$src/inputs/01_cavity2d_re100.yaml" --set "domain.size=[40,36]"
  --set physics.reference_length=40 --set run.steps=200 --set output.vtk_every=100
  --set output.observables_every=50)

# 1. A 2x2 tiled cavity against one rank.
expect_rc 0 "one rank" -- "$kolb" "${cavity[@]}" --set output.folder=one
expect_rc 0 "four ranks, 2x2 tiles" -- mpi 4 "$kolb" "${cavity[@]}" --set output.folder=four \
  --set "execution.decomposition=[2,2]"
[ "$(grep -c MLUPS out.txt)" -ge 1 ] && ! grep -q "rank 1" out.txt && ok "rank 0 alone prints" \
  || fail "progress not from rank 0 alone"
[ -f four/fields_000000200.pvti ] && ok ".pvti index" || fail "no .pvti"
[ "$(ls four/fields_000000200/ | wc -l)" = 4 ] && ok "one piece per rank" || fail "pieces: $(ls four/fields_000000200/)"
grep -q 'Piece Extent="0 20 0 18 0 0" Source="fields_000000200/rank_00000.vti"' four/fields_000000200.pvti \
  && ok "pieces overlap by one point" || fail "piece extents: $(grep Piece four/fields_000000200.pvti)"
grep -q "fields_000000200.pvti" four/fields.pvd && ok ".pvd lists the .pvti" || fail ".pvd"
python3 - one four <<'PY' && ok "report and observables as one rank" || fail "report/observables differ"
import csv, json, sys
one, four = (json.load(open(d + "/report.json")) for d in sys.argv[1:])
m = four["execution"]["mpi"]
assert (m["ranks"], m["tiling"], m["tiling_by_model"]) == (4, "2x2", False), m
a, b = one["final_observables"], four["final_observables"]
assert a["max_speed"] == b["max_speed"], (a, b)
assert abs(a["mass"] - b["mass"]) <= 1e-12 * a["mass"], (a, b)
rows = [list(csv.reader(open(d + "/observables.csv"))) for d in sys.argv[1:]]
assert len(rows[0]) == len(rows[1]) == 6, rows
PY
# The tools read a tiled run's .pvti and its pieces: the cylinder's dp
# and L_a on 2x2 tiles are one rank's, to the digits printed.
cyl=(run "$src/inputs/16_cylinder_forces.yaml" --set "domain.size=[110,82]" --set run.steps=300
  --set output.vtk_every=300)
expect_rc 0 "cylinder, one rank" -- "$kolb" "${cyl[@]}" --set output.folder=cyl_one
expect_rc 0 "cylinder, 2x2 tiles" -- mpi 4 "$kolb" "${cyl[@]}" --set output.folder=cyl_four \
  --set "execution.decomposition=[2,2]"
metrics=(--center 40 40 --diameter 20 --velocity 0.05 --physical-velocity 0.2)
python3 "$src/tools/cylinder_metrics.py" cyl_one/fields_000000300.vti "${metrics[@]}" > m_one.txt \
  && python3 "$src/tools/cylinder_metrics.py" cyl_four/fields_000000300.pvti "${metrics[@]}" > m_four.txt \
  && grep -q "^dp " m_four.txt && cmp -s m_one.txt m_four.txt && ok "cylinder metrics from a .pvti" \
  || { fail "cylinder metrics from a .pvti"; cat m_one.txt m_four.txt; }
python3 - "$src/tools" <<'PY' && ok "every field of the .pvti as one rank's" || fail ".pvti fields"
import sys
sys.path.insert(0, sys.argv[1])
from plot_field import read_field
for name in ("density", "velocity", "solid"):
    a = read_field("cyl_one/fields_000000300.vti", name)
    b = read_field("cyl_four/fields_000000300.pvti", name)
    assert a[:3] == b[:3] and list(a[3]) == list(b[3]), name
PY

# 2. kolb tune on each rank's node: one tiling, the host side's MPI time as T_mpi.
expect_rc 0 "tune per rank" -- mpi 2 "$kolb" tune "$src/inputs/09_node_cavity2d.yaml" \
  --set "domain.size=[256,64]" --set execution.decomposition=1d --set output.folder=tune \
  --seconds 0.02 --repeats 1
python3 - tune/tune.json <<'PY' && ok "tune.json: tiling, columns of a tile, T_mpi" || fail "tune.json"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["tiling"] == "2x1" and j["columns"] == 128, (j["tiling"], j["columns"])
assert j["model_concurrent"]["mpi_s"] > 0, j["model_concurrent"]
PY
[ "$(grep -c '^model: M\*' out.txt)" = 1 ] && ok "rank 0 alone reports the tuning" || fail "tune report"

# 3. Tilings the ranks cannot make: one message from rank 0, exit 2.
expect_rc 2 "tiling needs 4 ranks, job has 3" -- mpi 3 "$kolb" "${cavity[@]}" \
  --set output.folder=bad --set "execution.decomposition=[2,2]"
grep -q "execution.decomposition: tiling 2x2 needs 4 MPI ranks, the job has 3" err.txt \
  && [ "$(grep -c 'kolb: error' err.txt)" = 1 ] && ok "one clear message" || { fail "message"; cat err.txt; }
expect_rc 2 "tiles thinner than the halo" -- mpi 4 "$kolb" "${cavity[@]}" \
  --set output.folder=bad --set "domain.size=[3,36]" --set execution.decomposition=1d
grep -q "fewer than the halo width" err.txt && ok "halo named" || { fail "halo message"; cat err.txt; }
expect_rc 2 "aa streaming on y tiles" -- mpi 2 "$kolb" "${cavity[@]}" \
  --set output.folder=bad --set execution.streaming=aa --set "execution.decomposition=[1,2]"
grep -q "slabs along x only" err.txt && ok "aa tiling named" || { fail "aa message"; cat err.txt; }
# In place on slabs along x: the same fields as one rank.
expect_rc 0 "aa one rank" -- "$kolb" "${cavity[@]}" --set output.folder=aa1 --set execution.streaming=aa
expect_rc 0 "aa on 2 slabs" -- mpi 2 "$kolb" "${cavity[@]}" --set output.folder=aa2 \
  --set execution.streaming=aa
python3 - aa1 aa2 <<'PY' && ok "aa slabs as one rank" || fail "aa slabs differ"
import json, sys
one, two = (json.load(open(d + "/report.json")) for d in sys.argv[1:])
assert two["execution"]["mpi"]["tiling"] == "2x1", two["execution"]["mpi"]
a, b = one["final_observables"], two["final_observables"]
assert a["max_speed"] == b["max_speed"], (a, b)
assert abs(a["mass"] - b["mass"]) <= 1e-12 * a["mass"], (a, b)
PY

# 4. One rank fails (its piece cannot be written): every rank ends, fast.
mkdir -p fail/fields_000000100/rank_00001.vti.tmp
start=$(date +%s)
mpi 2 "$kolb" "${cavity[@]}" --set output.folder=fail --set "execution.decomposition=[2,1]" \
  >out.txt 2>err.txt
rc=$? took=$(( $(date +%s) - start ))
[ "$rc" != 0 ] && [ "$rc" != 124 ] && [ "$took" -lt 60 ] && ok "failing rank ends the job (exit $rc, $took s)" \
  || fail "failing rank: exit $rc after $took s"
grep -q "rank 1 of 2: cannot write" err.txt && ok "the failing rank says why" || { fail "message"; cat err.txt; }
[ -f fail/fields_000000000.pvti ] && [ -f fail/observables.csv ] && ok "earlier outputs kept" \
  || fail "earlier outputs lost"

# 5. Checkpoints across rank counts: 1 rank to step 100, 4 ranks (2x2) to
#    150, 3 ranks (slabs) to 200 give the 1-rank state at 200 bit for bit.
ck=(--set output.observables_every=0 --set output.vtk_every=0)
expect_rc 0 "straight, one rank" -- "$kolb" "${cavity[@]}" "${ck[@]}" --set output.folder=ck1 \
  --set output.checkpoint.every=200
expect_rc 0 "first 100 steps, one rank" -- "$kolb" "${cavity[@]}" "${ck[@]}" --set output.folder=ckn \
  --set run.steps=100 --set output.checkpoint.every=100
expect_rc 0 "on to 150, four ranks" -- mpi 4 "$kolb" "${cavity[@]}" "${ck[@]}" --set output.folder=ckn \
  --set run.steps=150 --set output.checkpoint.every=50 --set "execution.decomposition=[2,2]" --restart ckn
expect_rc 0 "on to 200, three ranks" -- mpi 3 "$kolb" "${cavity[@]}" "${ck[@]}" --set output.folder=ckn \
  --set output.checkpoint.every=50 --set execution.decomposition=1d --restart ckn
python3 - ck1/checkpoints/step_000000200 ckn/checkpoints/step_000000200 <<'PY' \
  && ok "1 -> 4 -> 3 ranks bit for bit" || fail "restarts across rank counts differ"
import array, json, sys
def whole(d):
    m = json.load(open(d + "/manifest.json"))
    q, (nx, ny, nz) = m["q"], m["size"]
    out = array.array("d", bytes(8 * q * nx * ny * nz))
    for r in range(m["pieces"]):
        p = json.load(open(f"{d}/rank_{r:05d}.json"))
        data = array.array("d", open(f"{d}/rank_{r:05d}.bin", "rb").read())
        (ox, oy, oz), (sx, sy, sz) = p["offset"], p["size"]
        for z in range(sz):
            for y in range(sy):
                src = ((z * sy + y) * sx) * q
                dst = (((oz + z) * ny + oy + y) * nx + ox) * q
                out[dst:dst + sx * q] = data[src:src + sx * q]
    return m["pieces"], out
(n1, a), (n3, b) = whole(sys.argv[1]), whole(sys.argv[2])
assert (n1, n3) == (1, 3), (n1, n3)
assert a.tobytes() == b.tobytes()
PY

# 6. run.until_steady under MPI: the norms are global, the stop the same.
steady=(--set output.observables_every=0 --set output.vtk_every=0 --set run.steps=100000
  --set "run.until_steady={tolerance: 1.0e-5, every: 100}")
expect_rc 0 "steady, one rank" -- "$kolb" "${cavity[@]}" "${steady[@]}" --set output.folder=st1
expect_rc 0 "steady, two ranks" -- mpi 2 "$kolb" "${cavity[@]}" "${steady[@]}" --set output.folder=st2
python3 - st1/report.json st2/report.json <<'PY' && ok "same steady step on 1 and 2 ranks" || fail "steady under MPI"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a["status"] == b["status"] == "steady", (a["status"], b["status"])
assert a["run"]["steady"]["step"] == b["run"]["steady"]["step"] < 100000, (a["run"], b["run"])
assert abs(a["run"]["steady"]["last_change"] / b["run"]["steady"]["last_change"] - 1) < 1e-9
PY

summary
