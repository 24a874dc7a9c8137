"""The figures of one clock's model (make bench, key ``build``; docs/build.md).

``figures(assembly)`` counts the parts, runs every fit of ``tools.case.fits``
and measures what the kernel gives: the printed parts' volume and mass of PLA,
the outer size, the smallest clearance between parts not meant to touch, and
the levers' travel against their switch's datasheet. Host only.
"""

from tools.case import fits
from tools.case.cad import CAP_TRAVEL_MM, LEVER_GAP_MM, STEPS
from tools.case.limits import TOLERANCE_MM
from tools.case.parts import PARTS, PLA_DENSITY


def lever_travel(travel=CAP_TRAVEL_MM, gap=LEVER_GAP_MM, switch=None):
    """(travel to the stop, travel to operate, overtravel used), mm: the cap stops
    on the top; the keeper first closes its gap, then the plunger's pretravel."""
    switch = switch or PARTS["microswitch"]
    operate = gap + switch["pretravel_mm"]
    return travel, round(operate, 2), round(travel - operate, 2)


# After the switch operates at the datasheet's latest operating point, the lever goes
# on at least this far before its stop: a press that is slowed by the contact still
# closes it, and a worn or slightly tall switch still operates.
MIN_OVERTRAVEL_MM = 0.4


def lever_problems(travel=CAP_TRAVEL_MM, gap=LEVER_GAP_MM, switch=None):
    """The lever must reach the operating point with ``MIN_OVERTRAVEL_MM`` to spare,
    and stop before the switch does."""
    switch = switch or PARTS["microswitch"]
    travel, operate, over = lever_travel(travel, gap, switch)
    out = []
    if operate > travel + 1e-9:
        out.append("a lever stops %.2f mm before its switch operates" % (operate - travel))
    elif over < MIN_OVERTRAVEL_MM - 1e-9:
        out.append(
            "a lever goes %.2f mm past its switch's operating point, under %.1f mm"
            % (over, MIN_OVERTRAVEL_MM)
        )
    if over > switch["overtravel_mm"] + 1e-9:
        out.append(
            "a lever pushes its plunger %.2f mm past operating, over the switch's %.2f mm"
            % (over, switch["overtravel_mm"])
        )
    return out


def figures(assembly, problems=None):
    """{...} for make bench: parts, interference, clearance, filament, size, lever."""
    interference = fits.interference(assembly)
    clear = fits.clearances(assembly)
    smallest = min(clear.items(), key=lambda item: item[1]) if clear else (("", ""), None)
    printed = {n: p.solid.volume for n, p in assembly.parts.items() if p.printed}
    volume_cm3 = sum(printed.values()) / 1000
    travel, operate, over = lever_travel()
    if problems is None:
        problems = fits.problems(assembly) + lever_problems()
    return {
        "parts": len(assembly.parts),
        "printed_parts": len(printed),
        "interference_mm3": round(sum(interference.values()), 3),
        "smallest_clearance_mm": smallest[1],
        "smallest_clearance_between": " / ".join(smallest[0]),
        "tolerance_mm": TOLERANCE_MM,
        "filament_cm3": round(volume_cm3, 1),
        "filament_g": round(volume_cm3 * PLA_DENSITY, 1),
        "outer_mm": [round(v, 1) for v in assembly.outer],
        "lever_travel_mm": travel,
        "lever_operate_mm": operate,
        "lever_overtravel_mm": over,
        "switch_force_n": PARTS["microswitch"]["operating_force_n"],
        "problems": len(problems),
    } | maker_figures(assembly)


def maker_figures(assembly):
    """What a first-time maker meets: the largest part on a 220 mm bed, the USB plug's
    room on each mount, the cell's opening, the lever's stop and the LEDs under the
    hand, the parts to buy and the steps shown (the ones that need the kernel)."""
    from tools.case import guide

    name, longest = guide.largest_on_bed(assembly)
    cell = assembly.parts["cell"].solid.bounding_box()
    bill = guide.bill(assembly)
    steps = [step for step, _, _ in STEPS]
    return {
        "largest_part": name,
        "largest_part_mm": longest,
        "bed_mm": list(guide.BED_MM),
        "usb_plug_clearance_mm": fits.usb_clearances(assembly),
        "cell_mm": round(cell.size.Y, 1),
        "cell_opening_mm": cell_opening_mm(assembly),
        "lever_overtravel_after_operate_mm": lever_travel()[2],
        "lever_landing_mm2": fits.landing_mm2(assembly, "lever_left"),
        "led_below_hand_mm": fits.led_clearance_mm(assembly),
        "parts_to_buy": sum(qty for qty, _, _ in bill),
        "lines_to_buy": len(bill),
        "steps": len(steps),
        "admesh_repairs": admesh_repairs(assembly),
    }


def cell_opening_mm(assembly):
    """The door's opening in the base along the cell, measured on the base: a bar
    0.2 x 0.2 mm along the cell's axis through the base's middle, 10 mm past the
    cell at each end, less the base's material on it."""
    from tools.case.cad import WALL_MM, box

    cell = assembly.parts["cell"].solid.bounding_box()
    x, side, reach = cell.center().X, 0.2, 10.0
    y0, y1 = cell.min.Y - reach, cell.max.Y + reach
    bar = box(x - side / 2, y0, WALL_MM / 2 - side / 2, x + side / 2, y1, WALL_MM / 2 + side / 2)
    material = (bar & assembly.parts["base"].solid).volume / (side * side)
    return round(y1 - y0 - material, 1)


def admesh_repairs(assembly):
    """What admesh would repair in every printed part's STL, as make case writes it
    (None without admesh: make case-tools)."""
    import os
    import tempfile

    from tools.case import joints, stl

    total = 0
    with tempfile.TemporaryDirectory() as folder:
        for name, piece in joints.printed_pieces(assembly):
            path = os.path.join(folder, name + ".stl")
            stl.export(piece, path)
            repairs = stl.admesh_repairs(path)
            if repairs is None:
                return None
            total += sum(repairs.values())
    return total
