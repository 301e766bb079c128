#!/usr/bin/env python3
"""Paired medians of perf/ab.sh rounds.

    perf/ab_stats.py ROUNDS.txt [MORE.txt ...]

For every bench row: each build's median MLUPS and median % of its bound,
and for every build after the first the median of its per-round ratio to
the first build (rounds paired within a file: the same machine phase), with
how many rounds it was faster. On a shared VM whose bandwidth moves between
phases, the paired ratio is the figure to quote; the medians mix phases.
"""
import re
import statistics as st
import sys
from collections import defaultdict


def main(files):
    mlups = defaultdict(dict)  # (build, row) -> {(file, round): MLUPS}
    pct = defaultdict(dict)
    builds = []
    for f in files:
        for line in open(f):
            m = re.match(r"(\S+) r(\d+): (.*)", line)
            if not m:
                continue
            build, key = m.group(1), (f, int(m.group(2)))
            if build not in builds:
                builds.append(build)
            for row, value, percent in re.findall(r"(\S+) ([\d.]+) \(([\d.]+)%", m.group(3)):
                mlups[(build, row)][key] = float(value)
                pct[(build, row)][key] = float(percent)
    if not builds:
        sys.exit("no perf/ab.sh rounds in " + " ".join(files))
    base = builds[0]
    for row in sorted({r for (_, r) in mlups}):
        a = mlups.get((base, row), {})
        if not a:
            continue
        out = [f"{row}: {base} {st.median(a.values()):.1f} ({st.median(pct[(base, row)].values()):.0f} %)"]
        for b in builds[1:]:
            other = mlups.get((b, row), {})
            common = sorted(set(a) & set(other))
            if not common:
                continue
            ratios = [other[k] / a[k] for k in common]
            faster = sum(r > 1 for r in ratios)
            out.append(f"{b} {st.median(other.values()):.1f} ({st.median(pct[(b, row)].values()):.0f} %) "
                       f"paired {st.median(ratios):.3f}x, faster in {faster} of {len(ratios)}")
        print("  ".join(out))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
