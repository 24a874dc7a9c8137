"""The fit of the parts in the enclosure, measured on the printed solids.

``fit(layout)`` measures, for every placed part, how far it could grow away
from the faces it rests on (``Placed.seats``) before it met a printed solid or
another part: its clearance. A part that overlaps a solid or another part has
none. It also measures the thinnest web of the shell between two openings or
an opening and an edge, and whether each window uncovers its display's digits
and stays within the display's face. ``problems(layout)`` lists what falls
short of ``tools.case.model``'s stated figures. Host only.
"""

from tools.case import mesh, model
from tools.case.parts import PARTS

_AXES = "xyz"


def _solid_boxes(layout):
    """Every filled cell of every printed part: (part name, box)."""
    out = []
    for name, steps in layout.printed.items():
        for cell in mesh.Solid(steps).cells():
            out.append((name, cell))
    return out


def _gap(part_box, other, seats):
    """How far ``part_box`` can grow (not through its ``seats``) before it overlaps
    ``other``; 0.0 if it overlaps already, None if no growth ever reaches it."""
    need = 0.0
    for axis in range(3):
        lo, hi = part_box[axis], part_box[axis + 3]
        olo, ohi = other[axis], other[axis + 3]
        if olo < hi and ohi > lo:
            continue  # overlapping on this axis already
        if olo >= hi:
            if _AXES[axis] + "+" in seats:
                return None
            need = max(need, olo - hi)
        else:
            if _AXES[axis] + "-" in seats:
                return None
            need = max(need, lo - ohi)
    return need


def fit(layout):
    """{part: (clearance mm, what is nearest)} for every placed part."""
    solids = _solid_boxes(layout)
    owners = {"lever_left": "lever_left", "lever_right": "lever_right", "door": "door"}
    out = {}
    for placed in layout.placed:
        own = owners.get(placed.name)
        best = (float("inf"), None)
        for part_box in placed.boxes:
            for name, cell in solids:
                if name == own:
                    continue
                gap = _gap(part_box, cell, placed.seats)
                if gap is not None and gap < best[0]:
                    best = (gap, name)
            for other in layout.placed:
                if other is placed:
                    continue
                for other_box in other.boxes:
                    gap = _gap(part_box, other_box, placed.seats)
                    if gap is not None and gap < best[0]:
                        best = (gap, other.name)
        out[placed.name] = (round(best[0], 2), best[1])
    return out


def overlaps(layout):
    """Pairs of placed parts whose boxes share volume (none may)."""
    out = []
    placed = layout.placed
    for i in range(len(placed)):
        for j in range(i + 1, len(placed)):
            for a in placed[i].boxes:
                for b in placed[j].boxes:
                    if all(a[k] < b[k + 3] and b[k] < a[k + 3] for k in range(3)):
                        out.append((placed[i].name, placed[j].name))
    return out


def _filled_runs(shell, edges, axis):
    """The length (mm) of every run of filled cells of ``shell`` along ``axis`` (0: x,
    1: y, 2: z); ``edges`` are the cells' boundaries on each axis."""
    across = [other for other in (0, 1, 2) if other != axis]
    cell = [0, 0, 0]
    along = edges[axis]
    for first in range(len(edges[across[0]]) - 1):
        for second in range(len(edges[across[1]]) - 1):
            cell[across[0]] = first
            cell[across[1]] = second
            run = 0.0
            for step in range(len(along)):
                cell[axis] = step
                if step < len(along) - 1 and shell.at(*cell):
                    run += along[step + 1] - along[step]
                elif run:
                    yield run
                    run = 0.0


def thinnest_wall(layout):
    """The thinnest shell material (mm): the walls themselves, and every web
    between two openings in the same face or an opening and the face's edge."""
    width, depth, height = layout.outer
    shell = mesh.Solid(layout.printed["shell"])
    xs = [v / mesh.UNIT for v in shell.xs]
    ys = [v / mesh.UNIT for v in shell.ys]
    zs = [v / mesh.UNIT for v in shell.zs]
    # Along each axis, every run of filled cells that meets the outside on one end is
    # a wall; its length is the wall's thickness there. Runs inside the material of
    # a face, between openings, are its webs.
    edges = (xs, ys, zs)
    thinnest = min(
        min(_filled_runs(shell, edges, axis), default=float("inf")) for axis in (0, 1, 2)
    )
    return round(thinnest, 2)


def window_problems(layout):
    """Texts for each window that leaves a digit covered or shows past the display."""
    out = []
    kind = "display_120" if "1.2" in getattr(layout.board, "DISPLAY_KIND", "") else "display_056"
    dw, _, dh = PARTS[kind]["size"]
    for side, (window, digits) in enumerate(zip(layout.windows, layout.digits, strict=True)):
        display = [p for p in layout.placed if p.name == ("display_left", "display_right")[side]][0]
        face = display.boxes[0]
        if not (window[0] <= digits[0] and window[1] <= digits[1]):
            out.append("window %d covers its digits" % side)
        if not (window[2] >= digits[2] and window[3] >= digits[3]):
            out.append("window %d covers its digits" % side)
        if window[0] < face[0] or window[2] > face[3] or window[1] < face[2] or window[3] > face[5]:
            out.append("window %d shows past its display's face" % side)
        if abs((face[3] - face[0]) - dw) > 0.01 or abs((face[5] - face[2]) - dh) > 0.01:
            out.append("display %d is not the board's part" % side)
    return out


def required(placed):
    """The clearance ``placed`` must have: the press fit for the LEDs, else the clearance."""
    return model.PRESS_FIT_MM if placed.part == "led_10mm" else model.CLEARANCE_MM


def problems(layout):
    """Everything that keeps the case from being printed and assembled, as texts."""
    out = []
    for name, steps in layout.printed.items():
        tris = mesh.triangles(mesh.Solid(steps))
        for problem in mesh.manifold_problems(tris)[:3]:
            out.append("%s: %s" % (name, problem))
    clearances = fit(layout)
    for placed in layout.placed:
        gap, nearest = clearances[placed.name]
        if gap < required(placed) - 1e-9:
            out.append(
                "%s: %.2f mm from %s, under %.2f mm" % (placed.name, gap, nearest, required(placed))
            )
    for a, b in overlaps(layout):
        out.append("%s and %s overlap" % (a, b))
    wall = thinnest_wall(layout)
    if wall < model.WALL_MM - 1e-9:
        out.append("a wall or web of %.2f mm, under %.2f mm" % (wall, model.WALL_MM))
    out += window_problems(layout)
    return out


def figures(layout):
    """The case's figures for make bench: outer size, smallest clearance, facets."""
    clearances = fit(layout)
    smallest = min((gap, name) for name, (gap, _) in clearances.items() if gap != float("inf"))
    facets = sum(len(mesh.triangles(mesh.Solid(steps))) for steps in layout.printed.values())
    free = min(
        clearances[p.name][0]
        for p in layout.placed
        if required(p) == model.CLEARANCE_MM and clearances[p.name][0] != float("inf")
    )
    return {
        "smallest_free_clearance_mm": free,
        "outer_mm": [round(v, 1) for v in layout.outer],
        "smallest_clearance_mm": smallest[0],
        "smallest_clearance_part": smallest[1],
        "thinnest_wall_mm": thinnest_wall(layout),
        "facets": facets,
    }
