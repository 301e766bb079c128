#!/usr/bin/env python3
"""Markdown tables of a `kolb bench` result (bench.csv) for docs/performance.md.

    python3 tools/bench_table.py out/bench/bench.csv
    python3 tools/bench_table.py out/bench/bench.csv --baseline perf/baselines/FILE.csv

Prints the lattice x precision x kernel rows with one column per layout,
"MLUPS (% of bound)", then per case the best AA (in place) and the best
two-buffer (fused) row against the target (90 %, issue 16 item 8). The bound
is the row's same-pattern probe (percent_of_bound; older files: the triad,
percent_of_stream_bound); newer files also give the probe over the lattice's
Q streams alone (probe_q_streams_gbs), shown beside it. With --baseline
(a perf/baselines/ file, or another bench.csv) it then prints every row the
two share: the baseline's MLUPS and % of bound, this run's, and the ratio.
Lines starting with "#" (the baselines' header) are skipped.
"""
import argparse
import csv
import sys

LAYOUTS = ["aos", "soa", "csoa8", "csoa16", "caosoa8", "caosoa16"]
KERNELS = ["fused", "aa", "propagate", "collide"]


def read_rows(path):
    """The rows of a bench CSV, and the name of its % of bound column."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(l for l in f if not l.startswith("#")))
    except OSError as e:
        sys.exit(f"bench_table: cannot read {path}: {e.strerror}")
    if not rows or not ({"percent_of_bound", "percent_of_stream_bound"} & set(rows[0])):
        sys.exit(f"bench_table: {path} is not a kolb bench CSV")
    return rows, "percent_of_bound" if "percent_of_bound" in rows[0] else "percent_of_stream_bound"


def compare(rows, pct_key, path):
    """Every row of this run that the baseline at path has too, side by side."""
    base, base_pct = read_rows(path)

    def key(r):
        return r["lattice"], r["precision"], r["layout"], r["kernel"]

    by_key = {key(r): r for r in base}
    print("| lattice | precision | layout | kernel | baseline | this run | ratio |")
    print("|---" * 7 + "|")
    for r in rows:
        b = by_key.get(key(r))
        if b is None:
            continue
        old, new = float(b["mlups"]), float(r["mlups"])
        print(f"| {' | '.join(key(r))} | {old:.0f} ({float(b[base_pct]):.0f} %) | "
              f"{new:.0f} ({float(r[pct_key]):.0f} %) | {new / old:.2f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", help="bench.csv written by `kolb bench`")
    ap.add_argument("--target", type=float, default=90.0, help="%% of the bound to meet")
    ap.add_argument("--baseline", help="a perf/baselines/ CSV (or bench.csv) to compare against")
    args = ap.parse_args()
    rows, pct_key = read_rows(args.csv)

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
    q_probe = {"probe_q_streams_gbs", "gbs"} <= set(rows[0])
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

    key = "bound_gbs" if "bound_gbs" in rows[0] else "triad_gbs_next_to_it"
    if key in rows[0]:  # a baseline file keeps MLUPS and % of bound only
        print()
        for pattern in sorted({r.get("bound_pattern", "triad") for r in rows}):
            b = sorted(float(r[key]) for r in rows if r.get("bound_pattern", "triad") == pattern)
            print(f"{pattern} bound next to the rows: {b[0]:.0f} to {b[-1]:.0f} GB/s "
                  f"(median {b[len(b) // 2]:.0f}).")

    if args.baseline:
        print()
        compare(rows, pct_key, args.baseline)


if __name__ == "__main__":
    main()
