"""Binary STL files read back: is the surface closed and turned one way?

``problems(data)`` lists what a slicer would trip on: a size that is not the
header's facet count, an edge not shared by exactly two facets, once each way
(a hole, or a facet turned inside out), a facet under the bed (z < 0). Corners
are matched to 1e-4 mm. ``make case`` reads every STL it writes back with it.
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
        out.append(
            tuple(tuple(round(v, 4) for v in values[3 + 3 * k : 6 + 3 * k]) for k in range(3))
        )
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
