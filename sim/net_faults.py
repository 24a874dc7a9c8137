"""Network faults on cue for the hall link, in virtual time, on CPython and MicroPython.

``ScriptedStream`` stands in for the socket under ``hal.mqtt``: behind it a
small broker answers CONNECT, SUBSCRIBE and PINGREQ and records what the
board publishes, and a *fault* (``FAULTS``) makes it misbehave while virtual
time is before the fault's end: one byte per call, the first byte of an
push then silence, a CONNACK or a SUBACK that never comes, every write
refused (EAGAIN), a reset in the middle of a publish, a push split over many
reads, bytes that are no MQTT, a packet longer than the client's buffer, a
refused connect, a half-open link (the far end gone without a word: the
stack takes the writes and keeps them, unacknowledged, and the Pico W's
modlwip makes a write wait 10 s once its queue is full). Every call costs
chip time (``CALL_US``, and ``BYTE_US`` for each byte it moves, the
client's handling of it included); the main loop's model (``Run``) adds it
to virtual time, so a call that waited would show as a late pass, a missed
watchdog feed or a changed state line.

``run_fault(name)`` plays the seeded game of ``GAME`` with the fault and
returns what happened; ``main`` prints it for every fault, one JSON line each
(``node tools/mpy/run.mjs sim.net_faults`` and ``python -m sim.net_faults``:
tests/test_hall_faults.py compares both lanes with the game played offline).
"""

import json

from firmware import engine, hall_message
from hal import mqtt
from sim import network, vclock
from sim.world import SimBoard, fresh_flash, remove_flash

CALL_US = 100  # one socket call on the chip (MicroPython into lwIP and back)
BYTE_US = 10  # each byte moved, with the client's own handling of it
FAULT_END_MS = 12_000  # the network is good again from here
HALF_OPEN_MS = 3_000  # "half-open": the far end is gone from here (the game runs)
# The Pico W's stack (MicroPython's extmod/modlwip.c over lwIP): a write's bytes stay
# queued, one buffer a write, until the far end acknowledges them; with
# STACK_BUFFERS queued, lwip_tcp_send retries every 50 ms, 200 times, then fails
# with ENOMEM, also on a non-blocking socket.
STACK_BUFFERS = 32
STACK_RETRY_US = 200 * 50_000
GAME_END_MS = 60_000
TICK_MS = 10
# The seeded game: the left lever starts it at 1 s (the link has joined in setup),
# then each side moves after these thinking times (ms).
THINK_MS = (1310, 870, 2450, 430, 3120, 690, 1980, 2210, 560, 1440, 3300, 780, 1650, 2900, 970)
# (a loopback address: the scripted network never leaves the process, and a hall file
# without a CA is taken for a broker on loopback only: firmware/hall_settings.py)
HALL = {"broker": "127.0.0.2", "port": 1883, "user": "clock-4", "password": "pw", "board": 4}
PUSH = b'{"id": "round-2", "control": "600+5"}'
SETTINGS_TOPIC = b"hall/settings"

FAULTS = (
    "none",
    "one byte per call",
    "first byte then silence",
    "no connack",
    "no suback",
    "writes refused",
    "reset mid-publish",
    "push split",
    "garbage",
    "oversized packet",
    "connect refused",
    "half-open",
)
# The faults after which the arbiter's push comes (the parser must find it whole).
PUSHED = ("push split", "oversized packet")


class Chip:
    """The chip's time spent in the network's calls during one pass, in µs."""

    def __init__(self):
        self.pass_us = 0

    def spend(self, us):
        self.pass_us += us

    def now_ms(self):
        """Virtual time as the network sees it: the pass's own time included."""
        return vclock.now_ms() + self.pass_us // 1000


class Broker:
    """The far end: what every connection has sent, and the answers to it."""

    def __init__(self, fault, push=None):
        self.fault = fault
        self.push = push  # a retained settings push, sent after the SUBACK
        self.published = []  # (ms, topic, payload) as the broker received them
        self.connections = 0

    def faulty(self, chip):
        return chip.now_ms() < FAULT_END_MS


class ScriptedStream:
    """One connection to ``broker``, misbehaving as its fault says."""

    def __init__(self, broker, chip):
        broker.connections += 1
        self.broker = broker
        self.chip = chip
        self.fault = broker.fault if broker.faulty(chip) else "none"
        self.to_client = bytearray()
        self.delivered = 0  # bytes of to_client the client has read
        self.from_client = bytearray()
        self.parsed = 0
        self.broken = False
        self.closed = False
        self.writable_at = chip.now_ms() + 30  # the TCP handshake
        self.writes_refused_until = chip.now_ms() + 4000
        self.publishes_written = 0
        self.silent_after = None  # bytes delivered before the broker falls silent
        self.unacknowledged = 0  # the stack's buffers the far end has not acknowledged
        if self._gone():
            self.writable_at = 1 << 40  # no answer to the handshake

    def _gone(self):
        """The far end is gone (half-open): nothing arrives, nothing is acknowledged."""
        return self.fault == "half-open" and self.chip.now_ms() >= HALF_OPEN_MS

    # --- the stream interface -------------------------------------------------

    def ready(self):
        self.chip.spend(CALL_US)
        if self.broken:
            return mqtt.BROKEN | mqtt.READABLE
        ready = 0
        if self.chip.now_ms() >= self.writable_at:
            ready |= mqtt.WRITABLE
        if self._gone():
            return ready
        if self._available():
            ready |= mqtt.READABLE
        return ready

    def readinto(self, buffer, count):
        self._alive()
        if self._gone():
            self.chip.spend(CALL_US)
            return 0
        count = min(count, self._available())
        if self.fault in ("one byte per call", "push split"):
            count = min(count, 1)
        start = self.delivered
        for index in range(count):
            buffer[index] = self.to_client[start + index]
        self.delivered += count
        self.chip.spend(CALL_US + BYTE_US * count)
        return count

    def write(self, buffer, start, count):
        self._alive()
        self.chip.spend(CALL_US)
        if self.fault == "writes refused" and self.chip.now_ms() < self.writes_refused_until:
            return 0
        if self.fault == "one byte per call":
            count = min(count, 1)
        if self._gone():
            if self.unacknowledged >= STACK_BUFFERS:
                self.chip.spend(STACK_RETRY_US)
                raise OSError(12)  # ENOMEM, after 10 s of retries
            self.unacknowledged += 1
            self.chip.spend(BYTE_US * count)
            return count
        if self.fault == "reset mid-publish" and buffer[start] & 0xF0 == 0x30:
            if self.publishes_written >= 1:  # the board's state: half of it, then a reset
                self.from_client.extend(buffer[start : start + count // 2])
                self.broken = True
                return count // 2
            self.publishes_written += 1
        self.from_client.extend(buffer[start : start + count])
        self.chip.spend(BYTE_US * count)
        self._answer()
        return count

    def close(self):
        self.chip.spend(CALL_US)
        self.closed = True

    # --- the broker's side ----------------------------------------------------------

    def _alive(self):
        if self.broken or self.closed:
            raise OSError(104)  # ECONNRESET

    def _available(self):
        limit = len(self.to_client)
        if self.silent_after is not None:
            limit = min(limit, self.silent_after)
        return limit - self.delivered

    def _answer(self):
        """Read whole packets the board wrote; answer them as the fault allows."""
        data = self.from_client
        while True:
            at = self.parsed
            if len(data) - at < 2:
                return
            length = 0
            shift = 0
            index = at + 1
            while True:
                if index >= len(data):
                    return
                value = data[index]
                index += 1
                length |= (value & 0x7F) << shift
                shift += 7
                if not value & 0x80:
                    break
            if len(data) - index < length:
                return
            self.parsed = index + length
            self._packet(data[at] & 0xF0, data[index : index + length])

    def _packet(self, kind, body):
        fault = self.fault
        out = self.to_client
        if kind == 0x10:  # CONNECT
            if fault != "no connack":
                out.extend(b"\x20\x02\x00\x00")
            if fault == "garbage":
                out.extend(b"\x00\xff\xff\xff\xff\x7f")
        elif kind == 0x80:  # SUBSCRIBE
            if fault != "no suback":
                out.extend(b"\x90\x03" + bytes(body[0:2]) + b"\x00")
            if fault == "first byte then silence":  # a push of which one byte comes
                self.silent_after = len(out) + 1
                _publish(out, SETTINGS_TOPIC, PUSH)
            if fault == "oversized packet":
                _publish(out, SETTINGS_TOPIC, b"x" * 1500)  # the inbox holds 1024
            if self.broker.push is not None:
                _publish(out, SETTINGS_TOPIC, self.broker.push)
        elif kind == 0xC0:  # PINGREQ
            out.extend(b"\xd0\x00")
        elif kind == 0x30:  # PUBLISH
            length = (body[0] << 8) | body[1]
            topic = bytes(body[2 : 2 + length])
            self.broker.published.append((self.chip.now_ms(), topic, bytes(body[2 + length :])))


def _publish(out, topic, payload):
    length = 2 + len(topic) + len(payload)
    out.append(0x31)
    while True:
        digit = length & 0x7F
        length >>= 7
        out.append(digit | 0x80 if length else digit)
        if not length:
            break
    out.append(len(topic) >> 8)
    out.append(len(topic) & 0xFF)
    out.extend(topic)
    out.extend(payload)


class Run:
    """The seeded game on a simulated Pico W, with the link over ``broker`` (or offline)."""

    def __init__(self, broker=None, control="180+2"):
        network.install()
        self.flash = fresh_flash(control, control)
        if broker is not None:
            with open(self.flash + "/hall.json", "w") as handle:
                handle.write(json.dumps(HALL))
        self.board = SimBoard(self.flash, bounce_ms=3, board_name="pico_w")
        self.app = self.board.boot()
        self.chip = Chip()
        self.broker = broker
        self._attach()
        self.longest_pass_us = 0
        self.resets = 0
        self.lines = []

    def _attach(self):
        """The booted board's link, its socket replaced by the scripted stream."""
        self.app = self.board.app
        self.link = getattr(self.app, "hall", None)  # set by boot only with a hall file
        if self.link is not None:
            self.link.resolve = _resolve
            self.link.open_stream = self._open

    def _open(self, address):
        self.chip.spend(CALL_US)
        if self.broker.fault == "connect refused" and self.broker.faulty(self.chip):
            raise OSError(111)  # ECONNREFUSED
        return ScriptedStream(self.broker, self.chip)

    def advance(self, until_ms):
        """Ticks to ``until_ms``, the link's turn after each. A turn's chip time passes
        before the next pass (the ticks and edges of that time are served late); a
        turn as long as the watchdog's timeout resets the board (it boots again)."""
        board = self.board
        while vclock.now_ms() < until_ms:
            board.run_due(min(vclock.now_ms() + TICK_MS, until_ms))
            while self.link is not None and self._pass() and self.link.writing():
                pass  # the main loop does not idle while a message is part written

    def _pass(self):
        """One turn of the link and its chip time; False if it reset the board."""
        board = self.board
        self.chip.pass_us = 0
        self.link.poll(board.app, vclock.ticks_ms())
        spent = self.chip.pass_us
        if spent > self.longest_pass_us:
            self.longest_pass_us = spent
        timeout_ms = board.app.hardware.watchdog.timeout_ms
        if spent // 1000 >= timeout_ms:
            self.resets += 1  # the watchdog was not fed: the board restarts
            board.power_off()
            board.run_due(vclock.now_ms() + timeout_ms)
            board.power_on()
            self._attach()
            return False
        if spent >= 1000:
            board.run_due(vclock.now_ms() + spent // 1000)
        return True

    def press_mover(self):
        running = self.app.clock.running()
        self.board.press("lever_right" if running == 1 else "lever_left")

    def line(self):
        app = self.board.app
        message = hall_message.encode(app, vclock.ticks_ms(), 4, 0, "change").decode()
        return "%d %s %s" % (vclock.now_ms(), message, self.board.display_text())

    def play(self):
        at = 1000
        for think in THINK_MS:
            self.advance(at)
            self.lines.append(self.line())
            if self.app.clock.state in (engine.SETUP, engine.RUNNING):
                self.press_mover()
            at += think
        self.advance(GAME_END_MS)
        self.lines.append(self.line())

    def close(self):
        self.board.app.hardware.stop()
        remove_flash(self.flash)


def _resolve(host, port):
    return (host, port)


def run_fault(fault, push=None):
    """The game with ``fault`` until ``FAULT_END_MS``: a dict of what happened."""
    vclock.reset()
    broker = Broker(fault, push)
    run = Run(broker)
    try:
        run.play()
        states = [sent for sent in broker.published if sent[1] == b"hall/board/4"]
        # The board on the page again: its first message of a new connection after the end.
        back = [
            sent[0]
            for sent in states
            if sent[0] >= FAULT_END_MS and b'"reason":"reconnect"' in sent[2]
        ]
        return {
            "fault": fault,
            "lines": run.lines,
            "longest_pass_us": run.longest_pass_us,
            "watchdog_resets": run.resets,
            "connections": broker.connections,
            "failures": run.link.failures,
            "states_published": len(states),
            "back_after_ms": back[0] - FAULT_END_MS if back else None,
            "last_state": states[-1][2].decode() if states else None,
            "control": run.board.app.settings.control_left,
        }
    finally:
        run.close()


def offline_lines():
    vclock.reset()
    run = Run(None)
    try:
        run.play()
        return run.lines
    finally:
        run.close()


def main(argv):
    names = argv or FAULTS
    print(json.dumps({"fault": "offline", "lines": offline_lines()}))
    for name in names:
        print(json.dumps(run_fault(name, PUSH if name in PUSHED else None)))
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
