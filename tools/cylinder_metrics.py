#!/usr/bin/env python3
"""Schäfer–Turek's pressure difference and recirculation length of a cylinder run.

    python3 tools/cylinder_metrics.py out/cylinder_forces/fields_000070000.vti \\
        --center 40 40 --diameter 20 --velocity 0.05 --physical-velocity 0.2

From a kolb snapshot (.vti, or a run on several ranks' .pvti and the
pieces it names) of a channel with a cylinder (site i spans
[i, i + 1), as obstacles are placed), or of one layer of sites (--z) of a
duct with a cylinder along z:
  - dp: p(front) - p(back) at the cylinder's upstream and downstream points
    on its axis (Schäfer–Turek's (0.15, 0.2) and (0.25, 0.2)), p = c_s² ρ,
    each extrapolated linearly to the point from the two fluid sites before
    it, the rows either side of the axis interpolated; in the benchmark's
    units (ρ = 1, the mean inflow speed --physical-velocity):
    dp_lattice (U_phys / U_lattice)².
  - L_a: the length of the region of negative u_x on the axis behind the
    cylinder, its end interpolated between site centres, in the benchmark's
    units (D = 0.1).

With several snapshots over at least a shedding period and --forces (the
run's forces.csv), Schäfer–Turek 2D-2's dp instead: at half a period after
the last maximum of c_L whose half period later the snapshots cover (the
period from the lift's upward crossings in forces.csv), interpolated
linearly between the two snapshots around that step:

    python3 tools/cylinder_metrics.py out/shedding_d40/fields_0001*.vti \\
        --forces out/shedding_d40/forces.csv --center 80 80 --diameter 40 \\
        --velocity 0.05 --physical-velocity 1

(the snapshots from a restart with output.vtk_every: docs/cases/schaefer-turek.md).
"""
import argparse
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_field import read_field  # noqa: E402  (kolb's .vti reader)

CS2 = 1.0 / 3.0  # D2Q9, D3Q19, D3Q27


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("vti", nargs="+")
    p.add_argument("--forces", help="forces.csv: dp half a period after c_L's maximum (2D-2)")
    p.add_argument("--center", type=float, nargs=2, required=True, help="the cylinder's centre (sites)")
    p.add_argument("--diameter", type=float, required=True, help="D in sites")
    p.add_argument("--velocity", type=float, required=True, help="the mean inflow speed, lattice units")
    p.add_argument("--physical-velocity", type=float, required=True,
                   help="the benchmark's mean inflow speed (2D-1: 0.2, 2D-2: 1, 3D-1Z: 0.2)")
    p.add_argument("--z", type=int, default=None,
                   help="3-D: the layer of sites to measure in (3D-1Z: the middle one)")
    args = p.parse_args()
    if args.forces:
        shedding_dp(args)
        return
    if len(args.vti) > 1:
        sys.exit("several snapshots need --forces (dp half a period after c_L's maximum)")
    dp, dp_lattice, end, back = measure(args.vti[0], args)
    print(f"dp {dp:.5f}  (lattice {dp_lattice:.6e})")
    if end is None:
        print("L_a none: u_x stays negative up to the outlet")
    elif end == back:
        print("L_a 0: no recirculation (u_x >= 0 right behind the cylinder)")
    else:
        print(f"L_a {(end - back) * 0.1 / args.diameter:.5f}  ({end - back:.3f} sites behind the cylinder)")


def snapshot_step(path):
    m = re.search(r"fields_(\d+)\.p?vti$", os.path.basename(path))
    if not m:
        sys.exit(f"{path}: no step in the file name (kolb writes fields_<step>.vti or .pvti)")
    return int(m.group(1))


def shedding_dp(args):
    with open(args.forces) as f:
        header = f.readline().strip().split(",")
        if "c_L0" not in header:
            sys.exit(f"{args.forces}: no c_L0 column (the run needs a force reference)")
        k = header.index("c_L0")
        rows = [line.split(",") for line in f if line.strip()]
    if not rows:
        sys.exit(f"{args.forces}: no rows")
    steps = [int(r[0]) for r in rows]
    lift = [float(r[k]) for r in rows]
    # each row weighs the steps since the one before (runs restarted at
    # another cadence), as report.json's means do
    weights = [0] + [steps[j] - steps[j - 1] for j in range(1, len(steps))]
    mean = (sum(w * v for w, v in zip(weights, lift)) / sum(weights) if sum(weights) > 0
            else sum(lift) / len(lift))
    ups = [steps[j - 1] + (steps[j] - steps[j - 1]) * (mean - lift[j - 1]) / (lift[j] - lift[j - 1])
           for j in range(1, len(lift)) if lift[j - 1] < mean <= lift[j]]
    if len(ups) < 3:
        sys.exit(f"{args.forces}: fewer than three upward crossings of c_L's mean: no period")
    period = (ups[-1] - ups[-3]) / 2
    shots = sorted((snapshot_step(v), v) for v in args.vti)
    first, last = shots[0][0], shots[-1][0]
    peaks = [j for j in range(1, len(lift) - 1)
             if lift[j - 1] < lift[j] >= lift[j + 1] and lift[j] > mean
             and first <= steps[j] + period / 2 <= last]
    if not peaks:
        sys.exit(f"the snapshots (steps {first} to {last}) cover no step half a period "
                 f"({period / 2:.1f} steps) after a maximum of c_L")
    j = peaks[-1]
    when = steps[j] + period / 2
    for (s1, v1), (s2, v2) in zip(shots, shots[1:]):
        if s1 <= when <= s2:
            d1, d2 = measure(v1, args)[0], measure(v2, args)[0]
            dp = d1 + (d2 - d1) * (when - s1) / (s2 - s1) if s2 > s1 else d1
            print(f"dp {dp:.5f}  at step {when:.1f}: half a period ({period:.1f} steps) after "
                  f"c_L's maximum {lift[j]:.4f} at step {steps[j]}")
            return


def measure(path, args):
    """dp, dp in lattice units, the end of the recirculation and the cylinder's back (x, sites)."""
    nx, ny, _, rho = read_field(path, "density", args.z)
    _, _, comps, u = read_field(path, "velocity", args.z)
    _, _, _, solid = read_field(path, "solid", args.z)
    cx, cy = args.center
    j0 = math.floor(cy - 0.5)  # the rows whose centres bracket the axis
    t = cy - (j0 + 0.5)
    if not (0 <= j0 and j0 + 1 < ny):
        sys.exit(f"{path}: the axis y = {cy} is not between two rows of sites (0.5 to {ny - 0.5})")

    def fluid(i):
        return 0 <= i < nx and not solid[i + nx * j0] and not solid[i + nx * (j0 + 1)]

    def on_axis(values, i, comp=0, stride=1):
        a = values[(i + nx * j0) * stride + comp]
        b = values[(i + nx * (j0 + 1)) * stride + comp]
        return (1 - t) * a + t * b

    def first_fluid(i, step, what):  # from site i on along step
        while 0 <= i < nx and not fluid(i):
            i += step
        if not 0 <= i < nx:
            sys.exit(f"{path}: no fluid on the axis y = {cy} {what} (check --center)")
        return i

    def extrapolated(x, step):  # p at x from the two fluid sites before it along -step
        i = first_fluid(math.floor(x - 0.5) if step > 0 else math.ceil(x - 0.5), -step,
                        "before the cylinder" if step > 0 else "behind it")
        if not fluid(i - step):
            sys.exit(f"{path}: one fluid site only at x = {i + 0.5} on the axis")
        x1, x2 = i + 0.5, i - step + 0.5
        p1, p2 = CS2 * on_axis(rho, i), CS2 * on_axis(rho, i - step)
        return p1 + (p1 - p2) * (x - x1) / (x1 - x2)

    front, back = cx - args.diameter / 2, cx + args.diameter / 2
    dp_lattice = extrapolated(front, +1) - extrapolated(back, -1)
    dp = dp_lattice * (args.physical_velocity / args.velocity) ** 2
    # The recirculation: negative u_x from the back of the cylinder on.
    i = first_fluid(math.ceil(back - 0.5), 1, "behind the cylinder")
    end = None
    prev_x, prev_u = None, None
    while i < nx and end is None:
        ux = on_axis(u, i, 0, comps)
        if ux >= 0:
            end = back if prev_u is None else prev_x + (i + 0.5 - prev_x) * (-prev_u) / (ux - prev_u)
        prev_x, prev_u = i + 0.5, ux
        i += 1
    return dp, dp_lattice, end, back


if __name__ == "__main__":
    main()
