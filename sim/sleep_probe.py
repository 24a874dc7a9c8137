"""``hal.sleep`` on MicroPython's own ``select.poll``: run inside the WebAssembly port.

The simulated board models the main loop's sleep (``sim.wakes``); this runs the
real one, ``hal.sleep.Sleep.wait``, on the interpreter's ``select.poll`` and
``io.IOBase`` (``extmod/modselect.c``, the code the rp2 and esp32 ports run),
with a ticker and an app of its own: the sleep lasts its timeout when nothing
is ready, ends at once when an input waits or the step is due, and a wait after
the first allocates nothing (``micropython.heap_lock``). Prints one JSON object;
``tests/test_wakeups.py`` runs it (``node tools/mpy/run.mjs sim.sleep_probe``).
"""

import json
import time

import micropython

from hal.sleep import Sleep

_SLEEP_MS = 40


class _Ticker:
    """The app's next step ``left_ms`` from now (0: due, -1: none)."""

    def __init__(self):
        self.left_ms = -1

    def ms_left(self):
        return self.left_ms


class _App:
    def __init__(self):
        self.waiting = False

    def input_waits(self):
        return self.waiting


def _timed(sleep, app):
    start = time.ticks_ms()
    sleep.wait(app)
    return time.ticks_diff(time.ticks_ms(), start)


def main(argv):
    ticker = _Ticker()
    app = _App()
    sleep = Sleep(ticker)
    ticker.left_ms = _SLEEP_MS
    slept_ms = _timed(sleep, app)  # nothing ready: the timeout
    app.waiting = True
    input_ms = _timed(sleep, app)  # an input waits: at once
    app.waiting = False
    ticker.left_ms = 0
    due_ms = _timed(sleep, app)  # the step is due: at once
    locked = True
    micropython.heap_lock()
    try:
        for _ in range(20):
            sleep.wait(app)
        app.waiting = True
        sleep.wait(app)
    except MemoryError:
        locked = False
    micropython.heap_unlock()
    print(
        json.dumps(
            {
                "asked_ms": _SLEEP_MS,
                "slept_ms": slept_ms,
                "input_ms": input_ms,
                "due_ms": due_ms,
                "waits_under_heap_lock": locked,
            }
        )
    )
    return 0
