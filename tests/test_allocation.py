"""Inside MicroPython, with the modules loaded as .mpy: the tick and a lever press allocate nothing.

Timings are left to ``make bench``; this checks only what must hold exactly.
"""

import json
import os
import subprocess

from tests.scripting import ROOT


def test_tick_and_press_allocate_nothing_under_micropython():
    subprocess.run(["make", "-s", "mpy"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    runner = os.path.join(ROOT, "tools", "mpy", "run.mjs")
    done = subprocess.run(
        ["node", runner, "--compiled", "sim.measure"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["alloc_bytes_per_tick"] == 0
    assert figures["alloc_bytes_per_press"] == 0
    assert figures["tick_runs_with_heap_locked"] is True
    assert figures["press_runs_with_heap_locked"] is True
    assert figures["moves_counted_under_heap_lock"] == 10  # the locked presses really moved
    assert figures["heap_after_boot_bytes"] <= 64 * 1024
