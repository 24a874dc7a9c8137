"""A message longer than one pass's write goes out in consecutive passes of the main
loop, not one pass a wake (hal/mqtt.py ``writing``, hal/runtime.py ``turn``).

A loop that slept between passes until its next step (a second, at rest) would
hold a 349-byte message written 96 bytes a pass for seconds before it was even
on the network. Each pass stays bounded (``WRITE_CHUNK``); only the
wait between passes goes."""

import types

import pytest

from hal import mqtt, runtime

CONNACK = b"\x20\x02\x00\x00"


class Stream:
    """A writable stream that takes ``takes`` bytes a call (all asked if None)."""

    def __init__(self, incoming=CONNACK, takes=None):
        self.incoming = bytearray(incoming)
        self.takes = takes
        self.written = bytearray()
        self.calls = 0

    def ready(self):
        return mqtt.WRITABLE | (mqtt.READABLE if self.incoming else 0)

    def readinto(self, buffer, count):
        count = min(count, len(self.incoming))
        buffer[0:count] = self.incoming[0:count]
        del self.incoming[0:count]
        return count

    def write(self, buffer, start, count):
        self.calls += 1
        if self.takes is not None:
            count = min(count, self.takes)
        self.written.extend(buffer[start : start + count])
        return count

    def close(self):
        pass


def up_client(stream):
    client = mqtt.Client(b"clock-4", b"clock-4", b"pw", 60)
    client.open(stream, 0, b"hall/board/4/status", b"offline")
    for now in range(0, 200, 10):
        if client.poll(now) == mqtt.CONNECTED:
            break
    else:
        raise AssertionError("no CONNACK")
    while client.writing():
        client.poll(200)
    return client


def publish_of(client, size):
    """Queue a PUBLISH whose packet is ``size`` bytes (topic ``t``)."""
    payload = bytes(size - 2 - 2 - 1 - (1 if size - 3 > 127 else 0))
    assert client.publish(b"t", payload)
    return client.out_end - client.out_start


@pytest.mark.parametrize(
    "size, passes",
    [
        (mqtt.WRITE_CHUNK, 1),  # one pass's write at the limit
        (mqtt.WRITE_CHUNK + 1, 2),  # one byte past it: a second pass
        (349, 4),  # the hall message's size on the bench
    ],
)
def test_a_message_is_written_in_consecutive_passes(size, passes):
    stream = Stream()
    client = up_client(stream)
    assert publish_of(client, size) == size
    before = len(stream.written)
    polls = 1
    client.poll(300)
    while client.writing():
        polls += 1
        client.poll(300)
        assert polls <= passes
    assert polls == passes
    assert len(stream.written) - before == size
    assert not client.writing()


def test_a_stream_that_takes_nothing_is_not_asked_again_before_the_tick():
    stream = Stream(takes=0)
    client = mqtt.Client(b"clock-4", b"clock-4", b"pw", 60)
    client.open(stream, 0, b"hall/board/4/status", b"offline")
    client.poll(0)
    assert client.out_end != client.out_start  # CONNECT queued, nothing taken
    assert not client.writing()


def test_a_stream_that_takes_part_keeps_the_loop_writing():
    stream = Stream(takes=10)
    client = up_client(stream)
    publish_of(client, 40)
    client.poll(300)
    assert client.writing()


class _Done(Exception):
    pass


class _Hall:
    """A link with ``parts`` passes of writing to do."""

    def __init__(self, parts):
        self.parts = parts
        self.polls = 0

    def poll(self, app, now):
        self.polls += 1
        self.parts -= 1

    def writing(self):
        return self.parts > 0

    def deadline(self):
        return None


def test_the_main_loop_does_not_sleep_while_the_link_writes(monkeypatch):
    hall = _Hall(parts=4)
    polls_at_sleep = []

    def wait(app, until):
        polls_at_sleep.append(hall.polls)
        if len(polls_at_sleep) == 2:
            raise _Done

    hardware = types.SimpleNamespace(sleep=types.SimpleNamespace(wait=wait))
    monkeypatch.setattr(runtime, "service", lambda app, hardware: False)
    with pytest.raises(_Done):
        runtime.loop(None, hardware, hall)
    assert polls_at_sleep == [4, 5]  # four passes back to back, then one a wake


def test_the_clocks_socket_sends_each_part_without_waiting_for_an_ack():
    import socket

    from hal import net_stream

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    stream = net_stream.SocketStream(server.getsockname())
    try:
        assert stream.sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
    finally:
        stream.close()
        server.close()


def test_the_broker_sends_each_message_without_waiting_for_an_ack():
    from hall import broker_conf

    text = broker_conf.conf_text("p", "a", [(1883, "127.0.0.1", 10, None)])
    assert "set_tcp_nodelay true" in text.splitlines()


class _Timed(_Hall):
    """A link done writing whose next timed work is at ``due``."""

    def __init__(self, due):
        super().__init__(parts=0)
        self.due = due

    def deadline(self):
        return self.due


def _sleep_timeout(link, step_in_ms):
    """The timeout the main loop's sleep asks of its poll, the app's next step
    ``step_in_ms`` on and the link's ``link``."""
    from hal import sleep as hal_sleep
    from hal import tick_source

    class Ticker:
        def ms_left(self):
            return step_in_ms

    class Poll:
        def register(self, stream, mask):
            pass

        def ipoll(self, timeout):
            asked.append(timeout)

    asked = []
    sleep = hal_sleep.Sleep(Ticker())
    sleep.watch_with(Poll())
    hardware = types.SimpleNamespace(sleep=sleep)
    now = tick_source.ticks_ms()
    link.due = None if link.due is None else link.due + now
    runtime.turn(None, hardware, link)
    return asked[0]


def test_the_loop_sleeps_to_the_links_deadline_when_it_comes_first(monkeypatch):
    monkeypatch.setattr(runtime, "service", lambda app, hardware: False)
    assert _sleep_timeout(_Timed(300), 1_000) in (299, 300)  # the link's heartbeat first
    assert _sleep_timeout(_Timed(5_000), 1_000) == 1_000  # the app's step first
    assert _sleep_timeout(_Timed(None), 1_000) == 1_000  # nothing timed: the app's
    assert _sleep_timeout(_Timed(-5), 1_000) == 1_000  # come already: no spinning on it
