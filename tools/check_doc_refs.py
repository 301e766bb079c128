#!/usr/bin/env python3
"""Check that every cited docs page and section exists.

Code and docs cite sections as `docs/<name>.md, "Heading"` (or without the
comma), often wrapped over comment lines. This finds each such citation,
joins its quoted text across line breaks and comment markers, and checks
that a heading of that file, or a paragraph's bold lead
(`**Launch shape** ...`), contains it (of several quoted in a row, the
first). A page named without a heading (`docs/<name>.md`) must exist too.
Exits 1 and lists the citations that point nowhere.
Usage: tools/check_doc_refs.py [ROOT]
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
SKIP_DIRS = {".git", "out"}  # and every build* folder
SUFFIXES = {".md", ".hpp", ".cpp", ".h", ".txt", ".py", ".sh", ".yaml", ".in", ".cmake"}
# A citation: the file, an optional comma, then a quoted heading that may run
# over line breaks with comment markers ("//", "#", "*") at their starts.
CITE = re.compile(r'docs/([\w./-]+\.md)[`*]*,?\s*\(?(?:\n\s*(?://+|#+|\*)?\s*)?"([^"]+)"')
# Any page named: docs/<name>.md not preceded by a word or path character
# (so ../docs/x.md and other/docs/x.md are left alone).
PAGE = re.compile(r'(?<![\w./-])docs/([\w./-]+\.md)')


def anchors(md: pathlib.Path):
    """The file's headings and bold paragraph leads, whitespace folded."""
    text = md.read_text(encoding="utf-8")
    out = [m.group(1) for m in re.finditer(r"^#+\s+(.*)$", text, re.M)]
    out += [m.group(1) for m in re.finditer(r"^\*\*([^*]+)\*\*", text, re.M)]
    return [" ".join(a.split()) for a in out]


def cited_text(raw: str) -> str:
    """The quoted heading with line breaks and comment markers removed."""
    lines = [re.sub(r"^\s*(//+|#+|\*)?\s*", "", l) for l in raw.splitlines()]
    return " ".join(" ".join(lines).split())


def main() -> int:
    docs_dir = ROOT / "docs"
    docs = {p.relative_to(docs_dir).as_posix(): anchors(p) for p in docs_dir.rglob("*.md")}
    bad = []
    for path in sorted(ROOT.rglob("*")):
        rel = path.relative_to(ROOT)
        if not path.is_file() or path.suffix not in SUFFIXES:
            continue
        if any(part in SKIP_DIRS or part.startswith("build") for part in rel.parts[:-1]):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in PAGE.finditer(text):
            if m.group(1) not in docs:
                line = text.count("\n", 0, m.start()) + 1
                bad.append(f"{rel}:{line}: docs/{m.group(1)} does not exist")
        for m in CITE.finditer(text):
            name, heading = m.group(1), cited_text(m.group(2))
            line = text.count("\n", 0, m.start()) + 1
            if name in docs and not any(heading in a for a in docs[name]):
                bad.append(f'{rel}:{line}: docs/{name} has no section "{heading}"')
    for b in bad:
        print(b)
    print(f"check_doc_refs: {len(bad)} citation(s) point nowhere" if bad else
          "check_doc_refs: every cited section exists")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
