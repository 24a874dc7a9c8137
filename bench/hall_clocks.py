"""The hall's simulated clocks, driven in processes of their own by ``bench/hall.py``.

Each clock is the firmware's timing engine (``firmware.engine.Clock`` with its
claims) and the firmware's own link (``hal.hall_link.HallLink``, its own MQTT client
``hal.mqtt``) over a non-blocking socket (``hal.net_stream``), one TCP connection
each. Each side thinks a random 1-6 s per move; a move is pressed at its instant and
its link polled, as the board's main loop does after a pass, and polled again while
its message is part written (the loop does not idle then: hal/runtime.py). The
boards' displays and pins are left out: they cost the network nothing.

``python -m bench.hall_clocks`` is one driving process: it reads its plan (hall
files, seconds, seed, start) as JSON on stdin and prints what it drove as JSON.
"""

import json
import os
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from firmware import claims as claims_module  # noqa: E402
from firmware import engine, hall_message, timecontrol  # noqa: E402
from firmware.notices import Notices  # noqa: E402
from hal import net_stream  # noqa: E402
from hal.battery import NoBattery  # noqa: E402
from hal.hall_link import HallLink  # noqa: E402

CONTROL = "5400+30"


class _Wlan:
    def isconnected(self):
        return True


class _Hall:
    def __init__(self, data):
        self.board = data["board"]
        self.broker = data["broker"]
        self.port = data["port"]
        self.user = data["user"]
        self.password = data["password"]
        self.prefix = data["prefix"]


class _App:
    """The parts of the firmware's App that a hall message reads."""

    def __init__(self):
        control = timecontrol.parse(CONTROL)
        self.clock = engine.Clock(control)
        self.claims = claims_module.Claims(self.clock, "off", "appendix-g")
        self.settings = None
        self.notices = Notices()
        self.hardware = _Hardware()

    def battery(self):
        return self.hardware.battery


class _Hardware:
    battery = NoBattery()


def _ms(started, at=None):
    return int(((time.monotonic() if at is None else at) - started) * 1000)


GROUP = 200  # clocks per driving process: paho's select() takes descriptors below 1024


def drive(halls, seconds, seed, begin):
    """Play the clocks of ``halls`` (hall files) from the monotonic instant ``begin`` for
    ``seconds``: ``(edges {(board, seq): instant}, published, failures, sizes, the
    seconds all of them took to connect)``."""
    chooser = random.Random(seed)
    wlan = _Wlan()
    links, apps = [], []
    started = time.monotonic()
    for data in halls:
        links.append(HallLink(_Hall(data), wlan, net_stream.resolve, net_stream.SocketStream))
        apps.append(_App())
    while not all(link.published for link in links) and time.monotonic() - started < 30:
        for link, app in zip(links, apps, strict=True):
            link.poll(app, _ms(started))  # a connect takes a few turns: it never waits
        time.sleep(0.001)
    connect_s = time.monotonic() - started
    while time.monotonic() < begin:
        for index, link in enumerate(links):
            link.poll(apps[index], _ms(started))
        time.sleep(0.01)
    due = [time.monotonic() + chooser.uniform(0.2, 3.0) for _ in halls]
    edges = {}  # (board, seq) -> the instant the move was due
    sent = {}  # (board, seq) -> the clock's own publish instant: its message written whole
    lags = []  # ms from the instant a move was due to the pass that queued its message
    sizes = []
    published_before = sum(link.published for link in links)
    failures_before = sum(link.failures for link in links)
    try:
        while time.monotonic() - begin < seconds:
            for index, link in enumerate(links):
                app = apps[index]
                now = time.monotonic()
                moved = due[index] <= now
                if moved:
                    edge = due[index]  # the lever's edge: the instant the move was due
                    clock = app.clock
                    side = 0 if clock.state == engine.SETUP else clock.mover
                    clock.press(side, _ms(started, edge))
                    due[index] = now + chooser.uniform(1.0, 6.0)
                queued = link.poll(app, _ms(started))
                while link.writing():  # the board's loop does not idle while it writes
                    link.poll(app, _ms(started))
                if queued and moved:
                    written = time.monotonic()  # the clock's publish instant
                    board = halls[index]["board"]
                    edges[(board, link.seq)] = edge
                    sent[(board, link.seq)] = written
                    lags.append((written - edge) * 1000)
                    if len(sizes) < 1000:
                        message = hall_message.encode(app, _ms(started), board, link.seq, "change")
                        sizes.append(len(message))
            time.sleep(0.005)
        published = sum(link.published for link in links) - published_before
        failures = sum(link.failures for link in links) - failures_before
    finally:
        for link in links:
            link.close()
    return edges, published, failures, sizes, connect_s, lags, sent


def drive_in_processes(halls, seconds, seed, begin, group=GROUP):
    """``drive`` for groups of ``group`` clocks, each in a process of its own."""
    processes = []
    for first in range(0, len(halls), group):
        plan = {"halls": halls[first : first + group], "seconds": seconds}
        plan.update(seed=seed + first, begin=begin)
        process = subprocess.Popen(
            [sys.executable, "-m", "bench.hall_clocks"],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        process.stdin.write(json.dumps(plan))
        process.stdin.close()
        processes.append(process)
    edges, published, failures, sizes, connect_s, lags, sent = {}, 0, 0, [], 0.0, [], {}
    for process in processes:
        done = json.loads(process.stdout.read())
        process.wait(30)
        edges.update(((board, seq), edge) for board, seq, edge, _ in done["edges"])
        sent.update(((board, seq), written) for board, seq, _, written in done["edges"])
        published += done["published"]
        failures += done["failures"]
        sizes += done["sizes"]
        connect_s = max(connect_s, done["connect_s"])
        lags += done["lags"]
    return edges, published, failures, sizes, connect_s, lags, sent


def main():
    plan = json.loads(sys.stdin.read())
    edges, published, failures, sizes, connect_s, lags, sent = drive(
        plan["halls"], plan["seconds"], plan["seed"], plan["begin"]
    )
    rows = [[board, seq, edge, sent[(board, seq)]] for (board, seq), edge in edges.items()]
    done = {"edges": rows, "published": published, "failures": failures, "sizes": sizes}
    done["connect_s"] = connect_s
    done["lags"] = [round(lag, 2) for lag in lags]
    print(json.dumps(done))
    return 0


if __name__ == "__main__":
    sys.exit(main())
