#!/usr/bin/env python3
"""Performance portability of one case over platforms (builds x devices).

    # on each machine, with the build of its backend (CPU, CUDA, HIP):
    python3 perf/portability/portability.py measure --kolb build/bin/kolb \\
        --name epyc-2c-openmp --out out/portability/epyc-2c-openmp
    # anywhere, merging the bench.json files measured elsewhere:
    python3 perf/portability/portability.py report --out out/portability \\
        out/portability/*/bench.json [more/bench.json[=NAME] ...]

`measure` runs `kolb bench perf/portability/portability.yaml` (every layout the
build holds, fused two-buffer and in-place AA) and stores its bench.json with
the platform's name. `report` matches the rows by (lattice, precision, layout,
kernel); a row's efficiency on a platform is its % of that platform's
same-pattern bound (kolb bench's copy / in-place probe; bench.json files of
older kolb versions give % of the STREAM triad and are marked so). The
Pennycook metric of a configuration over the platform set H is the harmonic
mean of its efficiencies, |H| / sum(1/e_i), and 0 when a platform lacks it;
"best per platform" takes each platform's best configuration. Writes
portability.md (tables), portability.json and portability.png (gnuplot).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def measure(args):
    os.makedirs(args.out, exist_ok=True)
    cmd = [args.kolb, "bench", os.path.join(HERE, "portability.yaml"), "--set",
           f"output={args.out}"] + sum((["--set", s] for s in args.set), [])
    print("$ " + " ".join(cmd), flush=True)
    if subprocess.call(cmd) != 0:
        sys.exit("portability: kolb bench failed")
    path = os.path.join(args.out, "bench.json")
    with open(path) as f:
        bench = json.load(f)
    bench["platform"] = args.name
    bench["command"] = " ".join(cmd)
    with open(path, "w") as f:
        json.dump(bench, f, indent=2)
    print(f"wrote {path} (platform {args.name})")


def load(arg):
    path, _, given = arg.partition("=")
    try:
        with open(path) as f:
            bench = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"portability: cannot read {path}: {e}")
    if "rows" not in bench or "machine" not in bench:
        sys.exit(f"portability: {path} is not a kolb bench.json")
    m = bench["machine"]
    name = given or bench.get("platform") or f"{m.get('execution_space')} ({m.get('cpu')})"
    rows = {}
    older = False
    for r in bench["rows"]:
        if "percent_of_bound" in r:
            pct = r["percent_of_bound"]
        else:  # kolb before the same-pattern probes: % of the STREAM triad
            pct, older = r["percent_of_stream_bound"], True
        rows[(r["lattice"], r["precision"], r["layout"], r["kernel"])] = {
            "efficiency": pct / 100.0, "mlups": r["mlups"], "size": r["size"]}
    return {"name": name, "file": path, "machine": m, "older_format": older,
            "kolb_version": bench.get("kolb_version"), "rows": rows}


def pennycook(effs):
    if not effs or any(e is None or e <= 0 for e in effs):
        return 0.0
    return len(effs) / sum(1.0 / e for e in effs)


def report(args):
    platforms = [load(p) for p in args.bench]
    names = [p["name"] for p in platforms]
    if len(set(names)) != len(names):
        sys.exit(f"portability: two results carry one platform name: {names}")
    # The configurations of the first platform: one case, its layouts and kernels.
    keys = list(platforms[0]["rows"])
    table = []
    for k in keys:
        effs = [p["rows"].get(k, {}).get("efficiency") for p in platforms]
        table.append({"lattice": k[0], "precision": k[1], "layout": k[2], "kernel": k[3],
                      "efficiency": dict(zip(names, effs)),
                      "mlups": {p["name"]: p["rows"].get(k, {}).get("mlups") for p in platforms},
                      "pennycook": pennycook(effs)})
    cases = sorted({(k[0], k[1]) for k in keys})
    best = {}
    for case in cases:
        per = []
        for p in platforms:
            cand = [(v["efficiency"], k) for k, v in p["rows"].items() if k[:2] == case]
            per.append(max(cand) if cand else (None, None))
        best[f"{case[0]}/{case[1]}"] = {
            "configuration": {n: (f"{k[2]} {k[3]}" if k else None) for n, (_, k) in zip(names, per)},
            "efficiency": {n: e for n, (e, _) in zip(names, per)},
            "pennycook": pennycook([e for e, _ in per])}
    out = {"platforms": [{k: p[k] for k in ("name", "file", "machine", "older_format", "kolb_version")}
                         for p in platforms],
           "metric": "Pennycook: harmonic mean of the efficiencies over the platforms (0 where a "
                     "platform lacks the configuration); efficiency = % of the platform's "
                     "same-pattern bound (older_format: % of the STREAM triad)",
           "configurations": table, "best_per_platform": best}
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "portability.json"), "w") as f:
        json.dump(out, f, indent=2)
    pct = lambda e: "—" if e is None else f"{100 * e:.1f} %"
    lines = ["# Performance portability", "",
             "Generated by `perf/portability/portability.py report` from:", ""]
    for p in platforms:
        m = p["machine"]
        lines.append(f"- **{p['name']}**: `{p['file']}` ({m.get('execution_space')}, "
                     f"{m.get('cpu')}, {m.get('concurrency')} threads, {m.get('compiler')}, kolb "
                     f"{p['kolb_version']}){' — older kolb: % of the STREAM triad' if p['older_format'] else ''}")
    lines += ["", "Efficiency = % of each platform's same-pattern bound; P = Pennycook's metric "
              "(harmonic mean over the platforms, 0 where one lacks the configuration).", "",
              "| case | layout | kernel | " + " | ".join(names) + " | P |",
              "|---|---|---|" + "---|" * len(names) + "---|"]
    for row in table:
        lines.append(f"| {row['lattice']} {row['precision']} | {row['layout']} | {row['kernel']} | "
                     + " | ".join(pct(row["efficiency"][n]) for n in names)
                     + f" | {pct(row['pennycook']) if row['pennycook'] > 0 else '0'} |")
    lines += ["", "Best configuration per platform:", "",
              "| case | " + " | ".join(names) + " | P |", "|---|" + "---|" * len(names) + "---|"]
    for case, b in best.items():
        lines.append(f"| {case} | " + " | ".join(
            f"{b['configuration'][n]}: {pct(b['efficiency'][n])}" if b["configuration"][n] else "—"
            for n in names) + f" | {pct(b['pennycook'])} |")
    with open(os.path.join(args.out, "portability.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    plot(args.out, table, names)
    print("\n".join(lines))
    print(f"\nwrote {args.out}/portability.md, portability.json"
          + (", portability.png" if os.path.exists(os.path.join(args.out, "portability.png")) else ""))


def plot(out, table, names):
    """Efficiency per platform and P per configuration, as grouped bars."""
    if not shutil.which("gnuplot"):
        print("portability: gnuplot not found, no PNG")
        return
    data = os.path.join(out, "portability.dat")
    with open(data, "w") as f:
        for row in table:
            vals = [100 * (row["efficiency"][n] or 0) for n in names] + [100 * row["pennycook"]]
            f.write(f"{row['layout']}/{row['kernel']} " + " ".join(f"{v:.2f}" for v in vals) + "\n")
    cols = names + ["P (Pennycook)"]
    using = ", ".join(f"'' using {i + 2}:xtic(1) title '{c}'" if i else
                      f"'{data}' using {i + 2}:xtic(1) title '{c}'" for i, c in enumerate(cols))
    script = (f"set terminal pngcairo size 1200,600\nset output '{out}/portability.png'\n"
              "set style data histograms\nset style histogram clustered gap 1\n"
              "set style fill solid 0.8\nset ylabel '% of the platform bound'\nset yrange [0:110]\n"
              "set grid ytics\nset key top right\nset xtics rotate by 30 right\n"
              f"set title 'kolb performance portability ({table[0]['lattice']} {table[0]['precision']})'\n"
              f"plot {using}\n")
    with open(os.path.join(out, "portability.gp"), "w") as f:
        f.write(script)
    subprocess.call(["gnuplot", os.path.join(out, "portability.gp")])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("measure", help="run kolb bench for this platform")
    m.add_argument("--kolb", required=True, help="the kolb executable of the build to measure")
    m.add_argument("--name", required=True, help="platform name, e.g. h100-cuda")
    m.add_argument("--out", required=True, help="folder for bench.json")
    m.add_argument("--set", action="append", default=[], help="override a bench key (repeatable)")
    r = sub.add_parser("report", help="merge bench.json files into the report")
    r.add_argument("--out", required=True, help="folder for portability.md/.json/.png")
    r.add_argument("bench", nargs="+",
                   help="bench.json files, one per platform (FILE=NAME names the platform); the "
                        "first one's configurations are the report's")
    args = ap.parse_args()
    measure(args) if args.cmd == "measure" else report(args)


if __name__ == "__main__":
    main()
