"""The bytes the hall link allocates per pass of the main loop, with the link busy, inside
MicroPython.

``node tools/mpy/run.mjs --compiled bench.hall_alloc`` boots the firmware
(``.mpy``) on ``pico_w`` with a hall file, connects its link over a stream that
allocates nothing itself (``_QuietStream``: the broker's CONNACK and SUBACK,
then a PINGRESP now and then, every write taken), starts a game and presses a
lever every ``_PRESS_EVERY`` passes. Around each ``HallLink.poll`` it reads
``gc.mem_alloc()``: the passes that move bytes, the passes that receive, and
the passes that publish a message (``hall_message.encode`` builds it) are
counted apart, and the pass in which the arbiter's settings push comes while
the clock runs (``_PUSH_AT``: left unread until the clock stands). Prints
one JSON object.
"""

import gc
import json

from bench import boot_heap
from sim import network, vclock
from sim.world import SimBoard

_PASSES = 600
_PRESS_EVERY = 37
_PUSH_AT = 300  # the pass in which a settings push comes, the game running
_PUSH = b'\x31\x1a\x00\x0dhall/settings{"id":"r9"}'  # PUBLISH on PREFIX/settings, retained
_HALL = '{"broker": "127.0.0.2", "port": 1883, "user": "clock-1", "password": "pw", "board": 1}'


class _QuietStream:
    """A connection that allocates nothing: bytes to give, writes counted."""

    def __init__(self):
        self.incoming = bytearray(64)
        self.count = 0
        self.at = 0
        self.written = 0
        self.give(b"\x20\x02\x00\x00\x90\x03\x00\x01\x00")

    def give(self, data):
        index = 0
        while index < len(data):
            self.incoming[self.count] = data[index]
            self.count += 1
            index += 1

    def ready(self):
        return 3 if self.at < self.count else 2  # readable and writable, or writable

    def readinto(self, buffer, count):
        moved = 0
        while moved < count and self.at < self.count:
            buffer[moved] = self.incoming[self.at]
            self.at += 1
            moved += 1
        if self.at == self.count:
            self.at = self.count = 0
        return moved

    def write(self, buffer, start, count):
        self.written += count
        return count

    def close(self):
        pass


def main(argv):
    network.install()
    flash = boot_heap.settings_flash("300+2")
    with open(flash + "/hall.json", "w") as handle:
        handle.write(_HALL)
    board = SimBoard(flash, bounce_ms=0, board_name="pico_w")
    app = board.boot()
    link = app.hall
    stream = _QuietStream()
    link.resolve = lambda host, port: (host, port)
    link.open_stream = lambda address: stream
    figures = {"passes": 0, "publishing": 0, "receiving": 0}
    quiet = []
    published = []
    at = 0
    for index in range(_PASSES + 40):
        at += 10
        board.run_due(at)
        if index % _PRESS_EVERY == 5:
            running = app.clock.running()
            board.press("lever_right" if running == 1 else "lever_left")
        if index % 50 == 20:
            stream.give(b"\xd0\x00")  # a PINGRESP comes (the link need not have asked)
        if index == _PUSH_AT:
            stream.give(_PUSH)
        receiving = stream.at < stream.count
        sent_before = link.published
        before = gc.mem_alloc()
        link.poll(app, vclock.ticks_ms())
        used = gc.mem_alloc() - before
        if index < 40:
            continue  # the connection is made (and its first messages built)
        if index == _PUSH_AT:
            figures["push_in_play_bytes"] = used
            figures["push_in_play_left_unread"] = link.push_again and link.push == "none"
        figures["passes"] += 1
        if link.published != sent_before:
            figures["publishing"] += 1
            published.append(used)
        else:
            quiet.append(used)
            if receiving:
                figures["receiving"] += 1
    figures["bytes_per_pass_without_a_message_max"] = max(quiet)
    figures["bytes_per_message_pass_max"] = max(published) if published else None
    figures["link_up"] = link.client.up()
    figures["bytes_written"] = stream.written
    print(json.dumps(figures))
    app.hardware.stop()
    gc.collect()
    return 0
