#!/usr/bin/env python3
"""Markdown tables of a `kolb bench` result (bench.csv) for docs/performance.md.

    python3 tools/bench_table.py out/bench/bench.csv

Prints the lattice x precision x kernel rows with one column per layout,
"MLUPS (% of bound)", then per case the best AA (in place) and the best
two-buffer (fused) row against the target (90 %, issue 16 item 8). The bound
is the row's same-pattern probe (percent_of_bound; older files: the triad,
percent_of_stream_bound); newer files also give the probe over the lattice's
Q streams alone (probe_q_streams_gbs), shown beside it.
"""
import argparse
import csv
import sys

LAYOUTS = ["aos", "soa", "csoa8", "csoa16", "caosoa8", "caosoa16"]
KERNELS = ["fused", "aa", "propagate", "collide"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", help="bench.csv written by `kolb bench`")
    ap.add_argument("--target", type=float, default=90.0, help="%% of the bound to meet")
    args = ap.parse_args()
    try:
        with open(args.csv, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"bench_table: cannot read {args.csv}: {e.strerror}")
    if not rows or not ({"percent_of_bound", "percent_of_stream_bound"} & set(rows[0])):
        sys.exit(f"bench_table: {args.csv} is not a kolb bench CSV")
    pct_key = "percent_of_bound" if "percent_of_bound" in rows[0] else "percent_of_stream_bound"

    cases = []
    for r in rows:
        key = (r["lattice"], r["precision"])
        if key not in cases:
            cases.append(key)
    layouts = [l for l in LAYOUTS if any(r["layout"] == l for r in rows)]
    layouts += sorted({r["layout"] for r in rows} - set(layouts))

    def cell(lat, prec, layout, kernel):
        for r in rows:
            if (r["lattice"], r["precision"], r["layout"], r["kernel"]) == (lat, prec, layout, kernel):
                return r
        return None

    print("| lattice | precision | kernel | " + " | ".join(layouts) + " |")
    print("|---" * (3 + len(layouts)) + "|")
    for lat, prec in cases:
        for k in KERNELS:
            cells = [cell(lat, prec, l, k) for l in layouts]
            if not any(cells):
                continue
            text = [f"{float(c['mlups']):.0f} ({float(c[pct_key]):.0f} %)" if c else ""
                    for c in cells]
            print(f"| {lat} | {prec} | {k} | " + " | ".join(text) + " |")

    print()
    q_probe = "probe_q_streams_gbs" in rows[0]
    print(f"| case | scheme | best row | MLUPS | % of bound |"
          + (" % of Q-stream probe |" if q_probe else "") + f" target {args.target:.0f} % |")
    print("|---" * (6 + q_probe) + "|")
    for lat, prec in cases:
        for kernel, scheme in (("aa", "AA"), ("fused", "two-buffer")):
            cand = [r for r in rows if (r["lattice"], r["precision"], r["kernel"]) == (lat, prec, kernel)]
            if not cand:
                continue
            best = max(cand, key=lambda r: float(r[pct_key]))
            pct = float(best[pct_key])
            verdict = "met" if pct >= args.target else "**not met**"
            extra = ""
            if q_probe:
                extra = f" {100 * float(best['gbs']) / float(best['probe_q_streams_gbs']):.0f} % |"
            label = {"double": "FP64", "float": "FP32", "fp16": "FP32/fp16 storage"}.get(prec, prec)
            print(f"| {lat} {label} | {scheme} | {best['layout']} | "
                  f"{float(best['mlups']):.0f} | {pct:.0f} % |{extra} {verdict} |")

    print()
    key = "bound_gbs" if "bound_gbs" in rows[0] else "triad_gbs_next_to_it"
    for pattern in sorted({r.get("bound_pattern", "triad") for r in rows}):
        b = sorted(float(r[key]) for r in rows if r.get("bound_pattern", "triad") == pattern)
        print(f"{pattern} bound next to the rows: {b[0]:.0f} to {b[-1]:.0f} GB/s "
              f"(median {b[len(b) // 2]:.0f}).")

if __name__ == "__main__":
    main()
