"""The clock in a terminal, in real time: ``python -m sim play [--control TC]``.

Keys: ``a`` or ``z`` the left lever, ``l`` or ``m`` the right lever, space the
play/pause key, ``q`` quits. The line shows both displays as read back from
the simulated HT16K33 chips, so it cannot show what the board would not.
"""

import os
import select
import sys
import termios
import time
import tty

from firmware import engine, timecontrol
from sim import vclock
from sim.world import SimBoard, fresh_flash, remove_flash

KEYS = {"a": "lever_left", "z": "lever_left", "l": "lever_right", "m": "lever_right", " ": "play"}


def play(control_left, control_right=None, out=sys.stdout):
    flash = fresh_flash(control_left, control_right)
    board = SimBoard(flash)
    board.boot()
    began = time.monotonic()
    stdin = sys.stdin.fileno()
    saved = termios.tcgetattr(stdin) if os.isatty(stdin) else None
    if saved:
        tty.setcbreak(stdin)
    out.write("a/z: left lever   l/m: right lever   space: play/pause   q: quit\n")
    try:
        while True:
            ready, _, _ = select.select([sys.stdin], [], [], 0.05)
            now = int((time.monotonic() - began) * 1000)
            board.run_due(now)
            if ready:
                char = sys.stdin.read(1)
                if char in ("q", ""):
                    break
                if char in KEYS:
                    board.press(KEYS[char])
            board.settle()
            clock = board.app.clock
            left, right = board.display_text().split("|")
            out.write(
                "\r  [ %s ]   [ %s ]   %-8s moves %-3d "
                % (left, right, engine.STATE_NAMES[clock.state], clock.moves())
            )
            out.flush()
    finally:
        if saved:
            termios.tcsetattr(stdin, termios.TCSADRAIN, saved)
        out.write("\n")
        remove_flash(flash)
    return 0


def main(argv):
    control = argv[0] if argv else "300+3"
    try:
        timecontrol.parse(control)
    except ValueError as error:
        print("control %r cannot be played: %s" % (control, error))
        return 2
    vclock.reset()
    return play(control)
