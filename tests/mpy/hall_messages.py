"""The hall message on a simulated board, printed: the same lines on CPython and MicroPython.

``node tools/mpy/run.mjs tests.mpy.hall_messages`` and ``python -m tests.mpy.hall_messages``
play the same short game (5 min sudden death: the left lever at 1 s starts
the right clock, the right lever at 4 s, the play key at 5.5 s pauses) and
print ``firmware.hall_message.encode`` at three instants, then each message
decoded again (``firmware.hall_decode``) as its sorted keys; tests/test_hall_message.py
compares both lanes and the values.
"""

from firmware import hall_decode, hall_message
from sim import vclock
from sim.world import SimBoard, fresh_flash, remove_flash


def lines():
    flash = fresh_flash("300")
    board = SimBoard(flash, bounce_ms=3)
    board.boot()
    out = []
    board.run_due(1000)
    board.press("lever_left")
    board.run_due(4000)
    board.press("lever_right")
    board.run_due(5500)
    out.append(hall_message.encode(board.app, vclock.ticks_ms(), 12, 7, "change"))
    board.press("play")
    board.run_due(6000)
    out.append(hall_message.encode(board.app, vclock.ticks_ms(), 12, 8, "change", "refused", "r3"))
    board.run_due(36000)
    out.append(hall_message.encode(board.app, vclock.ticks_ms(), 9999, 9, "heartbeat"))
    board.app.hardware.stop()
    remove_flash(flash)
    text = [line.decode("utf-8") for line in out]
    for line in out:
        data = hall_decode.decode(line)
        text.append(" ".join(sorted(data)))
    return text


def main(argv):
    for line in lines():
        print(line)
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
