"""A case wider than a common bed, printed in two halves joined by splice bars.

``BED_MM`` (220 x 220 mm) is the bed most printers have. A board whose case is
wider (``pico_big``'s 1.2" displays: 314.8 mm) has its three long shells, the
body, the base and the front, cut at the seam ``seam_x`` (the middle, between
the key holes) and printed as halves; ``draw`` adds the joint to the model:
a printed splice bar across the seam on each shell's inner face (under the
top and inside the back wall for the body, on the base, above and below the
key board for the front), each held by four countersunk M3 screws through the
shell's wall into heat-set inserts in the bar, two each side of the seam.
The bars, screws and inserts are parts like any other, so every fit checks
them; ``halves(part, seam)`` cuts a shell for its STL files and
``problems(assembly)`` checks the cut: each half one solid, on the bed, no
fixing or hole crossing the seam, each half held by two screws of each bar.
Host only.
"""

from tools.case.cad import CLEARANCE_MM, WALL_MM, box

BED_MM = (220.0, 220.0)
BAR_MM = 8.0  # a splice bar's thickness: an M3 insert and its wall
BAR_REACH_MM = 16.0  # how far a bar reaches each side of the seam
SCREW_IN_MM = 8.0  # a bar's screw from the seam
SPLIT = ("body", "base", "front")  # the shells a wide case prints in halves


def needed(width):
    """True if a case ``width`` mm wide does not fit the bed in one piece."""
    return width > min(BED_MM)


def seam_x(frame):
    """Where the long shells are cut: the middle, between the key holes."""
    return frame.mid


def draw(a, f, fix, adds, cuts):
    """The splice bars, their screws and inserts, for a case wider than the bed."""
    if not needed(f.W):
        return
    t = WALL_MM
    x = seam_x(f)
    x0, x1 = x - BAR_REACH_MM, x + BAR_REACH_MM
    bars = {
        # the body's top: under it, from behind the displays to the back wall
        "splice_top": (
            box(x0, f.y_back, f.z_top - BAR_MM, x1, f.D - t, f.z_top),
            "body",
            [
                ((x + s * SCREW_IN_MM, y, f.H), "-z")
                for s in (-1, 1)
                for y in _two(f.y_back, f.D - t)
            ],
        ),
        # the body's back wall: inside it, from the base up to the top's bar
        "splice_back": (
            box(x0, f.D - t - BAR_MM, 2 * t, x1, f.D - t, f.z_top - BAR_MM),
            "body",
            [
                ((x + s * SCREW_IN_MM, f.D, z), "-y")
                for s in (-1, 1)
                for z in _two(2 * t, f.z_top - BAR_MM)
            ],
        ),
        # the base: on it, from behind the front's bar to the back wall's bar
        "splice_base": (
            box(x0, f.y_back, t, x1, f.D - t - BAR_MM - CLEARANCE_MM, t + BAR_MM),
            "base",
            [
                ((x + s * SCREW_IN_MM, y, 0), "+z")
                for s in (-1, 1)
                for y in _two(f.y_back, f.D - t - BAR_MM - CLEARANCE_MM)
            ],
        ),
    }
    # the front: above and below the key board, behind the panel
    kb_top, kb_bottom = f.zc + 14.5, f.zc - 14.5
    for name, z0, z1 in (
        ("splice_front_upper", kb_top + 1.0, min(kb_top + 1.0 + 2 * BAR_MM, f.z_top - 1.0)),
        ("splice_front_lower", max(2 * t, kb_bottom - 1.0 - 2 * BAR_MM), kb_bottom - 1.0),
    ):
        bars[name] = (
            box(x0, t, z0, x1, t + BAR_MM, z1),
            "front",
            [((x + s * SCREW_IN_MM, 0, (z0 + z1) / 2), "+y") for s in (-1, 1)],
        )
    body_bars = ("splice_top", "splice_back")  # meet under the top's back edge
    for name, (solid, shell, screws) in bars.items():
        touches = [shell] + [b for b in body_bars if name in body_bars and b != name]
        held = []
        for at, along in screws:
            sink, hole = fix.screw(at, along, "m3", 6.0, t, shell, name, "close")
            cuts[shell].append(sink)
            solid = solid - hole
            touches.append("screw_m3_%d" % fix.count["screw_m3"])
            touches.append("insert_m3_%d" % fix.count["screw_m3"])
            held.append("screw_m3_%d" % fix.count["screw_m3"])
        bed = "-y" if name == "splice_back" else "+z"  # the tall one lies on its face
        a.add(name, "printed", solid, touches, bed=bed, step="close")
        a.splices.append((name, shell, held))


def _two(lo, hi):
    """Two places a quarter in from either end of a span."""
    return (lo + (hi - lo) / 4, hi - (hi - lo) / 4)


def halves(part, seam):
    """(left, right): a printed shell cut at ``seam`` (x), as its STL files hold it."""
    bb = part.solid.bounding_box()
    big = 10.0
    left = box(bb.min.X - big, bb.min.Y - big, bb.min.Z - big, seam, bb.max.Y + big, bb.max.Z + big)
    right = box(
        seam, bb.min.Y - big, bb.min.Z - big, bb.max.X + big, bb.max.Y + big, bb.max.Z + big
    )
    return part.solid & left, part.solid & right


def printed_pieces(assembly):
    """[(name, Part-like (solid, bed))] every printed piece as it goes on the bed: the
    split shells as their halves."""
    from tools.case.cad import Part

    out = []
    split = needed(assembly.outer[0]) if assembly.outer else False
    for name, part in sorted(assembly.parts.items()):
        if not part.printed:
            continue
        if split and name in SPLIT:
            left, right = halves(part, seam_x(assembly.frame))
            for side, solid in (("left", left), ("right", right)):
                out.append(
                    (
                        "%s_%s" % (name, side),
                        Part(name + "_" + side, "printed", solid, bed=part.bed),
                    )
                )
        else:
            out.append((name, part))
    return out


def on_the_bed(piece):
    """True if a printed piece, laid as it prints, fits ``BED_MM`` (turned either way)."""
    from tools.case import fits

    size = fits.on_bed(piece).bounding_box().size
    return sorted((size.X, size.Y)) <= sorted(BED_MM) and max(size.X, size.Y) <= max(BED_MM)


def problems(assembly):
    """Every printed piece on the bed; and where the case is split, the joint's checks:
    each half one solid; no screw, insert or key crossing the seam; each half of a
    shell held by two screws of each of its bars (one of each front bar)."""
    out = []
    if not assembly.outer:
        return out
    for name, piece in printed_pieces(assembly):
        if not on_the_bed(piece):
            out.append("%s does not fit a %g x %g mm bed" % (name, *BED_MM))
    if not needed(assembly.outer[0]):
        return out
    seam = seam_x(assembly.frame)
    for name, piece in printed_pieces(assembly):
        count = len(piece.solid.solids())
        if count != 1:
            out.append("%s is %d pieces, not one" % (name, count))
    slab = box(seam - 0.5, -50, -50, seam + 0.5, assembly.outer[1] + 50, assembly.outer[2] + 50)
    for name, part in sorted(assembly.parts.items()):
        if part.kind.startswith(("screw", "insert", "key")) and (slab & part.solid).volume > 1e-3:
            out.append("the seam at x = %.1f crosses %s" % (seam, name))
    for bar, shell, screws in assembly.splices:
        for side, keep in (("left", lambda c: c < seam), ("right", lambda c: c > seam)):
            held = [n for n in screws if keep(assembly.parts[n].solid.bounding_box().center().X)]
            if len(held) < (1 if bar.startswith("splice_front") else 2):
                out.append("%s holds %s's %s half by %d screws" % (bar, shell, side, len(held)))
    return out
