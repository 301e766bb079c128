#!/usr/bin/env python3
"""Writes `kolb schema` into the docs' key tables.

    tools/schema_docs.py build/bin/kolb

Each table between "<!-- schema: NAME -->" and "<!-- end schema -->" in
docs/user-guide.md and docs/thermal.md becomes section NAME of the schema
(src/schema.cpp); test_schema fails while they differ.
"""
import pathlib
import re
import subprocess
import sys


def main(kolb):
    out = subprocess.run([kolb, "schema"], capture_output=True, text=True, check=True).stdout
    tables = {}
    for block in out.split("### ")[1:]:
        name, table = block.split("\n\n", 1)
        tables[name] = table.rstrip("\n") + "\n"
    docs = pathlib.Path(__file__).resolve().parent.parent / "docs"
    for doc in ("user-guide.md", "thermal.md"):
        path = docs / doc
        text = path.read_text()

        def table(m):
            if m.group(1) not in tables:
                sys.exit(f"{path}: no schema section '{m.group(1)}'")
            return f"<!-- schema: {m.group(1)} -->\n{tables[m.group(1)]}<!-- end schema -->"

        path.write_text(re.sub(r"<!-- schema: (.+?) -->\n.*?<!-- end schema -->", table, text,
                               flags=re.S))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
