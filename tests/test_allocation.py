"""Inside MicroPython, with the modules loaded as .mpy: the tick and a lever press allocate nothing.

Timings are left to ``make bench``; this checks only what must hold exactly.
"""

import json
import os
import subprocess

from bench import heap
from tests.scripting import ROOT, compiled_firmware


def test_tick_and_press_allocate_nothing_under_micropython():
    compiled_firmware()
    runner = os.path.join(ROOT, "tools", "mpy", "run.mjs")
    done = subprocess.run(
        ["node", runner, "--compiled", "bench.measure"],
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
    budget, shipped = heap.mpy_budget("pico")  # the simulator's board is a Pico
    assert shipped and figures["heap_after_boot_bytes"] <= budget
    # The last 10 s of a 10 s game under heap_lock: warning beeps at 9..1 s shown
    # (the turn starts at 10), then the first flag's pattern, the running LED lit.
    assert figures["buzzer_ticks_run_with_heap_locked"] is True
    assert figures["buzzer_patterns_started_under_heap_lock"] == 9 + 1
    # 9 beeps of 60 ms and the flag's 3 x 500 ms of tone, in 20 ms ticks.
    assert figures["buzzer_sounding_ticks_under_heap_lock"] == 9 * 3 + 3 * 25
    assert figures["led_lit_under_heap_lock"] is True
    # 4/60:30: left's 4th move (its period's last) under heap_lock, 0.06 s each turn:
    # 60 - 4 * 0.06 + 30 = 89.76 s reads 1.30, with the control-passed point, and
    # one short tone.
    assert figures["control_passed_under_heap_lock"] == {"left_display": " 1.30.", "tones": 1}
    # On the Pico the entries of 20 presses (one each) are page programs into the
    # journal's ring, under heap_lock.
    assert figures["ring_entries_under_heap_lock"] == 20
    # On the Pico the play key is stamped by the PIO as the levers are: left's move, a
    # pause and a resume, then right's move stored after a menu key yet stamped before
    # it (brought forward), all under heap_lock: White has one move more, right's move
    # made (left to move).
    assert figures["captured_inputs_under_heap_lock"] == {"moves": 1, "pauses": 1, "mover": 0}
