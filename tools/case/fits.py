"""The fits of the clock, measured by the kernel on the solids of ``tools.case.cad``.

Each check returns the problems it finds as texts (none: it fits), and each can
be made to fail on a model broken on purpose (tests/test_case.py):

- ``interference``: no two parts share volume (the booleans' common volume);
- ``clearances``: two parts not meant to touch (``Part.touches``) stay at least
  ``TOLERANCE_MM`` apart (the kernel's shortest distance);
- ``cell_path``: the cell, moved straight down out of its holder, through the
  door's opening and past the base, meets nothing (its swept volume);
- ``usb_reach``: a cable's plug, pushed from outside into the controller's and
  the charger's USB sockets, meets nothing but the socket it goes into;
- ``mount_problems``: the same, and the controller meeting nothing, on every way
  the controller is bought (``tools.case.parts.MOUNTS``: the height its headers
  stand it at);
- ``pieces``: every part is one solid (no sliver cut off, nothing in two);
- ``strokes``: each lever, pressed through its stroke, meets nothing but its
  switch's plunger until its cap lands on the top, and lands there;
- ``sweep``: nothing but the levers stands over the top, where a hand sweeping
  off a lever passes (a slab over the whole top);
- ``heads``: every countersunk head sits in a countersink (a board's plain hole
  takes a pan head);
- ``bosses``: every heat-set insert has ``BOSS_WALL_MM`` of plastic all round;
- ``thickness``: every printed part is at least ``MIN_THICKNESS_MM`` thick,
  measured inwards from the middle of each flat face;
- ``supports``: laid on the bed as the part says, no face of a printed part
  hangs over air steeper than 45 degrees except a bridge of ``BRIDGE_MM`` or less.

Host only. OpenCascade's booleans are slow: every pair is first sorted out by
its bounding boxes.
"""

import math

from build123d import Location, Pos

from tools.case.cad import BOSS_WALL_MM, box, rod
from tools.case.limits import BRIDGE_MM, MIN_THICKNESS_MM, TOLERANCE_MM
from tools.case.parts import PARTS

VOLUME_EPS = 1e-3  # mm3: the booleans' rounding; a real overlap is far more
# The quarter and half turns that lay a part on the bed, as exact matrices (rows of
# x, y, z): a turn built from degrees carries sin/cos rounding (6e-17), which leaves
# the bed face's corners at 7.1e-15 and 7.3e-15 mm, and an STL whose shared edges
# then meet only within a tolerance (a slicer's repair "fixes" them).
_BEDS = {
    "+z": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "-z": ((1, 0, 0), (0, -1, 0), (0, 0, -1)),  # half a turn about x
    "-y": ((1, 0, 0), (0, 0, -1), (0, 1, 0)),  # a quarter turn about x: the front face down
    "+y": ((1, 0, 0), (0, 0, 1), (0, -1, 0)),
}


def _near(a, b, gap):
    ba, bb = a.bounding_box(), b.bounding_box()
    return (
        ba.min.X - gap < bb.max.X
        and bb.min.X - gap < ba.max.X
        and ba.min.Y - gap < bb.max.Y
        and bb.min.Y - gap < ba.max.Y
        and ba.min.Z - gap < bb.max.Z
        and bb.min.Z - gap < ba.max.Z
    )


def _common(a, b):
    if not _near(a, b, 0.0):
        return 0.0
    return (a & b).volume


def pairs(assembly, gap=0.0):
    """Every pair of parts whose bounding boxes come within ``gap``."""
    names = sorted(assembly.parts)
    out = []
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            if _near(assembly.parts[first].solid, assembly.parts[second].solid, gap):
                out.append((first, second))
    return out


def interference(assembly):
    """{(a, b): common volume mm3} for every pair that shares volume."""
    out = {}
    for a, b in pairs(assembly):
        volume = (assembly.parts[a].solid & assembly.parts[b].solid).volume
        if volume > VOLUME_EPS:
            out[(a, b)] = round(volume, 3)
    return out


def distance(a, b):
    """The kernel's shortest distance between two solids (0 where they touch)."""
    from OCP.BRepExtrema import BRepExtrema_DistShapeShape

    measure = BRepExtrema_DistShapeShape(a.wrapped, b.wrapped)
    return measure.Value()


def clearances(assembly):
    """{(a, b): distance} for every pair not meant to touch that comes within
    twice the tolerance; the smallest of them is the case's smallest clearance."""
    out = {}
    for a, b in pairs(assembly, 2 * TOLERANCE_MM):
        if assembly.touching(a, b):
            continue
        out[(a, b)] = round(distance(assembly.parts[a].solid, assembly.parts[b].solid), 3)
    return out


def swept_cell(assembly, path):
    """The volume a cell passes through on its way out, straight down: its
    cylinder at the start and the end of the path and the box between their axes."""
    name, _, length = path
    cell = assembly.parts[name].solid
    bb = cell.bounding_box()
    end = Pos(0, 0, -length) * cell
    between = box(bb.min.X, bb.min.Y, bb.center().Z - length, bb.max.X, bb.max.Y, bb.center().Z)
    return cell + end + between


def cell_path(assembly):
    """The parts each cell's way out meets (its door, opened, and the door's
    screws, taken out, are not in it)."""
    out = []
    for path in assembly.cell_paths:
        name, door, _ = path
        swept = swept_cell(assembly, path)
        for other, part in sorted(assembly.parts.items()):
            if other in (name, door) or door in part.touches and other.startswith("screw"):
                continue
            volume = _common(swept, part.solid)
            if volume > VOLUME_EPS:
                out.append(
                    "%s's way out through %s meets %s (%.1f mm3)" % (name, door, other, volume)
                )
    return out


def plug(spec, mouth, depth):
    """A cable's plug pushed into the socket at ``mouth`` (its face, the plug
    coming from +y): the metal shell, then the overmould out to ``depth``."""
    x, y, z = mouth
    ow, _, oh = spec["size"]
    mw, ml, mh = spec["metal"]
    metal = box(x - mw / 2, y, z - mh / 2, x + mw / 2, y + ml, z + mh / 2)
    mould = box(x - ow / 2, y + ml, z - oh / 2, x + ow / 2, depth, z + oh / 2)
    return metal + mould


def usb_reach(assembly):
    """The parts a plug meets on its way in to each USB socket."""
    out = []
    for owner, kind, mouth in assembly.usb:
        solid = plug(PARTS[kind], mouth, assembly.outer[1] + 20.0)
        for name, part in sorted(assembly.parts.items()):
            if name == owner:
                continue
            volume = _common(solid, part.solid)
            if volume > VOLUME_EPS:
                out.append("the %s's plug meets %s (%.1f mm3)" % (owner, name, volume))
    return out


def _mount_lifts(assembly):
    """(mount, what, mm over the drawn controller) for each way it is bought."""
    mounts = assembly.frame.mounts
    lowest = min(lift for _, _, lift in mounts)
    return [(name, what, round(lift - lowest, 3)) for name, what, lift in mounts]


def _controller_plug(assembly, dz):
    for owner, kind, (x, y, z) in assembly.usb:
        if owner == "controller":
            return plug(PARTS[kind], (x, y, z + dz), assembly.outer[1] + 20.0)
    raise ValueError("no controller socket in the model")


def mount_problems(assembly):
    """On each mount the controller, moved to its height, meets nothing it is not
    meant to touch, and its cable's plug meets nothing but the controller."""
    out = []
    if "controller" not in assembly.parts:
        return out
    ctl = assembly.parts["controller"]
    for name, _, dz in _mount_lifts(assembly):
        moved = Pos(0, 0, dz) * ctl.solid
        plug_solid = _controller_plug(assembly, dz)
        for other, part in sorted(assembly.parts.items()):
            if other == "controller":
                continue
            if not assembly.touching("controller", other):
                volume = _common(moved, part.solid)
                if volume > VOLUME_EPS:
                    out.append("%s: the controller meets %s (%.1f mm3)" % (name, other, volume))
            volume = _common(plug_solid, part.solid)
            if volume > VOLUME_EPS:
                out.append("%s: the controller's plug meets %s (%.1f mm3)" % (name, other, volume))
    return out


def usb_clearances(assembly):
    """{mount: mm} the least room round the controller's plug, pushed home, on each
    mount (negative: it overlaps something; goal: at least 0)."""
    out = {}
    for name, _, dz in _mount_lifts(assembly):
        plug_solid = _controller_plug(assembly, dz)
        least = None
        for other, part in sorted(assembly.parts.items()):
            if other == "controller" or not _near(plug_solid, part.solid, 5.0):
                continue
            volume = _common(plug_solid, part.solid)
            gap = -volume if volume > VOLUME_EPS else distance(plug_solid, part.solid)
            least = gap if least is None else min(least, gap)
        out[name] = round(least, 2) if least is not None else None
    return out


STROKE_EPS_MM = 0.01  # short of the stop: nothing may be met yet


def _pressed(assembly, lever, moving, depth):
    """The lever and the parts that move with it, pressed ``depth`` mm down."""
    return [(n, Pos(0, 0, -depth) * assembly.parts[n].solid) for n in (lever, *moving)]


def strokes(assembly):
    """Each lever pressed to just short of its stop meets nothing but its own
    switch (its keeper presses the plunger); pressed just past it, its cap meets
    the body's top, and nothing else."""
    from tools.case.cad import CAP_TRAVEL_MM

    out = []
    for lever, moving in assembly.strokes:
        switch = assembly.parts[lever].name.replace("lever_", "switch_")
        names = {lever, *moving}
        for depth, stop in (
            (CAP_TRAVEL_MM - STROKE_EPS_MM, False),
            (CAP_TRAVEL_MM + STROKE_EPS_MM, True),
        ):
            met = set()
            for name, solid in _pressed(assembly, lever, moving, depth):
                for other, part in sorted(assembly.parts.items()):
                    if other in names or other == switch:
                        continue
                    if _common(solid, part.solid) > VOLUME_EPS / 100:
                        met.add((name, other))
            if stop and (lever, "body") not in met:
                out.append("%s: its cap does not land on the top at its stop" % lever)
            for name, other in sorted(met):
                if not (stop and (name, other) == (lever, "body")):
                    out.append("%s: pressed %.2f mm, %s meets %s" % (lever, depth, name, other))
    return out


def landing_mm2(assembly, lever):
    """The area the lever's cap lands on at its stop (mm2): its overlap with the
    body, pressed 0.1 mm past the stop, over that depth."""
    from tools.case.cad import CAP_TRAVEL_MM

    depth = 0.1
    pressed = Pos(0, 0, -(CAP_TRAVEL_MM + depth)) * assembly.parts[lever].solid
    return round(_common(pressed, assembly.parts["body"].solid) / depth, 1)


def _hand(assembly):
    """A slab over the whole top, from its face up: where a hand sweeps."""
    w, d, h = assembly.outer
    return box(-5, -5, h, w + 5, d + 5, h + 30)


def sweep(assembly):
    """The parts a hand sweeping over the top meets (the levers are what it presses)."""
    if assembly.outer is None:
        return []
    hand = _hand(assembly)
    moving = {lever for lever, _ in assembly.strokes}
    for _, parts_moving in assembly.strokes:
        moving.update(parts_moving)
    out = []
    for name, part in sorted(assembly.parts.items()):
        if name in moving:
            continue
        volume = _common(hand, part.solid)
        if volume > VOLUME_EPS:
            out.append("%s stands over the top where a hand sweeps (%.1f mm3)" % (name, volume))
    return out


def led_clearance_mm(assembly):
    """How far under the top's face (the swept hand) the highest LED stands."""
    tops = [p.solid.bounding_box().max.Z for n, p in assembly.parts.items() if n.startswith("led")]
    return round(assembly.outer[2] - max(tops), 2)


COUNTERSUNK = ("screw_m2", "screw_m3")  # the kinds whose head needs a countersink


def heads(assembly):
    """Countersunk screws through a part that is not printed (a board's plain hole:
    the head bears on its edge); only the printed parts are drawn with countersinks."""
    out = []
    for name, part in sorted(assembly.parts.items()):
        if part.kind not in COUNTERSUNK:
            continue
        through = [t for t in sorted(part.touches) if not t.startswith("insert")]
        for other in through:
            if other in assembly.parts and not assembly.parts[other].printed:
                out.append("%s: a countersunk head on %s, which has no countersink" % (name, other))
    return out


def bosses(assembly):
    """Inserts without their wall of plastic all round (and along their length)."""
    out = []
    for into, insert, mouth, along, length in assembly.bosses:
        hole = PARTS[insert.rsplit("_", 1)[0]]["hole_mm"]
        shell = rod(mouth, along, length, hole + 2 * BOSS_WALL_MM) - rod(mouth, along, length, hole)
        missing = (shell - assembly.parts[into].solid).volume
        if missing > VOLUME_EPS:
            out.append(
                "%s in %s: %.1f mm3 of its %.1f mm wall missing"
                % (insert, into, missing, BOSS_WALL_MM)
            )
    return out


def _ray(solid, start, direction):
    """How far a ray from ``start`` goes before it leaves ``solid``'s material."""
    from OCP.BRepIntCurveSurface import BRepIntCurveSurface_Inter
    from OCP.gp import gp_Dir, gp_Lin, gp_Pnt

    line = gp_Lin(gp_Pnt(start.X, start.Y, start.Z), gp_Dir(direction.X, direction.Y, direction.Z))
    hits = BRepIntCurveSurface_Inter()
    hits.Init(solid.wrapped, line, 1e-6)
    best = None
    while hits.More():
        w = hits.W()
        if w > 1e-2 and (best is None or w < best):
            best = w
        hits.Next()
    return None if best is None else best + 1e-3


def thinnest(solid):
    """(thickness mm, where) at the thinnest flat face: from each flat face's
    middle, inwards, to the next face of the same solid."""
    best = (math.inf, None)
    for face in solid.faces():
        if face.geom_type.name != "PLANE":
            continue
        centre = face.center()
        if not face.is_inside(centre):
            continue
        normal = face.normal_at(centre)
        d = _ray(solid, centre - normal * 1e-3, -normal)
        if d is not None and d < best[0]:
            best = (d, (round(centre.X, 1), round(centre.Y, 1), round(centre.Z, 1)))
    return best


def thickness(assembly):
    out = []
    for name, part in sorted(assembly.parts.items()):
        if not part.printed:
            continue
        value, where = thinnest(part.solid)
        if value < MIN_THICKNESS_MM - 1e-6:
            out.append(
                "%s is %.2f mm thin at %s, under %.1f mm" % (name, value, where, MIN_THICKNESS_MM)
            )
    return out


def on_bed(part):
    """The printed part turned as it is printed, its lowest point at z = 0."""
    from OCP.gp import gp_Trsf

    rows = _BEDS[part.bed]
    turn = gp_Trsf()
    turn.SetValues(*rows[0], 0, *rows[1], 0, *rows[2], 0)
    turned = Location(turn) * part.solid
    return Location((0, 0, -turned.bounding_box().min.Z)) * turned


def overhangs(part):
    """The faces of ``part``, as printed, that hang over air and are no bridge."""
    solid = on_bed(part)
    limit = -math.cos(math.radians(45)) - 1e-3
    out = []
    for face in solid.faces():
        bb = face.bounding_box()
        if bb.min.Z < 1e-3:
            continue  # on the bed
        # a bridge spans between its ends; not knowing which edges rest on the
        # layer under it, take the longer side
        span = max(bb.max.X - bb.min.X, bb.max.Y - bb.min.Y)
        if face.geom_type.name == "PLANE":
            normal = face.normal_at(face.center())
            if normal.Z >= limit:
                continue
        elif span <= BRIDGE_MM:
            continue  # a round hole or a countersink across: bridged or self-supporting
        if face.geom_type.name == "PLANE" and span <= BRIDGE_MM:
            continue
        out.append(
            "%s: a face at %.1f mm over the bed, %.1f mm across, needs support"
            % (part.name, bb.min.Z, span)
        )
    return out


def supports(assembly):
    out = []
    for _, part in sorted(assembly.parts.items()):
        if part.printed:
            out += overhangs(part)
    return out


def pieces(assembly):
    """Parts that are not one solid (a cut that left a sliver, a part in two)."""
    return [
        "%s is %d pieces, not one" % (name, len(part.solid.solids()))
        for name, part in sorted(assembly.parts.items())
        if len(part.solid.solids()) != 1
    ]


def problems(assembly, full=True):
    """Everything that keeps the clock from being printed and put together."""
    out = ["%s and %s share %.3f mm3" % (a, b, v) for (a, b), v in interference(assembly).items()]
    out += [
        "%s and %s are %.2f mm apart, under %.1f mm" % (a, b, d, TOLERANCE_MM)
        for (a, b), d in clearances(assembly).items()
        if d < TOLERANCE_MM - 1e-6
    ]
    out += pieces(assembly) + cell_path(assembly) + usb_reach(assembly) + bosses(assembly)
    out += mount_problems(assembly) + strokes(assembly) + sweep(assembly) + heads(assembly)
    from tools.case import joints

    out += joints.problems(assembly)
    if full:
        out += thickness(assembly) + supports(assembly)
    return out
