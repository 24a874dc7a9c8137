"""The cells: each in its holder, upside down over its door in the base.

A holder (Keystone 1042) lies open side down on the base, between two stops at
its ends and the two bosses of its door's screws at its sides, and two ribs from
the top hold it down. Under it the base has an opening the cell's outline and
the clearance wide: the door, a plate in the opening with a lip under the base
and four M2 screws into inserts, comes off and the cell drops out (the fits
check its way out, ``tools.case.fits.cell_path``). ``pico_big``'s two cells
stand side by side, each with its own door. Host only.
"""

from build123d import Pos

from tools.case.cad import CLEARANCE_MM, LID_LIP_MM, WALL_MM, box, rod
from tools.case.parts import PARTS


def _suffix(index):
    return "" if index == 0 else "_%d" % (index + 1)


def draw(a, f, fix, adds, cuts):
    t, c = WALL_MM, CLEARANCE_MM
    rb2 = f.rb2
    holder = PARTS["cell_holder"]
    hw, hl, hh = holder["size"]
    cd, clen = holder["cell"]
    axis_z = t + hh - holder["floor_mm"] - cd / 2
    a.cell_paths = []
    for index in range(f.cells):
        n = _suffix(index)
        dx = -index * f.cell_pitch
        hx0, hx1, hcx = f.hx0 + dx, f.hx1 + dx, f.hcx + dx
        xb_left, xb_right = f.xb_left + dx, f.xb_right + dx
        cell = Pos(hcx, f.hcy - clen / 2, axis_z) * rod((0, 0, 0), "+y", clen, cd)
        # the end contacts: a disc the cell's width at each end, pressed by the cell
        cm = holder["contact_mm"]
        contacts = [
            Pos(hcx, f.hcy - clen / 2 - cm, axis_z) * rod((0, 0, 0), "+y", cm, cd),
            Pos(hcx, f.hcy + clen / 2, axis_z) * rod((0, 0, 0), "+y", cm, cd),
        ]
        holder_solid = (
            box(hx0, f.hy0, t, hx1, f.hy1, t + hh)
            - cell
            - contacts[0]
            - contacts[1]
            - box(hcx - cd / 2, f.hcy - clen / 2, t - 1, hcx + cd / 2, f.hcy + clen / 2, axis_z)
        )
        a.add("cell" + n, "cell", cell, ("cell_holder" + n,), step="cell")
        for end, contact in zip(("minus", "plus"), contacts, strict=True):
            a.add(
                "cell_contact_%s%s" % (end, n),
                "cell_contact",
                contact,
                ("cell" + n, "cell_holder" + n),
                step="base",
            )
        a.add(
            "cell_holder" + n,
            "cell_holder",
            holder_solid,
            ("base", "body", "cell" + n, "cell_contact_minus" + n, "cell_contact_plus" + n),
            step="base",
        )
        a.cell_paths.append(("cell" + n, "door" + n, axis_z + cd / 2 + LID_LIP_MM + 4.0))
        for y in (f.hy0 - c - t, f.hy1 + c):  # stops at the holder's ends
            adds["base"].append(box(hx0 + 3, y, t, hx1 - 3, y + t, t + 4))
        for y in (f.hy0 + 2, f.hy1 - 2 - t):  # ribs from the top hold the holder down
            adds["body"].append(box(hx0 + 3, y, t + hh, hx1 - 3, y + t, f.z_top))
        ox, oy = cd / 2 + c, clen / 2 + c
        cuts["base"].append(box(hcx - ox, f.hcy - oy, -1, hcx + ox, f.hcy + oy, t + 1))
        door = box(hcx - ox + c, f.hcy - oy + c, 0, hcx + ox - c, f.hcy + oy - c, t - c)
        door = door + box(
            xb_left - rb2, f.hcy - oy - 3, -LID_LIP_MM, xb_right + rb2, f.hcy + oy + 3, 0
        )
        door_touch = ["base"]
        for xb in (xb_left, xb_right):
            for yb in (f.hy0 + hl / 4, f.hy0 + 3 * hl / 4):
                adds["base"].append(rod((xb, yb, t), "+z", 4.4, 2 * rb2))
                deep = LID_LIP_MM + t + 0.4
                sink, hole = fix.screw(
                    (xb, yb, -LID_LIP_MM), "+z", "m2", 6.0, deep, "door" + n, "base", "cell"
                )
                door = door - sink
                cuts["base"].append(hole)
                cuts["base"].append(rod((xb, yb, -1), "+z", t + 1.5, 3.0))
                door_touch.append("screw_m2_%d" % fix.count["screw_m2"])
        a.add("door" + n, "printed", door, door_touch, bed="+z", step="cell")
