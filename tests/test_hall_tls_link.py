"""The clock's link over TLS (hal/tls_stream.py) against a real Mosquitto with the hall's
own CA: the firmware on a simulated Pico W checks the broker's certificate, and never
runs a handshake while a clock runs."""

import json
import time

import pytest

from firmware import engine
from hall import tls
from hall.clock import HallClock
from sim import vclock
from tests.hall_helpers import Recorder, running_broker

pytestmark = pytest.mark.xdist_group("hall-tls")


@pytest.fixture(scope="module")
def broker():
    with running_broker([1, 2], tls=True) as running:
        yield running


def run_until(clock, predicate, step_ms=100, timeout_s=20.0):
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            return False
        clock.advance(vclock.now_ms() + step_ms)
        time.sleep(0.01)
    return True


def statuses(watch, board):
    return watch.on("hall/board/%d/status" % board)


def test_a_clock_joins_over_tls_and_comes_back_only_when_it_stands(broker):
    watch = Recorder(broker)
    clock = HallClock(broker.hall_file(1), control="300")
    try:
        assert clock.link.tls
        assert run_until(clock, lambda: statuses(watch, 1) == [b"online"])
        assert run_until(clock, lambda: any(m for m in watch.on("hall/board/1")))
        clock.press_running_lever()
        assert clock.app.clock.state == engine.RUNNING
        clock.link.client.stream.sock.close()  # the link is lost in play
        assert watch.wait_for(lambda: statuses(watch, 1)[-1:] == [b"offline"])
        opened = clock.link.failures
        # Twenty virtual seconds of play, past every backoff: no new connection starts.
        for _ in range(40):
            clock.advance(vclock.now_ms() + 500)
            assert clock.link.client.state == 0  # hal.mqtt.DOWN: no socket, no handshake
            time.sleep(0.005)
        assert clock.link.failures == opened + 1 and statuses(watch, 1)[-1] == b"offline"
        clock.board.press("play")  # the clock stands (paused): the link comes back
        assert clock.app.clock.state == engine.PAUSED
        assert run_until(clock, lambda: statuses(watch, 1)[-1] == b"online")
        last = json.loads(watch.on("hall/board/1")[-1])
        assert run_until(
            clock, lambda: json.loads(watch.on("hall/board/1")[-1])["state"] == "paused"
        )
        assert last["board"] == 1
    finally:
        clock.close()
        watch.close()


def test_a_handshake_under_way_when_a_clock_starts_is_dropped(broker):
    clock = HallClock(broker.hall_file(2), control="300")
    try:
        clock.advance(vclock.now_ms() + clock.tick_ms)  # the first poll opens the connection
        assert clock.link.client.state != 0
        clock.press_running_lever()
        clock.advance(vclock.now_ms() + clock.tick_ms)
        assert clock.link.client.state == 0 and clock.link.client.reason == "handshake in play"
    finally:
        clock.close()


def test_a_broker_another_ca_signed_is_refused(broker, tmp_path):
    watch = Recorder(broker)
    other_ca, _ = tls.make_ca(str(tmp_path), "another hall")
    with open(other_ca) as handle:
        hall_file = dict(broker.hall_file(2), ca=handle.read())
    clock = HallClock(hall_file, control="300")
    try:
        assert run_until(clock, lambda: clock.link.failures >= 2)
        assert statuses(watch, 2) == [] and watch.on("hall/board/2") == []
    finally:
        clock.close()
        watch.close()


def handshake(broker, server_name, seconds=20.0):
    """A ``TlsStream`` to the broker expecting its certificate to name ``server_name``,
    stepped until its handshake is done (True) or the stream is broken (False)."""
    from hal.mqtt import BROKEN
    from hal.tls_stream import TlsStream

    with open(broker.ca) as handle:
        ca = handle.read()
    stream = TlsStream((broker.host, broker.port), ca, server_name)
    try:
        deadline = time.monotonic() + seconds  # a bound on a hang, never reached when it works
        while time.monotonic() < deadline:
            if stream.ready() & BROKEN:
                return False
            if stream.secured:
                return True
            time.sleep(0.005)
        raise AssertionError("the handshake neither ended nor broke in %d s" % seconds)
    finally:
        stream.close()


def test_the_broker_certificate_must_name_the_address_the_hall_file_gives(broker):
    # The hall's CA signed the broker's certificate for its address (hall.tls); the same
    # certificate from a broker the hall file names otherwise is refused at the handshake
    assert broker.host == "127.0.0.1"
    assert handshake(broker, broker.host)
    assert not handshake(broker, "127.0.0.2")
    assert not handshake(broker, "hall.example")
