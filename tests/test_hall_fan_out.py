"""The one thread that writes every page's event stream (hall/fan_out.py)."""

import re
import socket
import threading
import time

import pytest

from hall import fan_out, page_server
from tests.hall_helpers import until


class _Marks:
    """What each stream has not had yet: lines of numbers, as the view's boards."""

    def __init__(self):
        self.lock = threading.Lock()
        self.of = {}

    def add(self, stream, number):
        with self.lock:
            self.of.setdefault(stream, []).append(number)

    def changes(self, stream):
        with self.lock:
            return b"".join(b"%d\n" % n for n in self.of.pop(stream, []))


def _stream():
    """A stream and the page's end of its socket."""
    ours, page = socket.socketpair()
    ours.setblocking(False)
    stream = fan_out.Stream()
    stream.sock = ours
    return stream, page


@pytest.fixture
def hall():
    made = []

    def make(streams, alive_s=30, changes=None):
        marks = _Marks()
        writer = fan_out.FanOut(lambda: list(streams), changes or marks.changes, alive_s)
        writer.start()
        made.append(writer)
        return writer, marks

    yield make
    for writer in made:
        writer.stop()


ALIVE = re.compile(rb'event: alive\ndata: \{"now_ms":\d+\}\n\n')


def _read_until(page, wanted, seconds, raw=False):
    """The page's bytes until ``wanted`` is among them, or what came in ``seconds``;
    without the alive events that start each batch (their clock) unless ``raw``."""
    page.settimeout(0.05)
    data = bytearray()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            chunk = page.recv(65536)
        except TimeoutError:
            continue
        data += chunk
        # only the new bytes and the end of the old can complete it (a batch is MBs)
        if data.find(wanted, max(0, len(data) - len(chunk) - len(wanted))) >= 0:
            break
    data = bytes(data)
    return data if raw else ALIVE.sub(b"", data)


def test_every_change_wakes_the_writer_however_fast_they_come(hall):
    # A change signalled while the writer drains its wake bytes must not be lost:
    # a lost one would wait for the alive deadline (30 s here).
    stream, page = _stream()
    writer, marks = hall([stream])
    for number in range(2000):
        marks.add(stream, number)
        writer.signal()
        if number % 50 == 0:
            time.sleep(0.001)
    # 10 s: room for a loaded machine, a third of the wait a lost wake would cost
    data = _read_until(page, b"\n1999\n", 10.0)
    assert data.split() == [b"%d" % n for n in range(2000)]
    for number in range(2000, 2200):  # and it still wakes after the storm
        marks.add(stream, number)
        writer.signal()
        assert b"%d\n" % number in _read_until(page, b"%d\n" % number, 1.0)


class _WakeInTheDrain:
    """The writer's wake socket, with a change that comes while the writer drains it."""

    def __init__(self, sock, change):
        self.sock = sock
        self.change = change

    def fileno(self):
        return self.sock.fileno()

    def recv(self, size):
        change, self.change = self.change, None
        if change is not None:
            change()
        return self.sock.recv(size)

    def close(self):
        self.sock.close()


def test_a_change_during_the_drain_leaves_the_writer_awake_for_the_next():
    stream, page = _stream()
    marks = _Marks()
    writer = fan_out.FanOut(lambda: [stream], marks.changes, 30)

    def change():
        marks.add(stream, 1)
        writer.signal()

    writer.wake_read = _WakeInTheDrain(writer.wake_read, change)
    writer.start()
    try:
        writer.signal()
        assert _read_until(page, b"1\n", 1.0) == b"1\n"
        marks.add(stream, 2)
        writer.signal()
        assert _read_until(page, b"2\n", 10.0) == b"2\n"  # not at the alive deadline (30 s)
    finally:
        writer.stop()


def test_a_page_that_stops_reading_holds_no_other_and_is_ended(hall, monkeypatch):
    monkeypatch.setattr(page_server, "WRITE_S", 5.0)
    stuck, stuck_page = _stream()
    stuck_page.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    reading, page = _stream()
    marks = _Marks()
    batch = b"x" * 4_000_000  # far more than the stuck page's socket buffers hold

    def changes(stream):
        return batch if stream is stuck else marks.changes(stream)

    began = time.monotonic()  # before the writer first looks at the streams
    writer, _ = hall([stuck, reading], changes=changes)
    for number in range(40):
        marks.add(reading, number)
        writer.signal()
        assert b"%d\n" % number in _read_until(page, b"%d\n" % number, 20.0)
        if number == 0:  # served while the stuck page still stood: never held for it
            assert not stuck.ended.is_set()
    assert stuck.ended.wait(30.0), "a page that takes nothing is ended after WRITE_S"
    assert time.monotonic() - began >= 5.0
    assert stuck.closed and not reading.closed


def test_a_slow_page_holds_one_batch_and_is_not_asked_again_until_it_took_it(hall):
    slow, slow_page = _stream()
    slow_page.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    asked = []
    batch = b"y" * 4_000_000  # far more than the slow page's socket buffers hold

    def changes(stream):
        asked.append(stream)
        return batch if len(asked) == 1 else b""

    writer, _ = hall([slow], changes=changes)
    writer.signal()
    assert until(lambda: asked and slow.pending)  # the page holds part of the batch
    for _ in range(50):
        writer.signal()
        time.sleep(0.002)
    assert len(asked) == 1 and slow.pending
    assert len(slow.pending) < len(batch)  # part of it went
    got = b""
    slow_page.settimeout(2)
    while not got.endswith(batch):
        got += slow_page.recv(1 << 22)
    assert ALIVE.sub(b"", got) == batch
    writer.signal()
    assert until(lambda: len(asked) >= 2)  # taken whole: asked again


def test_what_came_while_a_slow_page_caught_up_follows_without_another_signal(hall):
    # The change is signalled while the page still holds part of a batch: the writer
    # wakes but gathers nothing for that page then. Once the page has taken the batch
    # the change must follow at once, not at the alive deadline (30 s here).
    slow, slow_page = _stream()
    slow_page.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    batch = b"y" * 4_000_000  # far more than the slow page's socket buffers hold
    marks = _Marks()
    asked = []

    def changes(stream):
        asked.append(stream)
        return batch if len(asked) == 1 else marks.changes(stream)

    writer, _ = hall([slow], changes=changes)
    writer.signal()
    assert until(lambda: asked and slow.pending)  # part went, the rest waits for the page
    marks.add(slow, 7)
    writer.signal()
    # the batch's end, an alive event, then the change (nothing of an alive event ends
    # in a digit and a newline): read until it, not for the whole bound
    got = _read_until(slow_page, b"7\n", 10.0)
    assert got == batch + b"7\n"


def test_a_quiet_stream_gets_the_alive_event_at_its_deadline(hall):
    began = time.monotonic()  # before the stream: its quiet time counts from its start
    stream, page = _stream()
    writer, _marks = hall([stream], alive_s=0.3)
    data = _read_until(page, b"}\n\n", 10.0, raw=True)
    took = time.monotonic() - began
    assert ALIVE.fullmatch(data), data  # the alive event alone, with the view's clock
    # not before its deadline, and long before the 30 s of a writer that ignored it (the
    # upper bound leaves a loaded machine's thread wake-ups room)
    assert 0.3 <= took < 5.0


def test_no_byte_goes_to_a_stream_once_it_is_ended(hall):
    stream, page = _stream()
    writer, marks = hall([stream])
    stream.end()
    marks.add(stream, 7)
    writer.signal()
    assert _read_until(page, b"7\n", 0.3) == b""


class _TakingSocket:
    """A page's socket that takes ``takes[i]`` bytes at the i-th send (0: full)."""

    def __init__(self, *takes):
        self.takes = list(takes)

    def send(self, data):
        taken = self.takes.pop(0)
        if taken == 0:
            raise BlockingIOError
        return min(taken, len(data))


def _sent_at(now, *takes):
    """A stream whose page last took bytes at 0 s, sent to at ``now`` by the writer
    (its pass, ``_send``) with a page that takes ``takes``: whether it is still open."""
    writer = fan_out.FanOut(lambda: [], lambda stream: b"", 30)
    try:
        stream = fan_out.Stream()
        stream.sock = _TakingSocket(*takes)
        stream.pending = b"x" * 100
        stream.took_at = stream.written_at = 0.0
        for at in now:
            writer._send(stream, at)
        return not stream.closed
    finally:
        writer.wake_read.close()
        writer.wake_write.close()


def test_a_page_that_reads_slowly_but_steadily_is_kept_at_the_writers_deadline():
    # page_server.WRITE_S: a page that takes nothing for that long is ended. One that
    # takes a byte at each deadline, however slowly, is reading: it stays.
    deadline = page_server.WRITE_S
    assert _sent_at([deadline], 1)  # a byte taken at the deadline itself
    assert _sent_at([deadline, 2 * deadline, 3 * deadline], 1, 1, 1)
    assert _sent_at([deadline - 0.001], 0)  # nothing taken, not yet past
    assert not _sent_at([deadline], 0)  # nothing taken for the whole of it
    assert not _sent_at([deadline, 2 * deadline], 1, 0)  # then it stopped
