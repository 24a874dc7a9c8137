"""The hall's link on the board: the heap it adds at boot, how it bears network faults, what
it allocates.

Each is a part of the key ``hall`` of bench/latest.json:

- ``heap`` (inside MicroPython, ``.mpy``; ``bench/hall_heap.py``): the heap after
  boot on each hall board with no hall file and with one, and what the hall adds;
- ``faults`` (``sim.net_faults``, the chip's time per call added to virtual time):
  the longest main-loop pass each scripted fault causes, the watchdog resets, the time
  from the network's return to the board's next message on the page;
- ``allocation`` (inside MicroPython; ``bench/hall_alloc.py``): the bytes the link
  allocates per pass with the link busy.

``python -m bench.hall`` measures them with the rest of the hall (key ``hall``).
"""

import os
import subprocess

from bench import figure_rows, hall, results
from bench.figure_rows import Figure

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOARDS = ("esp32", "pico_w")  # the boards with a hall link


def _build():
    subprocess.run(["make", "-s", "mpy"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


def network_heap():
    """The heap the hall adds at boot on esp32 and pico_w (.mpy, inside MicroPython)."""
    _build()
    figures = {}
    for name in BOARDS:
        heap = {}
        for hall_file in ("none", "hall"):
            found = results.micropython_json(ROOT, "bench.hall_heap", name, hall_file)
            heap[hall_file] = found["heap_after_boot_bytes"]
        figures[name] = {
            "heap_after_boot_offline_bytes": heap["none"],
            "heap_after_boot_with_hall_bytes": heap["hall"],
            "network_adds_bytes": heap["hall"] - heap["none"],
        }
    return figures


def fault_figures():
    """The link under each scripted network fault (``sim.net_faults``, the chip's time
    per call added to virtual time): the longest main-loop pass the network caused, the
    watchdog resets, and the time from the network's return to the board's next message
    for the faults that end the connection."""
    from sim import net_faults

    offline = net_faults.offline_lines()
    longest = {}
    resets = 0
    back = []
    changed = []
    for name in net_faults.FAULTS:
        result = net_faults.run_fault(name, net_faults.PUSH if name in net_faults.PUSHED else None)
        longest[name] = result["longest_pass_us"]
        resets += result["watchdog_resets"]
        if result["back_after_ms"] is not None:
            back.append(result["back_after_ms"])
        if name not in net_faults.PUSHED and result["lines"] != offline:
            changed.append(name)
    return {
        "longest_pass_us_per_fault": longest,
        "longest_pass_us": max(longest.values()),
        "watchdog_resets": resets,
        "state_lines_changed_by": changed,
        "back_on_the_page_ms_p50": hall.percentile(back, 0.5),
        "back_on_the_page_ms_worst": max(back) if back else None,
        "chip_model_us": {"per_call": net_faults.CALL_US, "per_byte": net_faults.BYTE_US},
    }


def link_allocation():
    """Bytes the link allocates per pass with the link busy (``bench.hall_alloc``, .mpy)."""
    _build()
    return results.micropython_json(ROOT, "bench.hall_alloc")


def link_figures():
    """The ``heap``, ``faults`` and ``allocation`` parts of ``hall``."""
    return {"heap": network_heap(), "faults": fault_figures(), "allocation": link_allocation()}


def declared():
    """The link's figures (bench/figure_rows.py)."""
    figures = [
        Figure(
            "heap the hall adds at boot, `%s`" % board,
            "hall.heap.%s.network_adds_bytes" % board,
            "B",
            "report",
        )
        for board in BOARDS
    ]
    figures += [
        Figure(
            "heap after boot with the hall (`.mpy`), `%s`" % board,
            "hall.heap.%s.heap_after_boot_with_hall_bytes" % board,
            "B",
            "report",
        )
        for board in BOARDS
    ]
    return tuple(figures) + (
        Figure(
            "longest main-loop pass a network fault caused (chip model)",
            "hall.faults.longest_pass_us",
            "µs",
            "≤ 2,000 µs",
        ),
        Figure("watchdog resets over the fault runs", "hall.faults.watchdog_resets", "", "0"),
        Figure(
            "network's return to the board's next message on the page, p50",
            "hall.faults.back_on_the_page_ms_p50",
            "ms",
            "report",
        ),
        Figure(
            "network's return to the board's next message on the page, worst",
            "hall.faults.back_on_the_page_ms_worst",
            "ms",
            "report",
        ),
        Figure(
            "bytes allocated per pass, link busy, a message being built",
            "hall.allocation.bytes_per_message_pass_max",
            "B",
            "0",
        ),
        Figure(
            "bytes allocated per pass, link busy, no message",
            "hall.allocation.bytes_per_pass_without_a_message_max",
            "B",
            "0",
        ),
        Figure(
            "bytes allocated by a push that comes in play",
            "hall.allocation.push_in_play_bytes",
            "B",
            "0",
        ),
    )


def rows(figures):
    """The hall table's rows of the link (``figures``: the ``hall`` key's)."""
    return figure_rows.table_rows(declared(), "hall", figures)
