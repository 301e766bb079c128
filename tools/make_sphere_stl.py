#!/usr/bin/env python3
"""Writes inputs/geometry/sphere.stl: a unit sphere as a binary STL, an
icosahedron whose faces are split into four `level` times (20 * 4^level
triangles), vertices on the sphere. kolb's STL example case and its tests
place it with `scale` and `offset`; its volume is below the sphere's by the
faceting (level 3: 1280 triangles, face centres at least 0.995 from the centre).

    python3 tools/make_sphere_stl.py [level] [path]
"""
import math
import struct
import sys


def icosphere(level):
    t = (1 + math.sqrt(5)) / 2
    verts = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t),
             (0, -1, -t), (0, 1, -t), (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    faces = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4),
             (11, 10, 2), (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8),
             (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]

    def unit(p):
        n = math.sqrt(sum(x * x for x in p))
        return tuple(x / n for x in p)

    verts = [unit(v) for v in verts]
    for _ in range(level):
        middle = {}

        def mid(a, b):
            key = (min(a, b), max(a, b))
            if key not in middle:
                verts.append(unit(tuple((x + y) / 2 for x, y in zip(verts[a], verts[b]))))
                middle[key] = len(verts) - 1
            return middle[key]

        split = []
        for a, b, c in faces:
            ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
            split += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        faces = split
    return verts, faces


def main():
    level = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    path = sys.argv[2] if len(sys.argv) > 2 else "inputs/geometry/sphere.stl"
    verts, faces = icosphere(level)
    with open(path, "wb") as out:
        out.write(b"kolb unit icosphere, level %d" % level + b" " * 80)
        out.seek(80)
        out.write(struct.pack("<I", len(faces)))
        for face in faces:
            p = [verts[i] for i in face]
            e1 = [p[1][k] - p[0][k] for k in range(3)]
            e2 = [p[2][k] - p[0][k] for k in range(3)]
            n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                 e1[0] * e2[1] - e1[1] * e2[0]]
            out.write(struct.pack("<3f", *n))
            for v in p:
                out.write(struct.pack("<3f", *v))
            out.write(b"\0\0")


if __name__ == "__main__":
    main()
