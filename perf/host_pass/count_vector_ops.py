#!/usr/bin/env python3
"""Counts the floating-point instructions of kolb's host row loops in object files.

For each object and each row function (impl::run_bulk_sites<Functor>: the
loop of a row's bulk run, impl::run_ends<Functor>: its general head and
tail), prints
the number of packed double FMA/mul/add instructions on 256-bit (ymm) or
512-bit (zmm) registers and of scalar ones (sd): a vectorised row loop is
almost all packed. Used to compare the host pass of a CUDA build with a
host-only build of the same variant (docs/heterogeneous.md).

    python3 perf/host_pass/count_vector_ops.py NAME=OBJECT.o [NAME=OBJECT.o ...]
"""
import re
import subprocess
import sys

KERNELS = ["StreamCollide", "AAPull", "Collide<", "Propagate"]
OP = re.compile(r"\s(v?(fmadd|fmsub|fnmadd|fnmsub)\d*|v?mul|v?add|v?sub)(p|s)d\s+(.*)")


def functions(obj, *options):
    """Yields (demangled name, its disassembly lines) per function of obj;
    options go to objdump (e.g. "-M", "intel")."""
    out = subprocess.run(["objdump", "-d", "-C", "--no-show-raw-insn", *options, obj],
                         check=True, capture_output=True, text=True).stdout
    name, body = None, []
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if m:
            if name:
                yield name, body
            name, body = m.group(1), []
        elif name:
            body.append(line)
    if name:
        yield name, body


def main():
    rows = []
    for arg in sys.argv[1:]:
        label, obj = arg.split("=", 1)
        for name, body in functions(obj):
            row_pass = next((p for p in ("run_bulk_sites<", "run_ends<") if p in name), None)
            if row_pass is None:
                continue
            kernel = next((k for k in KERNELS if k in name), None)
            if kernel is None:
                continue
            packed = scalar = 0
            for line in body:
                m = OP.search(line)
                if not m:
                    continue
                if m.group(3) == "p" and ("ymm" in m.group(4) or "zmm" in m.group(4)):
                    packed += 1
                elif m.group(3) == "s":
                    scalar += 1
            swapped = ", true>" in name
            rows.append((label, kernel.rstrip("<") + (" (AA local)" if swapped else "") + ", " +
                         row_pass[4:-1].replace("_sites", ""), packed, scalar, len(body)))
    print("| object | row function | packed (ymm/zmm) | scalar (sd) | instructions |")
    print("|---|---|---|---|---|")
    for r in rows:
        print("| %s | %s | %d | %d | %d |" % r)


if __name__ == "__main__":
    main()
