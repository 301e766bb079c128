#!/usr/bin/env python3
"""Measured scaling (scaling.csv from perf/mpi/scaling.sh) and the tiling
model's prediction of parallel efficiency for 1 to 4096 ranks (seed 001,
Fig. 7 style), as CSV and PNG.

The prediction is the formula of kolb's tiling model (src/tiling.cpp,
predicted_step) with the costs kolb measured in the 2-rank runs: the update
cost per site tau, the message latency and the face bandwidths B_x
(strided) and B_y (contiguous) of this machine's shared-memory MPI, for the
best 2-D tiling at each rank count. It is a prediction for ranks that each
have this much memory bandwidth to themselves and a network as fast as
shared memory, not a measurement.

  scaling_model.py SCALING_CSV OUT_DIR
"""
import csv
import statistics
import subprocess
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
out = sys.argv[2]


def median(kind, n, key):
    v = [float(r[key]) for r in rows if r["kind"] == kind and int(r["ranks"]) == n and r[key]]
    return statistics.median(v) if v else None


# Costs: the model's measurements of the 2-rank strong runs (medians).
tau = median("strong", 2, "site_s")
lat = median("strong", 2, "latency_s")
bx = median("strong", 2, "bx_Bps")
by = median("strong", 2, "by_Bps")
q_cross, halo, scalar = 3, 1, 8  # D2Q9 FP64: populations crossing a face, halo, bytes


def step(lx, ly, nx, ny, periodic=False):
    """Predicted seconds per step of the largest tile (src/tiling.cpp)."""
    tx, ty = -(-lx // nx), -(-ly // ny)
    t = tx * ty * tau
    for ranks, face_sites, bw in ((nx, ty, bx), (ny, tx + (2 * halo if nx > 1 else 0), by)):
        if ranks == 1:
            continue
        faces = 2 if (periodic or ranks > 2) else 1
        t += faces * (lat + face_sites * halo * q_cross * scalar / bw)
    return t


def best(lx, ly, n):
    return min((step(lx, ly, nx, n // nx), nx) for nx in range(1, n + 1) if n % nx == 0)


ranks = [2**k for k in range(13)]
L = (1024, 1024)
tile = (1024, 512)
t1 = step(*L, 1, 1)
lines = ["ranks,strong_efficiency,strong_tiling,weak_efficiency,weak_tiling"]
for n in ranks:
    ts, nxs = best(*L, n)
    # Weak: the lattice grows with the ranks, tiles stay tile-sized.
    tw, nxw = min((step(tile[0] * nx, tile[1] * (n // nx), nx, n // nx), nx)
                  for nx in range(1, n + 1) if n % nx == 0)
    lines.append(f"{n},{t1 / (n * ts):.4f},{nxs}x{n // nxs},{step(*tile, 1, 1) / tw:.4f},{nxw}x{n // nxw}")
open(f"{out}/scaling_prediction.csv", "w").write("\n".join(lines) + "\n")

# Measured efficiencies (medians over repeats): against 1 rank x 1 thread,
# and against 1 rank with as many OpenMP threads on the same cores (what MPI
# itself costs, which is what the model's curves predict).
meas = ["kind,ranks,mlups,efficiency,measured_step_s,predicted_step_s,oversubscribed,vs_threads"]
for kind in ("strong", "weak"):
    base = median(kind, 1, "mlups")
    for n in (1, 2, 4):
        m = median(kind, n, "mlups")
        threads = median(kind + "_threads", n, "mlups") if n > 1 else m
        over = any(r["oversubscribed"] == "True" for r in rows if int(r["ranks"]) == n)
        meas.append(f"{kind},{n},{m:.2f},{m / (n * base):.4f},{median(kind, n, 'step_s'):.6g},"
                    f"{median(kind, n, 'predicted_step_s') or ''},{over},{m / threads:.4f}")
open(f"{out}/scaling_measured.csv", "w").write("\n".join(meas) + "\n")
print("\n".join(meas))
print(f"costs (2-rank runs): tau {tau * 1e9:.2f} ns/site, latency {lat * 1e6:.2f} us, "
      f"B_x {bx / 1e9:.2f} GB/s, B_y {by / 1e9:.2f} GB/s")
print("\n".join(lines))

gp = f"""
set terminal pngcairo size 1200,520 font ",11"
set output "{out}/scaling.png"
set datafile separator ","
set multiplot layout 1,2
set logscale x 2
set xrange [0.8:5000]
set yrange [0:1.15]
set xlabel "MPI ranks"
set ylabel "parallel efficiency"
set key bottom left font ",9"
set grid
set title "efficiency: PREDICTED by the model (lines), measured (points)"
plot "{out}/scaling_prediction.csv" skip 1 using 1:2 with lines lw 2 lc rgb "#1f77b4" title "strong 1024^2, predicted", \\
     "{out}/scaling_prediction.csv" skip 1 using 1:4 with lines lw 2 dt 2 lc rgb "#d62728" title "weak 1024x512 per rank, predicted", \\
     "< grep ^strong, {out}/scaling_measured.csv" using 2:8 with points pt 7 ps 1.5 lc rgb "#1f77b4" title "strong, measured: n ranks vs 1 rank x n threads", \\
     "< grep ^weak, {out}/scaling_measured.csv" using 2:8 with points pt 5 ps 1.5 lc rgb "#d62728" title "weak, measured: n ranks vs 1 rank x n threads", \\
     "< grep ^strong, {out}/scaling_measured.csv" using 2:4 with points pt 6 ps 1.5 lc rgb "#1f77b4" title "strong, measured vs 1 rank x 1 thread (shared memory bus)", \\
     "< grep ^weak, {out}/scaling_measured.csv" using 2:4 with points pt 4 ps 1.5 lc rgb "#d62728" title "weak, measured vs 1 rank x 1 thread"
unset logscale x
set xrange [1.5:4.5]
set xtics (2, 4)
set boxwidth 0.18
set yrange [0:*]
set ylabel "ms per step"
set key top left
set title "step time at 2 and 4 ranks: model vs measured"
plot "< grep -E ^strong,[24], {out}/scaling_measured.csv" using ($2-0.1):($6*1e3) with boxes fs solid 0.5 lc rgb "#1f77b4" title "strong, predicted", \\
     "< grep -E ^strong,[24], {out}/scaling_measured.csv" using ($2+0.1):($5*1e3) with boxes fs solid 0.9 lc rgb "#1f77b4" title "strong, measured", \\
     "< grep -E ^weak,[24], {out}/scaling_measured.csv" using ($2+0.3):($6*1e3) with boxes fs solid 0.5 lc rgb "#d62728" title "weak, predicted", \\
     "< grep -E ^weak,[24], {out}/scaling_measured.csv" using ($2+0.5):($5*1e3) with boxes fs solid 0.9 lc rgb "#d62728" title "weak, measured"
unset multiplot
"""
subprocess.run(["gnuplot"], input=gp, text=True, check=True)
print(f"wrote {out}/scaling.png, scaling_prediction.csv, scaling_measured.csv")
