"""The firmware's costs inside MicroPython, its modules loaded as ``.mpy``.

- ``micropython`` (``bench/measure.py``, in the WebAssembly port): bytes allocated
  per tick and per lever press, each run with the heap locked; the heap after boot
  on the simulator's board; CPU per tick, per stepping tick and per display frame;
- ``heap_after_boot_pico`` (``bench/boot_heap.py``): the heap the firmware takes at
  boot on the ``pico``;
- ``tick_beside_first_release`` (``bench/first_release.py``): the tick's CPU beside
  the first release's, in alternating runs.

``python -m bench.inside_micropython`` prints the figures (``--write``: and puts them
in bench/latest.json under their keys); ``make bench`` writes them there too.
"""

import os
import subprocess
import sys

from bench import figure_rows, first_release, results
from bench.figure_rows import Figure

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUDGET = "≤ the `pico` .mpy budget (below)"  # bench/heap.py: the budgets per board


def declared():
    """The figures measured inside MicroPython (bench/figure_rows.py)."""
    return (
        Figure(
            "bytes allocated per tick, steady state", "micropython.alloc_bytes_per_tick", "B", "0"
        ),
        Figure(
            "the tick runs under `heap_lock`", "micropython.tick_runs_with_heap_locked", "", "yes"
        ),
        Figure(
            "bytes allocated per lever press, IRQ to display",
            "micropython.alloc_bytes_per_press",
            "B",
            "0",
        ),
        Figure(
            "the press runs under `heap_lock`", "micropython.press_runs_with_heap_locked", "", "yes"
        ),
        Figure(
            "heap the firmware takes at boot, the simulator's board",
            "micropython.heap_after_boot_bytes",
            "B",
            BUDGET,
        ),
        Figure(
            "heap the firmware takes at boot, `pico`",
            "heap_after_boot_pico.heap_after_boot_bytes",
            "B",
            BUDGET,
        ),
        Figure(
            "CPU per tick of a running game, most of them at rest",
            "micropython.cpu_us_per_tick",
            "µs",
            "< 100 µs",
        ),
        Figure(
            "CPU per tick with a step at every tick (none at rest)",
            "micropython.cpu_us_per_stepping_tick",
            "µs",
            "< 100 µs",
        ),
        Figure(
            "CPU per display frame (render and send one side)",
            "micropython.cpu_us_per_display_frame",
            "µs",
            "report",
        ),
    )


def build():
    """This tree's ``.mpy`` files (build/mpy), which every figure here runs."""
    subprocess.run(["make", "-s", "mpy"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


def micropython_run():
    """The hot paths' figures from inside MicroPython (build/mpy made already)."""
    return results.micropython_json(ROOT, "bench.measure")


def board_heap(name="pico"):
    """Heap the firmware takes at boot on board ``name`` (build/mpy made already)."""
    figures = results.micropython_json(ROOT, "bench.boot_heap", name)
    print(
        "heap after boot on board %s (.mpy, MicroPython 32-bit): %d bytes, %d in use in all"
        % (name, figures["heap_after_boot_bytes"], figures["heap_in_use_after_boot_bytes"])
    )
    return figures


def inside_micropython_figures():
    """The three keys' figures."""
    build()
    return {
        "micropython": micropython_run(),
        "heap_after_boot_pico": board_heap("pico"),
        "tick_beside_first_release": first_release.side_by_side(micropython_run),
    }


def rows(figures):
    """The section's table (``make bench``, ``python -m bench.inside_micropython``): the
    declared figures, then the tick beside the first release."""
    table = figure_rows.table_rows(declared(), None, figures)
    if "tick_beside_first_release" in figures:
        table += first_release.rows(figures["tick_beside_first_release"])
    return table


def main(argv):
    return results.command(None, inside_micropython_figures(), rows, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
