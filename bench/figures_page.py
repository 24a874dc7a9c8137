"""docs/figures.md from bench/latest.json: the figures of ``make bench`` as tables.

``render(figures)`` turns the measured figures into the page's text; ``python -m
bench.figures_page`` writes the page from the committed bench/latest.json, and
``python -m bench`` calls ``write`` after each measurement. Figures the page knows
get a named row with their goal, judged by bench/goals.py (✗ where it is missed);
every other figure in the file (a new measurement, a renamed one) is still listed,
by its path in the JSON, under "Other figures".
"""

import json
import os

from bench import (
    capture_sweep,
    chip,
    core,
    goals,
    hall,
    hall_guard,
    hall_link,
    hall_scale,
    hall_tls,
    inside_micropython,
    journal,
    live_simulator,
    menu_tasks,
    port,
    power,
    preparation,
    simulator,
    wakeups,
)
from bench.figure_rows import format_value, lookup, on_page

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LATEST = os.path.join(ROOT, "bench", "latest.json")
PAGE = os.path.join(ROOT, "docs", "figures.md")

INTRO = """# Figures

Written by `make bench` (`bench/figures_page.py`) from `bench/latest.json`;
do not edit by hand. Measured on %(machine)s with Python %(python)s; the
MicroPython figures come from the WebAssembly port of MicroPython under
Node.js, with the firmware and the Adafruit libraries loaded as `.mpy`.

The tick and frame costs include the simulated `machine.Timer` and HT16K33
model, which are hardware on a board, so they bound the firmware's own cost
from above; an RP2040 at 125 MHz gives other absolute numbers, and on a
shared machine the CPU figures vary by a third from run to run.

A goal is judged where it is a number, a yes or a no (`bench/goals.py`): ✓ where
the figure meets it, **✗ missed** where it does not; a goal in words is not judged.
"""


# (heading, text under it, rows): a row is (figure, path in the JSON, unit, goal).
SECTIONS = (
    (
        "The firmware inside MicroPython",
        "",
        inside_micropython.declared(),
    ),
    (
        "The main loop's wake-ups (model)",
        "The simulated board's main loop sleeps as the rp2 port does"
        " (`sim/wakes.py`: until the app's next step or an input, [architecture.md]"
        "(architecture.md#how-the-board-sleeps)) and counts each wake, per state with"
        " nothing pressed (`python -m bench.wakeups`). The CPU share takes each wake"
        " at the cycles a running clock's wake-up takes on the rp2 port, measured"
        " under rp2040js (`boards/chips/rp2040.py`); the port's own figures are under"
        ' "The real port" below.',
        wakeups.declared(),
    ),
    (
        "Timing and the simulator",
        "The ideal board stamps every edge at its instant; a chip model"
        ' (`bench/chip.py`, [power.md](power.md) "What a chip can delay") stamps'
        " the RP2040 boards' levers by their PIO at the edge, and an ESP32 edge"
        " that falls in any C call when that call ends, at the datasheets' typical"
        " or maximum figures; games start at every instant of the first minute"
        " after power-on and after a new game's setup (on the ESP32 a start press"
        " is refused while its ring is prepared, and pressed again 0.5 s later).",
        (
            simulator.CHARGE_ERROR,
            *chip.declared(("pico",)),
            *capture_sweep.declared(),
            *chip.declared(("pico_w", "pico_big", "esp32")),
            simulator.SPEED,
            *live_simulator.declared(),
        ),
    ),
    (
        "Before the start, and in a game",
        "No erase falls while a game is in progress: the journal's ring is prepared"
        ' before the start (`bench/preparation.py`, [power.md](power.md) "Before the'
        ' start"), on the chip models over the real littlefs; a frame is due at each'
        " 20 ms tick, and the gap is the tick and the longest hold of the main loop.",
        (*preparation.declared(),),
    ),
    (
        "Power and the journal",
        "How these are counted: [power.md](power.md).",
        (*power.declared(),),
    ),
    (
        "Power cuts at every byte, on the real littlefs",
        "`python -m bench.journal` (`make power-sweep`): [power.md](power.md).",
        (*journal.declared(),),
    ),
    (
        "The tournament hall",
        "Simulated clocks on one Mosquitto on loopback: [hall.md](hall.md).",
        (
            *hall.declared(),
            *hall_link.declared(),
            *hall_scale.declared_runs(),
            *hall_scale.declared_matrix(),
            *hall_tls.declared(),
            hall_scale.FLOOD_VIEW,
            *hall_guard.declared(),
        ),
    ),
    (
        "The core: timing methods, mutations, the tick",
        "`python -m bench.core --write` (issue 36): comparisons asking which timing method "
        "is in force outside `firmware/timing.py`, the mutations of `make mutants` caught, "
        "and the tick beside the first release and the tree before the methods were "
        "objects, alternating in one run.",
        core.declared(),
    ),
    (
        "The real port: the Pico's image on rp2040js",
        "`make port` ([port.md](port.md)): the image `make firmware BOARD=pico` builds, "
        "booted on an instruction-level RP2040 emulator with the board modelled around it. "
        "No flash wait states there: a real chip is slower.",
        port.declared(),
    ),
)

# Tables with a row per entry of a JSON object: (key, heading, text, columns).
# A column is (title, field of the entry, unit) or (title, field, unit, goal): a goal
# is shown in the title and judged in each cell.
TASK_TABLES = (
    (
        "arbiter_tasks",
        "The arbiter's procedures",
        "By their key sequences (a press every 0.4 s, a long press held 2.1 s), "
        "paused, the claimant under two minutes: [arbiter.md](arbiter.md).",
        (
            ("key presses", "presses", ""),
            ("seconds", "seconds", "s", simulator.TASK_GOAL_S),
            ("the clock then", "state", ""),
        ),
    ),
    (
        "menu_tasks",
        "The setup menus beside the DGT 3000",
        "How the DGT 3000's presses are counted: [menus.md](menus.md).",
        (
            ("this clock, presses", "presses", ""),
            ("seconds", "seconds", "s", menu_tasks.TASK_GOAL_S),
            ("DGT 3000, presses", "dgt3000_presses", ""),
            ("seconds", "dgt3000_seconds", "s"),
            ("the DGT 3000's count", "dgt3000_count", ""),
        ),
    ),
    (
        "hall_page",
        "The hall's page on a phone and on the wall",
        "200 boards and fewer, names of up to 60 characters, in headless chromium at the "
        "viewport's exact size; sizes at 5 m on a 55-inch 1080p screen: "
        "[hall.md](hall.md#the-page).",
        (
            ("cards on one screen", "cards_on_screen", ""),
            ("pages", "pages", ""),
            ("names", "name_px", "px"),
            ("times", "time_px", "px"),
            ("names at 5 m", "name_arcmin_at_5_m", "'"),
            ("times at 5 m", "time_arcmin_at_5_m", "'"),
            ("names shortened", "names_shortened", ""),
            ("outside card or screen", "outside_card_or_viewport", "", "0"),
            ("strip lines", "strip_lines", "", "≤ 2"),
        ),
    ),
    (
        "build",
        "The build per board",
        "Battery life on one 3,000 mAh 18650 (two for `pico_big`) by the current budget, "
        "the low-battery threshold, and the printed case: [build.md](build.md).",
        (
            ("default brightness", "default_brightness", ""),
            ("hours at the default", "hours_default_brightness", "h"),
            ("at 16/16", "hours_full_brightness", "h"),
            ("low-battery mark", "battery_low_mv", "mV"),
            ("parts in the model", "parts", ""),
            ("printed", "printed_parts", ""),
            ("interference", "interference_mm3", "mm3"),
            ("fit problems", "problems", ""),
            ("smallest clearance", "smallest_clearance_mm", "mm"),
            ("between", "smallest_clearance_between", ""),
            ("print tolerance", "tolerance_mm", "mm"),
            ("filament", "filament_cm3", "cm3"),
            ("filament, PLA", "filament_g", "g"),
            ("outer size", "outer_mm", "mm"),
            ("lever travel", "lever_travel_mm", "mm"),
            ("operates at", "lever_operate_mm", "mm"),
            ("switch force", "switch_force_n", "N"),
        ),
    ),
)

HEAP_TABLES = (
    (
        "heap.paths",
        "Every board on its real heap",
        "Per board and deploy path, with and without a hall file: the chip's real heap "
        "(boards/chips/), the boot heap, a game's peak, the budget (boot <= 0.6 x heap - "
        "a game's peak), and whether the project ships that path: "
        "[boards.md](boards.md), [architecture.md](architecture.md); `python -m bench.heap`.",
        (
            ("real heap", "real_heap_bytes", "B"),
            ("estimated", "real_heap_estimated", ""),
            ("boot", "boot_heap_bytes", "B"),
            ("a game's peak", "a_game_needs_bytes", "B"),
            ("free after boot", "free_after_boot_bytes", "B"),
            ("budget", "budget_bytes", "B"),
            ("holds", "holds", ""),
            ("shipped", "shipped", ""),
        ),
    ),
    (
        "heap.days",
        "A tournament day per chip",
        "Ten games (menus, corrections, a power cut, the link down and up) per board "
        "and path (bench/tournament_heap.py).",
        (
            ("boot with a hall file and a game", "boot_with_a_hall_file_and_a_game_bytes", "B"),
            ("within 60 % of the heap", "boot_and_a_game_within_budget", ""),
            ("growth after the first game", "heap_growth_after_the_first_game_bytes", "B"),
            ("holds the same after each game", "firmware_holds_the_same_after_each_game", ""),
            ("largest free block after each game", "largest_free_block_after_each_game_bytes", "B"),
        ),
    ),
)

_HEADER_KEYS = ("machine", "python")
# Raw measurements the tables above are worked out from (bench.heap --again reads them).
_RAW_KEYS = ("heap.measured",)


def _leaves(value, prefix=""):
    """Every (path, value) below ``value`` that is not a JSON object."""
    if isinstance(value, dict):
        for key in sorted(value):
            yield from _leaves(value[key], prefix + "." + key if prefix else key)
    else:
        yield prefix, value


MET_MARK = "✓"
MISSED_MARK = "**✗ missed**"


def verdict_mark(value, goal):
    """The page's mark of ``value`` against ``goal``: ✓, ✗ missed, or nothing (not judged)."""
    verdict = goals.judge(value, goal)
    return MET_MARK if verdict == goals.MET else MISSED_MARK if verdict == goals.MISSED else ""


def _column(column):
    """``(title, field, unit, goal)`` of a column given with or without its goal."""
    return tuple(column) + (None,) * (4 - len(column))


def _cell(task, column):
    title, field, unit, goal = _column(column)
    if field not in task:
        return ""
    text = format_value(task[field], unit)
    if goal is not None and goals.judge(task[field], goal) == goals.MISSED:
        text += " " + MISSED_MARK
    return text


def missed(figures):
    """The names of the page's figures that miss their goal, in the page's order."""
    names = []
    for _heading, _text, rows in SECTIONS:
        for name, path, _unit, goal in on_page(rows):
            if goals.judge(lookup(figures, path), goal) == goals.MISSED:
                names.append(name)
    for key, _heading, _text, columns in TASK_TABLES + HEAP_TABLES:
        tasks = lookup(figures, key)
        for name in sorted(tasks) if isinstance(tasks, dict) else ():
            for title, field, _unit, goal in map(_column, columns):
                task = tasks[name] if isinstance(tasks[name], dict) else {}
                if goal and field in task and goals.judge(task[field], goal) == goals.MISSED:
                    names.append("%s: %s" % (name, title))
    return names


def render(figures):
    """The whole page, from the figures of bench/latest.json."""
    used = set(_HEADER_KEYS)
    lines = [
        INTRO
        % {
            "machine": format_value(figures.get("machine", "an unnamed machine")),
            "python": format_value(figures.get("python", "?")),
        }
    ]
    misses = missed(figures)
    if misses:
        lines += [
            "Missed in this run (%d): %s." % (len(misses), "; ".join(misses)),
            "",
        ]
    for heading, text, rows in SECTIONS:
        rows = on_page(rows)
        found = [(name, lookup(figures, path), unit, goal) for name, path, unit, goal in rows]
        found = [row for row in found if row[1] is not None and not isinstance(row[1], dict)]
        used.update(path for _name, path, _unit, _goal in rows)
        if not found:
            continue
        lines += ["## " + heading, ""] + ([text, ""] if text else [])
        lines += ["| figure | measured | goal | met |", "|---|---|---|---|"]
        lines += [
            "| %s | %s | %s | %s |" % (n, format_value(v, u), g, verdict_mark(v, g))
            for n, v, u, g in found
        ]
        lines.append("")
    for key, heading, text, columns in TASK_TABLES + HEAP_TABLES:
        tasks = lookup(figures, key)
        if not isinstance(tasks, dict) or not tasks:
            continue
        columns = [_column(column) for column in columns]
        lines += ["## " + heading, "", text, ""]
        titles = [t if g is None else "%s (goal %s)" % (t, g) for t, _f, _u, g in columns]
        lines.append("| procedure | " + " | ".join(titles) + " |")
        lines.append("|---" * (len(columns) + 1) + "|")
        for name in sorted(tasks):
            task = tasks[name] if isinstance(tasks[name], dict) else {}
            cells = [_cell(task, column) for column in columns]
            lines.append("| %s | %s |" % (format_value(name), " | ".join(cells)))
            used.update("%s.%s.%s" % (key, name, c[1]) for c in columns)
        lines.append("")
    others = [
        (path, value)
        for path, value in _leaves(figures)
        if path not in used and not path.startswith(_RAW_KEYS)
    ]
    if others:
        lines += [
            "## Other figures",
            "",
            "Every other value of `bench/latest.json`, by its path.",
            "",
        ]
        lines += ["| figure | measured |", "|---|---|"]
        lines += ["| `%s` | %s |" % (path, format_value(value)) for path, value in others]
        lines.append("")
    return "\n".join(lines)


def write(figures, path=PAGE):
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(render(figures))


def main():
    with open(LATEST, encoding="utf-8") as handle:
        write(json.load(handle))
    print("written to docs/figures.md")


if __name__ == "__main__":
    main()
