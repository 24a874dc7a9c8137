"""``make bench``: measure the clock and write bench/latest.json and docs/figures.md.

Each section is a module of bench/ that measures its figures, declares each with
its goal (bench/figure_rows.py) and runs alone as ``python -m bench.NAME [--write]``;
this runs them all in turn, prints one table of every figure against its goal
(bench/goals.py) and writes the file, then the page from it (bench/figures_page.py).
"""

import json
import os
import platform
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench import figures_page, goals  # noqa: E402

# The sections, in the order make bench prints them: (key in bench/latest.json, or None
# for a section whose function gives several keys; the module of bench/; its function
# giving the figures).
SECTIONS = (
    (None, "inside_micropython", "inside_micropython_figures"),  # tick, press, boot heap
    (None, "simulator", "simulator_figures"),  # speed, exact charge, the arbiter's keys
    ("live_simulator", "live_simulator", "live_simulator_figures"),  # make sim, its CPU
    ("power", "power", "power_figures"),  # the journal: writes, wear, restored error
    ("chip", "chip", "chip_figures"),  # the charge error on each board's chip model
    ("capture_sweep", "capture_sweep", "capture_sweep_figures"),  # resume and lever in an erase
    ("wakeups", "wakeups", "wakeup_figures"),  # the main loop's wake-ups per state (model)
    ("preparation", "preparation", "preparation_figures"),  # the ring before the start
    ("menu_tasks", "menu_tasks", "menu_task_figures"),  # the setup menus beside the DGT 3000
    ("hall_page", "hall_page", "hall_page_figures"),  # the hall's page on a phone and a wall
    ("web", "web", "web_figures"),  # the clock in a web page: first draw, bytes, CPU, scripts
    ("journal", "journal", "journal_figures"),  # power cuts at every byte, real littlefs
    ("heap", "heap", "heap_section"),  # every board on its real heap, .mpy and frozen
    ("core", "core", "core_figures"),  # timing methods, mutation check, tick beside before
)


def section(module, function):
    """``bench.<module>.<function>()``'s figures and the module's rows of them."""
    import importlib

    figures_of = importlib.import_module("bench." + module)
    figures = getattr(figures_of, function)()
    return figures, figures_of.rows(figures)


def hall():
    """200 clocks on one broker, the page's latency, CPU, bytes, heap (bench/hall.py)."""
    from bench import hall as figures_of

    return figures_of.figures_and_rows()


# Keys measured by a lane of their own, kept from the last file: the real port's (make
# port: MicroPython's sources and the emulator's bootrom fetched, a build of minutes).
KEPT = ("port",)


def _kept(path):
    if not os.path.exists(path):
        return {}
    with open(path) as handle:
        last = json.load(handle)
    return {key: last[key] for key in KEPT if key in last}


def main():
    figures = {"machine": platform.machine(), "python": platform.python_version()}
    figures.update(_kept(os.path.join(ROOT, "bench", "latest.json")))
    rows = []
    for key, module, function in SECTIONS:
        found, more = section(module, function)
        if key is None:
            figures.update(found)
        else:
            figures[key] = found
        rows += more
    figures["hall"], hall_rows = hall()
    rows += hall_rows
    figures["build"], build_rows = section("build", "build_figures")  # battery, case
    rows += build_rows
    goals.print_table(rows)
    os.makedirs(os.path.join(ROOT, "bench"), exist_ok=True)
    with open(os.path.join(ROOT, "bench", "latest.json"), "w") as handle:
        json.dump(figures, handle, indent=2, sort_keys=True)
        handle.write("\n")
    print("written to bench/latest.json")
    figures_page.main()  # docs/figures.md, from the file just written


if __name__ == "__main__":
    main()
