#!/usr/bin/env python3
"""Counts the instructions of the vector loops in kolb's host row functions.

For each function of an object file whose demangled name contains every
given filter (e.g. "run_bulk<" "StreamCollide" "D3Q19, double, false"),
prints each loop that computes on 512- or 256-bit registers (a backward
branch and its target, with packed arithmetic and more than 20 vector
instructions; out-of-line copies that branch back are left out): its
instruction count, and how many of them are integer instructions (mov,
lea, add, sub, imul, shifts, logic, test, cmp on general registers: address
work and reloads), accesses to the stack (spills and reloads), FMAs,
streaming stores and prefetches. A
function can list the same body more than once, entered on different
paths: a fused row's steady line is the loop with both streaming stores
and prefetches.

    python3 perf/host_pass/loop_instructions.py OBJECT.o FILTER [FILTER ...]
"""
import re
import sys

from count_vector_ops import functions  # this folder's objdump reader

INSN = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
BRANCH = re.compile(r"^j\w+$")
INTEGER = {"mov", "lea", "add", "sub", "imul", "shl", "shr", "sar", "and", "or", "xor", "test",
           "cmp", "inc", "dec", "neg"}


def instructions(obj):
    """Yields (demangled name, [(address, mnemonic, operands)]) per function."""
    for name, lines in functions(obj, "-M", "intel"):
        body = []
        for line in lines:
            i = INSN.match(line)
            if i:
                body.append((int(i.group(1), 16), i.group(2), i.group(3)))
        yield name, body


def loops(body):
    """Yields (start, end, instructions) of each backward branch's range."""
    index = {a: k for k, (a, _, _) in enumerate(body)}
    for k, (a, op, args) in enumerate(body):
        if BRANCH.match(op):
            target = args.split()[0] if args else ""
            try:
                t = int(target, 16)
            except ValueError:
                continue
            if t <= a and t in index:
                yield t, a, body[index[t]:k + 1]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    obj, filters = sys.argv[1], sys.argv[2:]
    found = False
    for name, body in instructions(obj):
        if not all(f in name for f in filters):
            continue
        found = True
        print(name[:160])
        for start, end, insns in loops(body):
            vector = sum(1 for _, _, x in insns if "zmm" in x or "ymm" in x)
            packed = sum(1 for _, op, x in insns
                         if re.match(r"v(f(n?m(add|sub))\w*|add|sub|mul|div)p[sd]", op))
            if vector <= 20 or packed == 0:
                continue
            integer = sum(1 for _, op, x in insns if op in INTEGER and "mm" not in x)
            stack = sum(1 for _, _, x in insns if "rsp" in x or "rbp" in x)
            fma = sum(1 for _, op, _ in insns if re.match(r"v?f(n?m(add|sub))", op))
            streamed = sum(1 for _, op, _ in insns if op.startswith("vmovnt"))
            prefetch = sum(1 for _, op, _ in insns if op.startswith("prefetch"))
            print(f"  loop {start:x}-{end:x}: {len(insns)} instructions, {integer} integer, "
                  f"{stack} stack accesses, {fma} FMA, {streamed} streaming stores, "
                  f"{prefetch} prefetches")
    if not found:
        sys.exit(f"no function of {obj} matches {filters}")


if __name__ == "__main__":
    main()
