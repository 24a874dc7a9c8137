"""Figures of the build (docs/build.md): battery life, the threshold, the enclosure.

- Hours of play on one charge per board at the default brightness and at full
  (tools/power_budget.py), and the low-battery threshold the budget gives.
- The enclosure per board (tools/case): outer size, the smallest clearance the
  fit checks measured (and the part it belongs to), the thinnest wall, and the
  printed parts' facet count.

    .venv/bin/python -m bench.build           # these figures alone, as JSON
"""

import json

import boards
from firmware.settings import DEFAULT_BRIGHTNESS
from tools import power_budget
from tools.case import checks, model
from tools.case.__main__ import CASE_BOARDS


def build_figures():
    """{board: {...}} for every board the enclosure is drawn for."""
    out = {}
    for name in CASE_BOARDS:
        board = boards.load(name)
        figures = checks.figures(model.layout(board))
        figures["hours_default_brightness"] = power_budget.hours_x10(board, DEFAULT_BRIGHTNESS) / 10
        figures["hours_full_brightness"] = power_budget.hours_x10(board) / 10
        figures["default_brightness"] = "%d/16" % DEFAULT_BRIGHTNESS
        figures["battery_low_mv"] = power_budget.threshold_mv(board)
        out[name] = figures
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
            )
        )
        out.append(("%s: low-battery threshold, mV" % name, f["battery_low_mv"], "report"))
        out.append(
            (
                "%s: case outer size, mm" % name,
                " x ".join("%g" % v for v in f["outer_mm"]),
                "report",
            )
        )
        out.append(
            (
                "%s: smallest clearance, mm (%s)" % (name, f["smallest_clearance_part"]),
                f["smallest_clearance_mm"],
                ">= 0.2",
            )
        )
        out.append(("%s: case STL facets" % name, f["facets"], "report"))
    return out


if __name__ == "__main__":
    print(json.dumps(build_figures(), indent=2, sort_keys=True))
