"""The network never touches timing, through a real broker: one seeded game, played offline
and then through a proxy that stalls in the middle of a packet, trickles a byte a
second, hangs, slows, refuses and cuts, and a broker that is stopped and restarted,
gives the same state line after every move, and no turn of the link comes near
the watchdog.

Both games are the firmware on a simulated Pico W in virtual time; the second
has a hall file and reaches a real Mosquitto through the proxy
(``tests/hall_helpers.Proxy``). The link gets its turn after every tick, as on
the board; its calls are real socket calls, timed in wall time
(``HallClock.longest_poll_s``). Virtual time is paced a little by wall time so
the broker's answers can come. A link that waited on its socket (micropython-lib's
``umqtt.simple`` after the first byte of a packet) would never return from the
stall; one whose connect or write waits for its timeout would take a quarter
of a second or more. The chip's own time for each call is the subject of
tests/test_hall_faults.py.
"""

import random
import socket
import threading
import time

import pytest

from firmware import engine, hall_message
from hall.clock import HallClock
from sim import machine as sim_machine
from sim import vclock
from tests.hall_helpers import Proxy, Recorder, running_broker

# One worker plays the whole module: one broker for it.
pytestmark = pytest.mark.xdist_group("hall-timing")

MOVES = 70
SEED = 14
ACTIONS = (
    "stall",
    "pass",
    "halt",
    "start",
    "trickle",
    "pass",
    "hang",
    "pass",
    "slow",
    "pass",
    "refuse",
    "pass",
    "cut",
    "stall",
    "pass",
)
# Far under the watchdog's 5 s: a turn that waited on the network (the stall) would
# never end. Wall time: on a loaded machine a turn of a few non-blocking calls can be
# held off its core for a tenth of a second and more, so that a quarter of a second
# of waiting (a blocking connect or write) is told apart by ``_BlockingCalls`` instead.
LONGEST_TURN_S = 1.0
STEP_MS = 100  # virtual time between two short sleeps of wall time


class _BlockingCalls:
    """Every call the link's thread makes on a socket that may block (its timeout is not
    0: a blocking socket, or one with a timeout), while ``watching``: the link's sockets
    are non-blocking from their connect on (hal/net_stream.py), however slow the
    machine. The other threads' sockets (the proxy's, the recorder's) are not watched."""

    def __init__(self, monkeypatch):
        self.calls = []
        self.watching = False
        self.thread = threading.get_ident()
        watch = self
        base = socket.socket

        class Watched(base):
            def _note(self, name):
                if watch.watching and threading.get_ident() == watch.thread:
                    if self.gettimeout() != 0.0:
                        watch.calls.append(name)

            def connect(self, address):
                self._note("connect")
                return base.connect(self, address)

            def connect_ex(self, address):
                self._note("connect_ex")
                return base.connect_ex(self, address)

            def send(self, data, *flags):
                self._note("send")
                return base.send(self, data, *flags)

            def sendall(self, data, *flags):
                self._note("sendall")
                return base.sendall(self, data, *flags)

            def recv(self, size, *flags):
                self._note("recv")
                return base.recv(self, size, *flags)

            def recv_into(self, buffer, *args):
                self._note("recv_into")
                return base.recv_into(self, buffer, *args)

        monkeypatch.setattr(socket, "socket", Watched)


def state_line(clock):
    app = clock.app
    message = hall_message.encode(app, vclock.ticks_ms(), 1, 0, "change").decode()
    return "%d %s %s" % (vclock.now_ms(), message, clock.board.display_text())


def think_times():
    chooser = random.Random(SEED)
    return [chooser.randint(200, 5000) for _ in range(MOVES)]


def paced(clock, until_ms):
    while vclock.now_ms() < until_ms:
        clock.advance(min(vclock.now_ms() + STEP_MS, until_ms))
        time.sleep(0.001)


def play(hall_data, chaos=None, sockets=None):
    """The seeded game; ``chaos``: (virtual ms, action) pairs done when their time comes;
    ``sockets``: a ``_BlockingCalls`` to watch the link's socket calls with."""
    clock = HallClock(hall_data, control="180+2")
    if sockets is not None:
        sockets.watching = True
    events = list(chaos or [])
    lines = []
    try:
        at = 1000
        for think in think_times():
            while events and events[0][0] <= at:
                when, action = events.pop(0)
                paced(clock, when)
                if sockets is not None:
                    sockets.watching = False  # the broker's own start: not the link's
                action()
                if sockets is not None:
                    sockets.watching = True
            paced(clock, at)
            lines.append(state_line(clock))
            if clock.app.clock.state in (engine.SETUP, engine.RUNNING):
                clock.press_running_lever()
            at += think
        paced(clock, at + 5000)
        lines.append(state_line(clock))
        feeds = sim_machine.watchdog().feeds
        return lines, feeds, clock
    finally:
        if sockets is not None:
            sockets.watching = False
        clock.close()


@pytest.fixture(scope="module")
def broker():
    with running_broker([1]) as running:
        yield running


def test_a_broken_network_changes_no_state_line(broker, monkeypatch):
    offline, offline_feeds, _ = play(None)
    assert any('"flag_' in line for line in offline)
    proxy = Proxy(broker.port)
    watch = Recorder(broker, topic="hall/board/1")
    try:
        chooser = random.Random(SEED + 1)
        total = 1000 + sum(think_times())
        instants = sorted(chooser.randint(2000, total) for _ in ACTIONS)

        def act(name):
            def run():
                if name == "halt":
                    broker.halt()
                elif name == "start":
                    broker.start()
                elif name == "cut":
                    proxy.cut()
                else:
                    proxy.mode = name
                    if name != "pass":
                        proxy.cut()  # the next connection meets the new behaviour

            return run

        chaos = list(zip(instants, [act(name) for name in ACTIONS], strict=True))
        hall = broker.hall_file(1)
        hall["port"] = proxy.port
        sockets = _BlockingCalls(monkeypatch)
        online, online_feeds, clock = play(hall, chaos, sockets)
    finally:
        proxy.close()
        if broker.process is None or broker.process.poll() is not None:
            broker.start()
        watch.close()
    assert online == offline  # the same game, line for line, display included
    assert online_feeds == offline_feeds  # the link held back no step: each fed the dog
    link = clock.link
    assert link.failures >= 3  # the network really broke, more than once
    assert link.published >= 10  # and the game was published around the breaks
    # No turn of the link waited on the network: each is the host's time for a few
    # non-blocking calls, on sockets that never block.
    assert clock.polls > 1000 and sockets.calls == []
    assert clock.longest_poll_s < LONGEST_TURN_S, clock.longest_poll_s
