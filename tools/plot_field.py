#!/usr/bin/env python3
"""Colour map of one scalar field of a kolb VTK image (.vti, or .pvti) as a PNG.

    python3 tools/plot_field.py out/rayleigh_taylor/fields_000006000.vti \
        --field temperature --out out/rayleigh_taylor/rt_temperature.png

Reads kolb's own .vti layout (raw appended data, UInt64 headers), and a
run on several ranks' .pvti with the pieces it names, 2-D cases only,
writes the field as a matrix and draws it with gnuplot (pngcairo), so
nothing beyond Debian's gnuplot is needed."""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile


def _extent(text, key, path):
    """The six integers of attribute `key` (an extent) in `text`."""
    m = re.search(key + r'="(-?\d+) (-?\d+) (-?\d+) (-?\d+) (-?\d+) (-?\d+)"', text)
    if not m:
        sys.exit(f"{path}: no {key}")
    return [int(v) for v in m.groups()]


def _read_piece(path, name, z):
    """(extent, components, values) of field `name` in the layer of sites z
    (in the whole image's coordinates) of the .vti piece at `path`, or None
    where the piece does not reach z."""
    data = open(path, "rb").read()
    start = data.index(b"<AppendedData")
    header = data[:start].decode()
    base = data.index(b"_", start) + 1
    e = _extent(header, "Piece Extent", path)
    a = re.search(r'<DataArray type="(\w+)" Name="' + name + r'"[^>]*offset="(\d+)"', header)
    if not a:
        names = re.findall(r'Name="(\w+)"', header)
        sys.exit(f"{path}: no field '{name}' (has: {', '.join(names)})")
    if not e[4] <= z <= e[5]:
        return None
    kind, offset = a.group(1), int(a.group(2))
    fmt, size = {"Float64": ("d", 8), "Float32": ("f", 4), "UInt8": ("B", 1)}[kind]
    nx, ny, nz = e[1] - e[0] + 1, e[3] - e[2] + 1, e[5] - e[4] + 1
    pos = base + offset
    (nbytes,) = struct.unpack_from("<Q", data, pos)
    comps = nbytes // size // (nx * ny * nz)
    plane = nx * ny * comps
    values = struct.unpack_from("<" + fmt * plane, data, pos + 8 + plane * (z - e[4]) * size)
    return e, comps, values


def read_field(path, name, z=None):
    """(nx, ny, components, values) of a 2-D image, or of the slice of sites
    z of a 3-D one: a .vti, or a .pvti and the pieces it names (a run on
    several ranks)."""
    text = open(path, "rb").read(4096).decode(errors="replace")
    whole = _extent(text, "WholeExtent", path)
    nx, ny, nz = (whole[2 * k + 1] - whole[2 * k] + 1 for k in range(3))
    if nz != 1 and z is None:
        sys.exit(f"{path}: only 2-D images are supported")
    if z is not None and not 0 <= z < nz:
        sys.exit(f"{path}: no layer z = {z} (the image has {nz})")
    at = whole[4] + (z or 0)
    if "PImageData" not in text:
        _, comps, values = _read_piece(path, name, at)
        return nx, ny, comps, values
    pieces = re.findall(r'<Piece Extent="[^"]*" Source="([^"]+)"', open(path).read())
    if not pieces:
        sys.exit(f"{path}: names no pieces")
    out, comps = None, 0
    for source in pieces:
        got = _read_piece(os.path.join(os.path.dirname(path), source), name, at)
        if got is None:
            continue
        e, comps, values = got
        if out is None:
            out = [0] * (nx * ny * comps)
        px = e[1] - e[0] + 1
        for y in range(e[2], e[3] + 1):
            row = (y - e[2]) * px * comps
            dst = ((y - whole[2]) * nx + e[0] - whole[0]) * comps
            out[dst:dst + px * comps] = values[row:row + px * comps]
    if out is None:
        sys.exit(f"{path}: no piece holds the layer z = {z or 0}")
    return nx, ny, comps, out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("vti")
    p.add_argument("--field", default="temperature")
    p.add_argument("--component", type=int, default=0, help="vector component (velocity: 0, 1)")
    p.add_argument("--out", required=True)
    p.add_argument("--title", default=None)
    args = p.parse_args()
    nx, ny, comps, v = read_field(args.vti, args.field)
    with tempfile.NamedTemporaryFile("w", suffix=".dat", delete=False) as f:
        for y in range(ny):
            f.write(" ".join(f"{v[(x + nx * y) * comps + args.component]:.9g}" for x in range(nx)))
            f.write("\n")
        dat = f.name
    title = args.title or f"{args.field} ({args.vti})"
    width = 500
    height = int(width * ny / nx) + 60
    script = f"""set terminal pngcairo size {width + 120},{height}
set output '{args.out}'
set title "{title}" noenhanced
set size ratio -1
set xrange [-0.5:{nx - 0.5}]
set yrange [-0.5:{ny - 0.5}]
set palette defined (0 '#3b4cc0', 0.5 '#dddddd', 1 '#b40426')
unset key
plot '{dat}' matrix with image
"""
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
    except FileNotFoundError:
        sys.exit("plot_field.py: gnuplot not found (Debian: apt-get install gnuplot-nox)")


if __name__ == "__main__":
    main()
