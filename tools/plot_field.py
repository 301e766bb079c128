#!/usr/bin/env python3
"""Colour map of one scalar field of a kolb VTK image (.vti) as a PNG.

    python3 tools/plot_field.py out/rayleigh_taylor/fields_000006000.vti \
        --field temperature --out out/rayleigh_taylor/rt_temperature.png

Reads kolb's own .vti layout (raw appended data, UInt64 headers), 2-D
cases only, writes the field as a matrix and draws it with gnuplot
(pngcairo), so nothing beyond Debian's gnuplot is needed."""
import argparse
import re
import struct
import subprocess
import sys
import tempfile


def read_field(path, name, z=None):
    """(nx, ny, components, values) of a 2-D image, or of the slice of sites
    z of a 3-D one."""
    data = open(path, "rb").read()
    start = data.index(b"<AppendedData")
    header = data[:start].decode()
    base = data.index(b"_", start) + 1
    m = re.search(r'WholeExtent="0 (\d+) 0 (\d+) 0 (\d+)"', header)
    nx, ny, nz = (int(v) + 1 for v in m.groups())
    if nz != 1 and z is None:
        sys.exit(f"{path}: only 2-D images are supported")
    if z is not None and not 0 <= z < nz:
        sys.exit(f"{path}: no layer z = {z} (the image has {nz})")
    a = re.search(r'<DataArray type="(\w+)" Name="' + name + r'"[^>]*offset="(\d+)"', header)
    if not a:
        names = re.findall(r'Name="(\w+)"', header)
        sys.exit(f"{path}: no field '{name}' (has: {', '.join(names)})")
    kind, offset = a.group(1), int(a.group(2))
    fmt, size = {"Float64": ("d", 8), "Float32": ("f", 4), "UInt8": ("B", 1)}[kind]
    pos = base + offset
    (nbytes,) = struct.unpack_from("<Q", data, pos)
    count = nbytes // size
    comps = count // (nx * ny * nz)
    plane = nx * ny * comps
    first = plane * (z or 0)
    values = struct.unpack_from("<" + fmt * plane, data, pos + 8 + first * size)
    return nx, ny, comps, values


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
