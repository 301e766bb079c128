#!/usr/bin/env bash
# End-to-end checks of the kolb command line: outputs of a run, exit codes
# and messages for bad input and for a diverging simulation.
#   test_cli.sh KOLB_BINARY SOURCE_DIR WORK_DIR [KERNEL_TIMES_LIBRARY]
set -u
kolb=$1 src=$2 work=$3 ktimes=${4:-}
# shellcheck source=tests/cli/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# 1. A shipped case, shrunk: prints MLUPS and writes .vti, .csv, .json.
expect_rc 0 "cavity run" -- "$kolb" run "$src/inputs/01_cavity2d_re100.yaml" \
  --set domain.size=[32,32] --set physics.reference_length=32 --set run.steps=300 \
  --set output.folder=cavity --set output.vtk_every=100 --set output.observables_every=50
grep -q "MLUPS" out.txt && ok "MLUPS printed" || fail "no MLUPS in output"
[ -f cavity/fields_000000300.vti ] && ok "final .vti" || fail "no final .vti"
[ -f cavity/fields.pvd ] && ok ".pvd index" || fail "no .pvd"
[ "$(wc -l < cavity/observables.csv)" = 8 ] && ok "observables rows" || fail "observables.csv: $(wc -l < cavity/observables.csv) lines, wanted 8"
python3 - cavity/report.json <<'PY' && ok "report.json content" || fail "report.json content"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["status"] == "completed", r["status"]
assert r["performance"]["steps"] == 300 and r["performance"]["mlups"] > 0
assert r["config"]["domain"]["size"] == [32, 32]
assert r["derived"]["lattice_sites"] == 32 * 32
assert r["execution"]["execution_space"]
plan = r["execution"]["plan"]["kolb::accelerator"]
assert plan["phases"][0]["kernel"] == "stream_collide", plan
assert plan["phases"][0]["halos"]["y+"] == "wall_ghosts", plan
PY
# The forces on an obstacle: forces.csv at its own cadence (here every
# step, the observables every 100), the report's section and the plot.
expect_rc 0 "cylinder forces run" -- "$kolb" run "$src/inputs/16_cylinder_forces.yaml" \
  --set 'domain.size=[110,82]' --set run.steps=400 --set output.observables_every=100 \
  --set output.forces_every=1 --set output.folder=forces
head -1 forces/forces.csv | grep -qx "step,F0_x,F0_y,c_D0,c_L0" \
  && ok "force columns" || fail "force columns: $(head -1 forces/forces.csv)"
python3 - forces/report.json forces/forces.csv forces/observables.csv <<'PY' && ok "forces in report.json" || fail "forces in report.json"
import csv, json, sys
r = json.load(open(sys.argv[1]))
f = r["forces"][0]
rows = list(csv.DictReader(open(sys.argv[2])))
assert [int(x["step"]) for x in rows] == list(range(401)), [x["step"] for x in rows[:5]]
assert len(list(csv.DictReader(open(sys.argv[3])))) == 5
last = rows[-1]
assert f["c_D"] > 0 and abs(f["c_D"] - float(last["c_D0"])) < 1e-12, (f, last)
assert abs(f["force"][0] * 2 / (0.05 ** 2 * 20) - f["c_D"]) < 1e-12, f
assert f["second_half"]["from_step"] == 200 and isinstance(f["second_half"]["from_step"], int), f
p = r["performance"]
assert 0 < p["force_seconds"] <= p["output_seconds"], p
assert r["outputs"]["forces"] == "forces.csv", r["outputs"]
PY
if command -v gnuplot >/dev/null; then
  [ -s forces/forces.png ] && ok "forces plot" || fail "no forces.png"
fi
# Schäfer-Turek's pressure difference from the snapshot: the pressure is
# higher in front of the cylinder than behind it; a centre off the axis of
# any fluid is refused, not searched for ever.
python3 "$src/tools/cylinder_metrics.py" forces/fields_000000400.vti --center 40 40 \
  --diameter 20 --velocity 0.05 --physical-velocity 0.2 > metrics.txt \
  && awk '$1 == "dp" && $2 > 0 { ok = 1 } END { exit !ok }' metrics.txt \
  && ok "cylinder metrics" || { fail "cylinder metrics"; cat metrics.txt; }
expect_rc 1 "cylinder metrics off the lattice" -- python3 "$src/tools/cylinder_metrics.py" \
  forces/fields_000000400.vti --center 40 500 --diameter 20 --velocity 0.05 \
  --physical-velocity 0.2
# The step plan: kolb check --plan prints every part's, without running.
expect_rc 0 "check --plan" -- "$kolb" check "$src/inputs/07_taylor_green3d.yaml" --plan \
  --set execution.streaming=aa --set 'domain.size=[16,12,10]'
grep -q "part kolb::accelerator:" out.txt && grep -q "local step: aa_local; row halos all" out.txt \
  && grep -q "pull step: aa_pull" out.txt && grep -q "x- rows" out.txt \
  && ok "plan printed" || { fail "plan printed"; cat out.txt; }
expect_rc 0 "check --plan of a node" -- "$kolb" check "$src/inputs/09_node_cavity2d.yaml" --plan \
  --set execution.host_columns=4
grep -q "part kolb::host_left:" out.txt && grep -q "neighbour" out.txt \
  && ok "node plan printed" || { fail "node plan printed"; cat out.txt; }

# 2. Every shipped input is valid.
for f in "$src"/inputs/*.yaml; do
  expect_rc 0 "check $(basename "$f")" -- "$kolb" check "$f"
done

# 3. Bad input: exit code 2 and a message naming file, line, column and key.
sed 's/steps: 30000 /stpes: 30000 /' "$src/inputs/01_cavity2d_re100.yaml" > typo.yaml
expect_rc 2 "typo in a key" -- "$kolb" run typo.yaml
grep -q "typo.yaml:[0-9]*:[0-9]*: run.stpes: unknown key 'stpes'.*did you mean 'steps'" err.txt \
  && ok "typo message" || { fail "typo message"; cat err.txt; }
expect_rc 2 "missing case file" -- "$kolb" run does-not-exist.yaml
grep -q "cannot read case file" err.txt && ok "missing file message" || fail "missing file message"
# 16-bit storage: runs on the isothermal lattices, refused (naming the key) on D2Q37.
expect_rc 0 "fp16 cavity run" -- "$kolb" run "$src/inputs/01_cavity2d_re100.yaml" \
  --set precision=fp16 --set domain.size=[32,32] --set physics.reference_length=32 \
  --set run.steps=200 --set output.folder=cavity_fp16
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["config"]["precision"]=="fp16" and r["status"]=="completed"' \
  cavity_fp16/report.json && ok "fp16 report" || fail "fp16 report.json"
expect_rc 2 "fp16 on D2Q37" -- "$kolb" check "$src/inputs/11_rayleigh_taylor.yaml" --set precision=fp16
grep -q "precision: fp16 storage is for the isothermal lattices" err.txt \
  && ok "fp16 on D2Q37 message" || fail "fp16 on D2Q37 message: $(cat err.txt)"
expect_rc 2 "impossible tau via --set" -- "$kolb" run "$src/inputs/01_cavity2d_re100.yaml" --set physics.tau=0.4
grep -q -- "--set physics.tau=0.4: physics.tau: tau = 0.4 must be > 0.5" err.txt && ok "override named" || { fail "override message"; cat err.txt; }
expect_rc 2 "bad --set syntax" -- "$kolb" run "$src/inputs/01_cavity2d_re100.yaml" --set run.steps
expect_rc 2 "unknown subcommand option" -- "$kolb" run "$src/inputs/01_cavity2d_re100.yaml" --bogus

# 4. A diverging run: exit 3, a clear message, and the data written so far kept.
cat > unstable.yaml <<'YAML'
lattice: D2Q9
domain: {size: [48, 48]}
physics: {tau: 0.5002}
boundaries: {x-: wall, x+: wall, y-: wall, y+: {type: moving_wall, velocity: [0.2, 0.0]}}
run: {steps: 20000}
output: {folder: unstable, observables_every: 10, vtk_every: 100000}
YAML
expect_rc 3 "unstable run" -- "$kolb" run -q unstable.yaml
grep -q "simulation became unstable at step" err.txt && ok "instability message" || { fail "instability message"; cat err.txt; }
[ "$(wc -l < unstable/observables.csv)" -gt 2 ] && ok "observables kept" || fail "observables lost"
[ -f unstable/fields_000000000.vti ] && ok "initial snapshot kept" || fail "initial snapshot lost"
grep -q '"status": "unstable"' unstable/report.json && ok "report says unstable" || fail "report status"
expect_rc 3 "unstable run, fp16 storage" -- "$kolb" run -q unstable.yaml --set precision=fp16 \
  --set output.folder=unstable_fp16
grep -q "simulation became unstable at step" err.txt && ok "fp16 instability message" || fail "fp16 instability message"
# Without observables rows the loop's sampled checks (one row in 8) catch it
# long before the last step; the report is confirmed on the whole lattice.
expect_rc 3 "unstable run, sampled checks" -- "$kolb" run -q unstable.yaml \
  --set output.observables_every=0 --set run.steps=2000000 --set output.folder=unstable_sampled
at=$(sed -n 's/.*became unstable at step \([0-9]*\).*/\1/p' err.txt)
[ -n "$at" ] && [ "$at" -lt 2000000 ] && ok "sampled check caught it at step $at" ||
  { fail "sampled check"; cat err.txt; }
grep -q '"status": "unstable"' unstable_sampled/report.json && ok "sampled: report says unstable" ||
  fail "sampled: report status"

# 5. The benchmark harness, tiny: CSV rows for every combination, % of bound.
expect_rc 0 "bench" -- "$kolb" bench "$src/perf/bench.yaml" --set "lattices=[D2Q9]" \
  --set "precisions=[double]" --set "layouts=[soa,csoa8]" --set "size.D2Q9=[64,32]" \
  --set steps=2 --set repeats=1 --set triad_megabytes=24 --set output=bench
[ "$(wc -l < bench/bench.csv)" = 9 ] && ok "bench.csv rows" || { fail "bench.csv rows"; cat bench/bench.csv; }
grep -q "STREAM triad" out.txt && ok "bench prints the triad" || fail "bench triad"
expect_rc 2 "bench with an unknown kernel" -- "$kolb" bench "$src/perf/bench.yaml" --set "kernels=[warp]"
grep -q "kernels\[0\]: 'warp' is not one of" err.txt && ok "bench error message" || { fail "bench error message"; cat err.txt; }

# 6. The heterogeneous node and its balancer, tiny: a run on a fixed split,
#    `kolb tune` (model, measured points, plot) and `host_columns: auto`.
expect_rc 0 "node run" -- "$kolb" run "$src/inputs/01_cavity2d_re100.yaml" \
  --set domain.size=[48,32] --set run.steps=20 --set output.folder=node --set execution.host_columns=7
python3 - node/report.json <<'PY' && ok "node report" || fail "node report"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["execution"]["host_columns"] == 7, r["execution"]
# 2-D: split along y by default (whole rows on each side)
assert r["execution"]["split_axis"] == "y", r["execution"]
assert "host 7 layers per side along y" in r["execution"]["execution_space"], r["execution"]
PY
# Re-balancing during the run: from a split that leaves the host nearly idle
# (4 of 256 rows per side) the run moves towards balance (windows of
# 1 s, 3 in a row over the threshold; 12000 steps take about 7 s here)
# and says so in the report.
expect_rc 0 "rebalanced run" -- "$kolb" run "$src/inputs/09_node_cavity2d.yaml" \
  --set domain.size=[512,256] --set physics.reference_length=512 --set run.steps=12000 \
  --set output.folder=rebalance --set execution.host_columns=4 \
  --set execution.rebalance=0.1 --set output.observables_every=0
python3 - rebalance/report.json <<'PY' && ok "rebalanced report" || { fail "rebalanced report"; cat out.txt; }
import json, sys
r = json.load(open(sys.argv[1]))
if r["performance"]["loop_seconds"] < 4:  # a fast machine: too short to judge 3 windows
    print("rebalanced report: run too short to judge (%.1f s)" % r["performance"]["loop_seconds"])
    sys.exit(0)
moves = r["run"]["rebalanced"]
assert moves and moves[0]["from_host_columns"] == 4 and moves[0]["to_host_columns"] > 4, moves
assert all(abs(m["imbalance"]) > 0.1 for m in moves), moves
assert r["execution"]["host_columns"] == moves[-1]["to_host_columns"], r["execution"]
PY
expect_rc 0 "tune" -- "$kolb" tune "$src/inputs/01_cavity2d_re100.yaml" \
  --set domain.size=[64,32] --set output.folder=tune --seconds 0.005 --repeats 1 --sweep 3
for f in tune.csv tune_model.csv tune.json; do
  [ -s "tune/$f" ] && ok "tune wrote $f" || fail "tune: no $f"
done
if command -v gnuplot >/dev/null; then
  [ -s tune/tune.png ] && ok "tune plot" || fail "tune: no tune.png"
fi
# The plot's measured points are tune.csv's mlups column.
mlups_col=$(head -n 1 tune/tune.csv | tr ',' '\n' | grep -nx mlups | cut -d: -f1)
grep -q "):$mlups_col with points" tune/tune.gp && ok "tune plot: measured MLUPS" ||
  fail "tune plot: measured points are not column $mlups_col (mlups) of tune.csv"
python3 - tune/tune.json <<'PY' && ok "tune.json content" || fail "tune.json content"
import json, sys
r = json.load(open(sys.argv[1]))
assert 0 <= r["model_host_columns"] <= 32 and 0 <= r["best_host_columns"] <= 32, r
kinds = {p["kind"] for p in r["points"]}
assert {"calibration-isolated", "calibration-concurrent", "model"} <= kinds, kinds
# The accelerator alone is timed once first; the model takes that step for
# M = 0 instead of its line's (model.hpp).
alone = [p for p in r["points"] if p["kind"] == "accelerator-alone"]
assert len(alone) == 1 and alone[0]["host_columns"] == 0 and r["points"][0] is alone[0], alone
assert alone[0]["model_concurrent_s"] == alone[0]["step_s"], alone
# Split along y (32 rows). The verification set holds each space alone
# (M = 0, M = 16) and the sweep; a split already in the set keeps its first
# kind (e.g. a recalibration at 0).
assert r["split_axis"] == "y" and r["columns"] == 32, r
assert r["streaming"] == "two_buffer" and r["kernel"] == "fused", r
verified = {p["host_columns"] for p in r["points"] if not p["kind"].startswith("calibration")}
assert {0, 16} <= verified and len(verified) >= 5, (verified, kinds)
assert r["model_concurrent"]["host"]["per_site_s"] > 0 and r["model_concurrent"]["accelerator"]["per_site_s"] > 0
assert r["speedup_over_faster_alone"] > 0
assert r["window_points"] >= 2 and r["window_predicted_step_s"] > 0, r
assert r["model_concurrent"]["sync_s"] >= 0 and r["model_isolated"]["sync_s"] == 0
PY
grep -q "model: M\* = " out.txt && ok "tune summary" || fail "tune summary"
# D2Q37 (halo 3): every split the tuner times leaves both parts >= 3 layers
# (a sweep of 8 over 32 columns per side once tried 2 and aborted); along y
# (the default) >= 6, as the host parts hold the wall rows.
expect_rc 0 "tune D2Q37" -- "$kolb" tune "$src/inputs/11_rayleigh_taylor.yaml" \
  --set domain.size=[64,32] --set output.folder=tune37 --seconds 0.002 --repeats 1 --sweep 8
python3 - tune37/tune.json <<'PY' && ok "D2Q37 splits respect the halo" || fail "D2Q37 splits"
import json, sys
r = json.load(open(sys.argv[1]))
ms = {p["host_columns"] for p in r["points"]}
n, least = r["columns"], 6 if r["split_axis"] == "y" else 3
assert (r["split_axis"], n) == ("y", 32), r
assert all(m == 0 or (m >= least and (n - 2 * m == 0 or n - 2 * m >= least)) for m in ms), sorted(ms)
assert {p["kind"] for p in r["points"]} >= {"sweep", "model"}, r["points"]
# Each space alone is verified, under whichever kind first added it (a
# bracket or the model's own M* where those land on 0 or n / 2).
verified = {p["host_columns"] for p in r["points"] if not p["kind"].startswith("calibration")}
assert {0, n // 2} <= verified, sorted(verified)
m = r["model_host_columns"]
assert m == 0 or least <= m <= n // 2 - least or m == n // 2, m
PY
expect_rc 0 "run with host_columns: auto" -- "$kolb" run "$src/inputs/01_cavity2d_re100.yaml" \
  --set domain.size=[64,32] --set run.steps=10 --set output.folder=auto --set execution.host_columns=auto
python3 - auto/report.json <<'PY' && ok "auto split in report" || fail "auto split in report"
import json, sys
r = json.load(open(sys.argv[1]))
t = r["execution"]["tuning"]
assert r["execution"]["host_columns"] == t["host_columns"] and 0 <= t["host_columns"] <= 32, r["execution"]
PY
[ -s auto/tune.json ] && ok "auto wrote tune.json" || fail "auto: no tune.json"
expect_rc 2 "too many host columns" -- "$kolb" run "$src/inputs/01_cavity2d_re100.yaml" \
  --set domain.size=[48,32] --set execution.host_columns=25
grep -q "execution.host_columns: 25 host layers per side do not fit in the 32 lattice layers along y" err.txt \
  && ok "host columns message" || { fail "host columns message"; cat err.txt; }
expect_rc 2 "zero threads" -- "$kolb" run "$src/inputs/01_cavity2d_re100.yaml" --set execution.threads=0
grep -q "execution.threads: threads must be >= 1" err.txt && ok "threads message" || { fail "threads message"; cat err.txt; }

# 7. D2Q37 (when compiled): the Rayleigh-Taylor case, shrunk, writes the
# temperature and the internal energy and conserves mass.
if "$kolb" info | grep -q "D2Q37/double/soa"; then
  expect_rc 0 "D2Q37 Rayleigh-Taylor run" -- "$kolb" run "$src/inputs/11_rayleigh_taylor.yaml" \
    --set domain.size=[32,48] --set run.steps=200 --set output.folder=rt \
    --set output.vtk_every=100 --set output.observables_every=50
  grep -q 'Name="temperature"' rt/fields_000000200.vti && ok "D2Q37 temperature in .vti" \
    || fail "D2Q37: no temperature array"
  python3 - rt/observables.csv <<'PY' && ok "D2Q37 observables" || fail "D2Q37 observables"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 5 and "internal_energy" in rows[0], rows[0].keys()
m0, m1 = float(rows[0]["mass"]), float(rows[-1]["mass"])
assert abs(m1 / m0 - 1) < 1e-10, (m0, m1)
assert float(rows[-1]["internal_energy"]) > 0
PY
  if command -v gnuplot >/dev/null; then
    python3 "$src/tools/plot_field.py" rt/fields_000000200.vti --field temperature --out rt/t.png \
      && [ -s rt/t.png ] && ok "plot_field.py draws T" || fail "plot_field.py"
  else
    python3 "$src/tools/plot_field.py" rt/fields_000000200.vti --out rt/t.png 2>err.txt
    [ $? != 0 ] && grep -q "gnuplot not found" err.txt && ok "plot_field.py without gnuplot: clear error" \
      || fail "plot_field.py without gnuplot"
  fi
  expect_rc 2 "D2Q37 aa streaming" -- "$kolb" run "$src/inputs/11_rayleigh_taylor.yaml" \
    --set execution.streaming=aa
  grep -q "execution.streaming: D2Q37 runs the two_buffer streaming scheme only" err.txt \
    && ok "D2Q37 aa message" || { fail "D2Q37 aa message"; cat err.txt; }
fi

# 8. info lists the compiled variants.
expect_rc 0 "info" -- "$kolb" info
grep -q "D2Q9/double/soa" out.txt && ok "variants listed" || fail "variants not listed"

# 9. The launch timer (tools/kernel_times.cpp) as a Kokkos Tools library: a
# table of the run's launches by name, every step's update among them.
if [ -n "$ktimes" ]; then
  expect_rc 0 "run with the launch timer" -- env KOKKOS_PROFILE_LIBRARY="$ktimes" \
    KOLB_KERNEL_TIMES=times.txt "$kolb" run "$src/inputs/01_cavity2d_re100.yaml" \
    --set domain.size=[32,32] --set physics.reference_length=32 --set run.steps=120 \
    --set output.folder=timed --set output.vtk_every=0 --set output.observables_every=0
  updates=$(awk '$NF == "kolb::StreamCollide" { n += $1 } END { print n + 0 }' times.txt 2>/dev/null)
  head -n 1 times.txt 2>/dev/null | grep -q "kolb kernel times" && [ "${updates:-0}" -ge 120 ] &&
    ok "launch timer table ($updates StreamCollide launches for 120 steps)" ||
    { fail "launch timer table"; cat times.txt; }
fi

summary
