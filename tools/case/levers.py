"""The levers: each a cap over the top on a stem, its keeper under the top, its
switch in a cage; the running-side LED in front of it.

The stem slides in a hole in the top with the clearance all round; the keeper,
wider than the hole, is screwed to the stem's end from below, so the lever is
retained and rests with the keeper against the top. The switch (Omron D2F)
stands on the cage's floor under the keeper, ``LEVER_GAP_MM`` below it; the cap
stands ``CAP_TRAVEL_MM`` over the top, the press's travel to its stop: the cap
lands on the top, and the stem's way below the top is cut clear for the whole
stroke so nothing else stops it (``tools.case.fits.strokes`` moves each lever
through its stroke; ``tools.case.figures.lever_problems`` checks the travel
against the switch's pretravel and overtravel). Each LED is sunk in a sleeve
under the top, its dome under the top's face, so a hand sweeping off a lever
meets nothing standing proud (``tools.case.fits.sweep``). Host only.
"""

from tools.case.cad import CAP_TRAVEL_MM, CLEARANCE_MM, KEEPER_MM, STEM_MM, WALL_MM, box, rod
from tools.case.parts import PARTS

LED_RECESS_MM = 0.5  # an LED's dome under the top's face


def draw(a, f, fix, adds, cuts):
    t, c = WALL_MM, CLEARANCE_MM
    D, H = f.D, f.H
    # --- on top: the levers over their switches, the LEDs in front of them ------------
    sw = PARTS["microswitch"]
    sl, sd_, sh = sw["size"]
    for side, x0 in zip(("left", "right"), f.display_x, strict=True):
        cx = x0 + f.dw / 2
        sy = D - 2 * t - STEM_MM / 2 - c  # the stem's hole a wall's width from the back
        sz = f.switch_z
        free = sw["plunger_mm"]
        switch = box(cx - sl / 2, sy - sd_ / 2, sz, cx + sl / 2, sy + sd_ / 2, sz + sh) + box(
            cx - 1.0, sy - 1.0, sz + sh, cx + 1.0, sy + 1.0, sz + sh + free
        )
        a.add("switch_" + side, "microswitch", switch, ("body",), step="body")
        # the cage: a slot from the top down to a floor, open towards the middle at the
        # switch's height so the switch slides in; the back wall is its back
        ix0, ix1 = cx - sl / 2 - c, cx + sl / 2 + c
        iy0, iy1 = sy - sd_ / 2 - c, sy + sd_ / 2 + c
        cage = box(ix0 - t, iy0 - t, sz - t, ix1 + t, D - t, f.z_top) - box(
            ix0, iy0, sz, ix1, iy1, f.z_top + 1
        )
        opening_x = (ix1, ix1 + t + 1) if side == "left" else (ix0 - t - 1, ix0)
        cage = cage - box(opening_x[0], iy0, sz, opening_x[1], iy1, sz + sh + c)
        cage = cage - rod((cx, sy, sz - t - 1), "+z", t + 2, 4.0)  # the screwdriver's way
        adds["body"].append(cage)
        # the lever: a cap over the top, its stem through it, a keeper screwed on below
        kz0 = f.z_top - KEEPER_MM
        keeper = box(cx - sl / 2, sy - sd_ / 2, kz0, cx + sl / 2, sy + sd_ / 2, f.z_top)
        s = STEM_MM / 2
        cap_y0 = max(sy - 16.0, f.y_back)
        cap = box(cx - 18, cap_y0, f.cap_z, cx + 18, D - 1.0, f.cap_z + 4.0)
        stem = box(cx - s, sy - s, f.z_top, cx + s, sy + s, f.cap_z)
        sink, hole = fix.screw(
            (cx, sy, kz0), "+z", "m2", 5.0, KEEPER_MM, "keeper_" + side, "lever_" + side, "levers"
        )
        a.add(
            "keeper_" + side,
            "printed",
            keeper - sink,
            ("body", "lever_" + side, "screw_m2_%d" % fix.count["screw_m2"]),
            bed="-z",
            step="levers",
        )
        a.add(
            "lever_" + side,
            "printed",
            cap + stem - hole,
            ("keeper_" + side,),
            bed="-z",
            step="levers",
        )
        a.levers[side] = ("lever_" + side, "keeper_" + side, "switch_" + side)
        # the stem's way: through the top and, below it, clear for the whole stroke and
        # the clearance, so the cap landing on the top is the stroke's one stop
        way = box(
            cx - s - c, sy - s - c, f.z_top - CAP_TRAVEL_MM - c, cx + s + c, sy + s + c, H + 1
        )
        cuts["body"].append(way)
        n = fix.count["screw_m2"]
        a.strokes.append(
            ("lever_" + side, ("keeper_" + side, "screw_m2_%d" % n, "insert_m2_%d" % n))
        )
        # the LED, in front of the cap, sunk in a sleeve under the top: its dome stays
        # LED_RECESS_MM under the top's face, where a hand sweeping off the lever passes
        led = PARTS["led_10mm"]
        lw, _, lh = led["size"]
        r = led["body_mm"] / 2
        ly = cap_y0 - 2.0 - lw / 2
        flange_top = H - LED_RECESS_MM - (lh - led["flange_mm"])
        flange_z = flange_top - led["flange_mm"]
        solid = rod((cx, ly, flange_z), "+z", led["flange_mm"], lw) + rod(
            (cx, ly, flange_top), "+z", lh - led["flange_mm"], led["body_mm"]
        )
        a.add("led_" + side, "led_10mm", solid, ("body",), step="body")
        # the sleeve: from the top's underside down to the flange, the body pressed in
        sleeve = rod((cx, ly, flange_top), "+z", f.z_top - flange_top, 2 * r + 2 * t)
        adds["body"].append(sleeve)
        cuts["body"].append(rod((cx, ly, flange_top - 1), "+z", H - flange_top + 2, 2 * r))
