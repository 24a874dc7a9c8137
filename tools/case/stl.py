"""Binary STL files read back: is the surface closed and turned one way?

``problems(data)`` lists what a slicer would trip on: a size that is not the
header's facet count, an edge not shared by exactly two facets, once each way
(a hole, or a facet turned inside out), a facet under the bed (z < 0). Corners
are matched exactly, as stored (32-bit floats): two corners a rounding apart are
an open edge, which a slicer's repair (admesh's "edges fixed") has to join.
``make case`` reads every STL it writes back with it.
Host only.
"""

import struct


def facets(data):
    """The corners of every facet: [((x, y, z), (x, y, z), (x, y, z)), ...]."""
    count = struct.unpack("<I", data[80:84])[0]
    if len(data) != 84 + 50 * count:
        raise ValueError("%d bytes, not the 84 + 50 x %d of its header" % (len(data), count))
    out = []
    for index in range(count):
        values = struct.unpack_from("<12f", data, 84 + 50 * index)
        out.append(tuple(values[3 + 3 * k : 6 + 3 * k] for k in range(3)))
    return out


def problems(data):
    try:
        corners = facets(data)
    except ValueError as error:
        return [str(error)]
    out = []
    edges = {}
    for facet in corners:
        for k in range(3):
            edge = (facet[k], facet[(k + 1) % 3])
            edges[edge] = edges.get(edge, 0) + 1
    open_edges = [edge for edge, n in edges.items() if edges.get((edge[1], edge[0])) != n]
    if open_edges:
        out.append(
            "%d edges not shared once each way, e.g. %s-%s" % (len(open_edges), *open_edges[0])
        )
    low = min((c[2] for facet in corners for c in facet), default=0.0)
    if low < -1e-4:
        out.append("a facet %.3f mm under the bed" % -low)
    if len(corners) < 4:
        out.append("%d facets: no solid" % len(corners))
    return out


GRID_MM = 1e-4  # an STL's corners are written on this grid: far under a printer's step


def export(piece, path):
    """Write ``piece`` (a printed part, turned as it prints: tools.case.fits.on_bed)
    as a binary STL, its corners put on ``GRID_MM``: two faces' corners that the
    kernel computed a rounding apart (3.6e-15 mm after the move onto the bed) become
    the one corner they are, so every edge is shared exactly."""
    import struct

    from build123d import export_stl

    from tools.case import fits

    export_stl(fits.on_bed(piece), path, tolerance=0.02, angular_tolerance=0.2)
    with open(path, "rb") as handle:
        data = bytearray(handle.read())
    count = struct.unpack_from("<I", data, 80)[0]
    for index in range(count):
        at = 84 + 50 * index
        values = struct.unpack_from("<9f", data, at + 12)  # past the normal
        snapped = [round(v / GRID_MM) * GRID_MM + 0.0 for v in values]
        # the normal anew from the corners as written, which it must agree with
        struct.pack_into("<12f", data, at, *_normal(snapped), *snapped)
    with open(path, "wb") as handle:
        handle.write(data)


def _normal(corners):
    ax, ay, az, bx, by, bz, cx, cy, cz = corners
    ux, uy, uz = bx - ax, by - ay, bz - az
    vx, vy, vz = cx - ax, cy - ay, cz - az
    nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
    length = (nx * nx + ny * ny + nz * nz) ** 0.5
    return (nx / length, ny / length, nz / length) if length else (0.0, 0.0, 0.0)


def admesh_repairs(path):
    """What admesh (Debian's STL checker and repairer, ``make case-tools``) would
    repair in the file at ``path``: {"edges fixed": n, ...} with only the non-zero
    counts, or None where admesh is not installed. A slicer repairs the same."""
    import shutil
    import subprocess

    if shutil.which("admesh") is None:
        return None
    report = subprocess.run(["admesh", path], capture_output=True, text=True, check=True).stdout
    out = {}
    for line in report.splitlines():
        name, _, value = line.partition(":")
        name = name.strip().lower()
        if name in _ADMESH_REPAIRS:
            count = int(value.split()[0])
            if count:
                out[name] = count
    return out


# admesh's report lines that count a repair (its "Number of parts" and volumes are
# figures, not repairs)
_ADMESH_REPAIRS = (
    "degenerate facets",
    "edges fixed",
    "facets removed",
    "facets added",
    "facets reversed",
    "backwards edges",
    "normals fixed",
)
