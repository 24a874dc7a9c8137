"""Printed parts as solids on a grid, their surfaces as triangles, STL files.

A printed part (``tools.case.model``: "add" and "cut" steps of boxes) becomes
a set of filled cells on the grid its own box edges make (in hundredths of a
millimetre, integers, so two faces meet exactly); its surface is every cell
face between a filled and an empty cell, two triangles each, wound so that
the normal points out. ``manifold_problems`` checks a triangle list the way a
slicer needs it: every edge shared by exactly two triangles, once in each
direction, and no triangle without area. Host only.
"""

import struct
from bisect import bisect_left

UNIT = 100  # grid units per millimetre


def _units(value):
    return int(round(value * UNIT))


class Solid:
    """A printed part's filled cells: ``xs``, ``ys``, ``zs`` the grid lines (units),
    ``filled`` a bytearray of the cells, x fastest."""

    def __init__(self, steps):
        boxes = [[_units(v) for v in b] for _, group in steps for b in group]
        self.xs = sorted({b[0] for b in boxes} | {b[3] for b in boxes})
        self.ys = sorted({b[1] for b in boxes} | {b[4] for b in boxes})
        self.zs = sorted({b[2] for b in boxes} | {b[5] for b in boxes})
        nx, ny, nz = len(self.xs) - 1, len(self.ys) - 1, len(self.zs) - 1
        self.shape = (nx, ny, nz)
        self.filled = bytearray(nx * ny * nz)
        for kind, group in steps:
            value = 1 if kind == "add" else 0
            for b in group:
                b = [_units(v) for v in b]
                i0, i1 = bisect_left(self.xs, b[0]), bisect_left(self.xs, b[3])
                j0, j1 = bisect_left(self.ys, b[1]), bisect_left(self.ys, b[4])
                k0, k1 = bisect_left(self.zs, b[2]), bisect_left(self.zs, b[5])
                for k in range(k0, k1):
                    for j in range(j0, j1):
                        row = (k * ny + j) * nx
                        self.filled[row + i0 : row + i1] = bytes([value]) * (i1 - i0)

    def at(self, i, j, k):
        nx, ny, nz = self.shape
        if 0 <= i < nx and 0 <= j < ny and 0 <= k < nz:
            return self.filled[(k * ny + j) * nx + i]
        return 0

    def cells(self):
        """Every filled cell as a box in millimetres."""
        nx, ny, nz = self.shape
        xs, ys, zs = self.xs, self.ys, self.zs
        for k in range(nz):
            for j in range(ny):
                row = (k * ny + j) * nx
                for i in range(nx):
                    if self.filled[row + i]:
                        yield (
                            xs[i] / UNIT,
                            ys[j] / UNIT,
                            zs[k] / UNIT,
                            xs[i + 1] / UNIT,
                            ys[j + 1] / UNIT,
                            zs[k + 1] / UNIT,
                        )

    def faces(self):
        """The surface: (axis, sign, quad corners in units, counter-clockwise from
        outside) for every face between a filled and an empty cell."""
        nx, ny, nz = self.shape
        xs, ys, zs = self.xs, self.ys, self.zs
        out = []
        for k in range(nz):
            for j in range(ny):
                for i in range(nx):
                    if not self.filled[(k * ny + j) * nx + i]:
                        continue
                    x0, x1, y0, y1, z0, z1 = xs[i], xs[i + 1], ys[j], ys[j + 1], zs[k], zs[k + 1]
                    if not self.at(i - 1, j, k):
                        out.append(
                            (0, -1, ((x0, y0, z0), (x0, y0, z1), (x0, y1, z1), (x0, y1, z0)))
                        )
                    if not self.at(i + 1, j, k):
                        out.append((0, 1, ((x1, y0, z0), (x1, y1, z0), (x1, y1, z1), (x1, y0, z1))))
                    if not self.at(i, j - 1, k):
                        out.append(
                            (1, -1, ((x0, y0, z0), (x1, y0, z0), (x1, y0, z1), (x0, y0, z1)))
                        )
                    if not self.at(i, j + 1, k):
                        out.append((1, 1, ((x0, y1, z0), (x0, y1, z1), (x1, y1, z1), (x1, y1, z0))))
                    if not self.at(i, j, k - 1):
                        out.append(
                            (2, -1, ((x0, y0, z0), (x0, y1, z0), (x1, y1, z0), (x1, y0, z0)))
                        )
                    if not self.at(i, j, k + 1):
                        out.append((2, 1, ((x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1))))
        return out


def triangles(solid):
    """The surface of ``solid`` as triangles of three (x, y, z) corners in units."""
    out = []
    for _, _, (a, b, c, d) in solid.faces():
        out.append((a, b, c))
        out.append((a, c, d))
    return out


def manifold_problems(tris):
    """What keeps ``tris`` from being a closed manifold: a list of texts, empty if none."""
    problems = []
    edges = {}
    for index, tri in enumerate(tris):
        a, b, c = tri
        if a == b or b == c or a == c or _area2(a, b, c) == 0:
            problems.append("triangle %d has no area" % index)
        for p, q in ((a, b), (b, c), (c, a)):
            edges[(p, q)] = edges.get((p, q), 0) + 1
    for (p, q), count in edges.items():
        back = edges.get((q, p), 0)
        if count != 1 or back != 1:
            problems.append("edge %s-%s: %d forward, %d back" % (p, q, count, back))
            if len(problems) > 20:
                break
    return problems


def _area2(a, b, c):
    u = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
    v = (c[0] - a[0], c[1] - a[1], c[2] - a[2])
    n = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
    return n[0] * n[0] + n[1] * n[1] + n[2] * n[2]


def stl_bytes(tris, name):
    """Binary STL of ``tris`` (units), in millimetres."""
    header = ("clock case: %s" % name).encode()[:80].ljust(80, b" ")
    parts = [header, struct.pack("<I", len(tris))]
    for a, b, c in tris:
        u = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
        v = (c[0] - a[0], c[1] - a[1], c[2] - a[2])
        n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
        size = max(abs(n[0]), abs(n[1]), abs(n[2])) or 1
        parts.append(
            struct.pack(
                "<12fH",
                n[0] / size,
                n[1] / size,
                n[2] / size,
                *(coord / UNIT for point in (a, b, c) for coord in point),
                0,
            )
        )
    return b"".join(parts)
