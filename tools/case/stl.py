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
