"""A clock of the hall: the real firmware on a simulated Pico W, with a real socket.

``HallClock`` writes the settings and hall files on a fresh simulated flash,
puts the simulator's ``network`` in place of MicroPython's, and boots
``hal.boot.start`` on the ``pico_w`` definition: the firmware's own
``hal.hall_link`` connects to the broker.
Time is virtual (``sim.vclock``); ``advance`` runs the board in steps of one
tick and gives the link its turn between them, as the board's main loop does
(``hal.runtime.loop``). ``play_seeded`` plays a seeded random game against
the wall clock, ``speed`` times faster.

One process holds one simulated board (its time and pins are the process's
own), so ``make hall`` runs each clock as ``python -m hall.clock``.
"""

import argparse
import json
import random
import sys
import time

from sim import vclock
from sim.world import SimBoard, fresh_flash, remove_flash

BOARD_NAME = "pico_w"


def install_network():
    """The simulator's ``network`` in place of MicroPython's (the link's MQTT client is
    the clock's own, over the host's sockets)."""
    from sim import network

    network.install()


class HallClock:
    """One simulated board with its hall file, booted."""

    def __init__(self, hall_data, control="300+2", quickplay="off", edition="appendix-g"):
        install_network()
        self.flash = fresh_flash(control, control, quickplay, edition)
        if hall_data is not None:
            with open(self.flash + "/hall.json", "w") as handle:
                handle.write(hall_data if isinstance(hall_data, str) else json.dumps(hall_data))
        self.board = SimBoard(self.flash, bounce_ms=3, board_name=BOARD_NAME)
        self.app = self.board.boot()
        self.link = getattr(self.app, "hall", None)
        self.tick_ms = self.board.board.TICK_MS
        self.longest_poll_s = 0.0  # the longest turn the link took (wall time)
        self.polls = 0

    def poll(self):
        """The link's turn between two passes of the main loop."""
        if self.link is None or not self.board.powered:
            return
        started = time.monotonic()
        self.link.poll(self.app, vclock.ticks_ms())
        self.longest_poll_s = max(self.longest_poll_s, time.monotonic() - started)
        self.polls += 1

    def advance(self, until_ms):
        """Run the board to virtual ``until_ms`` a tick at a time, the link between ticks."""
        now = vclock.now_ms()
        while now < until_ms:
            now = min(now + self.tick_ms, until_ms)
            self.board.run_due(now)
            self.app = self.board.app
            self.poll()

    def press_running_lever(self):
        """The side to move presses its lever (the first press: the left lever)."""
        running = self.app.clock.running()
        self.board.press("lever_right" if running == 1 else "lever_left")

    def close(self):
        if self.link is not None:
            self.link.close()
        remove_flash(self.flash)


def play_seeded(clock, seed, speed=1.0, think_ms=6000, seconds=None, moves=80):
    """Play a seeded random game: each move thinks an exponential time around
    ``think_ms`` (virtual); wall time runs ``speed`` times slower than virtual."""
    chooser = random.Random(seed)
    wall_start = time.monotonic()
    virtual_start = vclock.now_ms()
    next_move = virtual_start + int(chooser.expovariate(1.0 / 2000))
    played = 0
    while seconds is None or time.monotonic() - wall_start < seconds:
        target = virtual_start + int((time.monotonic() - wall_start) * 1000 * speed)
        if played < moves and next_move <= target:
            clock.advance(next_move)
            state = clock.app.clock.state
            if state in (0, 1):  # setup or running: the side to move presses
                clock.press_running_lever()
                played += 1
            next_move += max(200, int(chooser.expovariate(1.0 / think_ms)))
        else:
            clock.advance(target)
            time.sleep(0.02)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m hall.clock", description=__doc__)
    parser.add_argument("--hall-file", required=True, help="the hall file (JSON) to flash")
    parser.add_argument("--control", default="300+2")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--speed", type=float, default=1.0)
    parser.add_argument("--think-ms", type=int, default=6000)
    parser.add_argument("--seconds", type=float, default=None)
    args = parser.parse_args(argv)
    with open(args.hall_file) as handle:
        hall_data = handle.read()
    clock = HallClock(hall_data, args.control)
    try:
        play_seeded(clock, args.seed, args.speed, args.think_ms, args.seconds)
    except KeyboardInterrupt:
        pass
    finally:
        clock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
