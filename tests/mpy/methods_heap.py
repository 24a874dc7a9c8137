"""Every timing method's tick and press allocate nothing: run inside MicroPython
(``node tools/mpy/run.mjs --compiled tests.mpy.methods_heap``) by tests/test_timing_methods.py.

For each method and period mode, a game is played on the engine with the heap
locked: moves, the stage and the display frame of both sides, the frame's next
change, a period passed and the flag falling. Prints one JSON object: per
control, the moves made and the state reached under the lock, or "MemoryError".
"""

import gc
import json

import micropython
from micropython import const

from firmware import engine, frames, timecontrol

# One control per method and mode, each short enough for its flag to fall within
# the game below (the moves of 7 s each): sudden death, Fischer, delay, Bronstein,
# periods, hourglass, Japanese and Canadian byo-yomi.
CONTROLS = ("20", "10+2", "10d2", "10b2", "2/15:10", "*20", "5j3x2", "5c2/8")
_MOVE_MS = const(7000)
_TICK_MS = const(10)


def _play(clock, frame, now):
    """Moves of ``_MOVE_MS`` each, every 10 ms a tick's reading, until the game is
    over or 60 s have passed; the tick value reached."""
    end = now + 60_000
    turn_end = now + _MOVE_MS
    while now < end and clock.state != engine.OVER:
        now += _TICK_MS
        clock.update(now)
        for index in (0, 1):
            frames.render_side(frame, clock, index, now, True)
            clock.stage_code(index, now)
            frames.passed_control(clock, index)
        frames.steady_ms(clock, now, True)
        if now >= turn_end:
            clock.press(clock.mover, now)
            turn_end = now + _MOVE_MS
    return now


def main(argv):
    results = {}
    frame = bytearray(frames.FRAME_SIZE)
    for text in CONTROLS:
        control = timecontrol.parse(text)
        clock = engine.Clock(control, control)
        clock.press(1, 0)  # left is White, to move
        gc.collect()
        locked = True
        micropython.heap_lock()
        try:
            _play(clock, frame, 0)
        except MemoryError:
            locked = False
        micropython.heap_unlock()
        results[text] = {
            "locked": locked,
            "moves": clock.sides[0].moves + clock.sides[1].moves,
            "state": engine.STATE_NAMES[clock.state],
            "first_flag": clock.first_flag,
            "stages": [clock.stage(0, 0), clock.stage(1, 0)],
        }
    print(json.dumps(results))
    return 0
