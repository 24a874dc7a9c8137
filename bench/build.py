"""Figures of the build (docs/build.md): battery life, the threshold, the clock's model.

- Hours of play on one charge per board at the default brightness and at full
  (tools/power_budget.py), and the low-battery threshold the budget gives.
- The clock's CAD model per board (tools/case, build123d on OpenCascade): the
  parts in it, the pairwise interference volume (goal 0), the smallest clearance
  between parts not meant to touch against the print tolerance, the problems the
  fits found (goal 0), the printed parts' filament (volume and mass of PLA: no
  slicer here), the outer size, the levers' travel and their switch's
  operating force. Without build123d (``make case-tools``) only the battery.

    .venv/bin/python -m bench.build           # these figures alone, against their goals
    .venv/bin/python -m bench.build --write   # and into bench/latest.json, key "build"
"""

import sys

import boards
from firmware.settings import DEFAULT_BRIGHTNESS
from tools import power_budget
from tools.case.__main__ import CASE_BOARDS


def build_figures():
    """{board: {...}} for every board the clock is modelled for."""
    try:
        from tools.case import cad
        from tools.case import figures as case_figures
    except ImportError:
        cad = None
    out = {}
    for name in CASE_BOARDS:
        board = boards.load(name)
        f = {}
        if cad is not None:
            f = case_figures.figures(cad.assembly(board))
        f["hours_default_brightness"] = power_budget.hours_x10(board, DEFAULT_BRIGHTNESS) / 10
        f["hours_full_brightness"] = power_budget.hours_x10(board) / 10
        f["default_brightness"] = "%d/16" % DEFAULT_BRIGHTNESS
        f["battery_low_mv"] = power_budget.threshold_mv(board)
        out[name] = f
    return out


def rows(figures):
    """(name, value, goal) rows for make bench's table."""
    out = []
    for name, f in figures.items():
        goal = ">= 50" if name in power_budget.GOAL_BOARDS else "report"
        out.append(
            (
                "%s: hours on one charge at %s, at 16/16" % (name, f["default_brightness"]),
                "%.1f, %.1f" % (f["hours_default_brightness"], f["hours_full_brightness"]),
                goal,
                f["hours_default_brightness"],
            )
        )
        out.append(("%s: low-battery threshold, mV" % name, f["battery_low_mv"], "report"))
        if "parts" not in f:
            out.append(("%s: the clock's model" % name, "make case-tools", "report"))
            continue
        out.append(("%s: parts in the model (printed)" % name,
                    "%d (%d)" % (f["parts"], f["printed_parts"]), "report"))  # fmt: skip
        out.append(("%s: interference, mm3" % name, f["interference_mm3"], "0"))
        out.append(("%s: fit problems" % name, f["problems"], "0"))
        out.append(
            (
                "%s: smallest clearance, mm (%s)" % (name, f["smallest_clearance_between"]),
                f["smallest_clearance_mm"],
                ">= %.1f" % f["tolerance_mm"],
            )
        )
        out.append(("%s: filament, cm3 and g of PLA" % name,
                    "%.1f, %.0f" % (f["filament_cm3"], f["filament_g"]), "report"))  # fmt: skip
        out.append(
            ("%s: outer size, mm" % name, " x ".join("%g" % v for v in f["outer_mm"]), "report")
        )
        out.append(
            (
                "%s: lever travel, operates at, mm; switch force N" % name,
                "%.1f, %.1f; %.2f"
                % (f["lever_travel_mm"], f["lever_operate_mm"], f["switch_force_n"]),
                "report",
            )
        )
        out += maker_rows(name, f)
    return out


def maker_rows(name, f):
    """The rows of what a first-time maker meets (tools.case.figures.maker_figures)."""
    bed = "x".join("%g" % v for v in f["bed_mm"])
    clear = f["usb_plug_clearance_mm"]
    return [
        ("%s: largest printed part (%s), mm, on a %s mm bed" % (name, f["largest_part"], bed),
         f["largest_part_mm"], "<= %g" % min(f["bed_mm"])),
        ("%s: USB plug's room on each mount (%s), mm" % (name, ", ".join(clear)),
         list(clear.values()), ">= 0"),
        ("%s: the cell's door opening, mm, for the longest protected 18650" % name,
         f["cell_opening_mm"], ">= %g" % f["cell_mm"]),
        ("%s: lever travel after the switch's latest operating point, mm" % name,
         f["lever_overtravel_after_operate_mm"], ">= 0.4"),
        ("%s: the lever's cap lands on, mm2 of the top" % name, f["lever_landing_mm2"], "report"),
        ("%s: LEDs under the swept hand, mm" % name, f["led_below_hand_mm"], ">= 0"),
        ("%s: parts to buy (lines of the list)" % name,
         "%d (%d)" % (f["parts_to_buy"], f["lines_to_buy"]), "report"),
        ("%s: assembly steps with a picture" % name, f["steps"], "report"),
        ("%s: repairs admesh finds in the STLs" % name,
         "make case-tools" if f["admesh_repairs"] is None else f["admesh_repairs"], "0"),
    ]  # fmt: skip


def main(argv):
    from bench import results

    return results.command("build", build_figures(), rows, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
