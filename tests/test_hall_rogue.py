"""Rogue brokers, against real Mosquitto listeners on loopback: one whose certificate
another CA signed, and one whose certificate the hall's own CA signed for another
address (the IP address form of docs/hall.md: 127.0.0.2 where the clocks go to
127.0.0.1). The clock's link (hal/tls_stream.py on a simulated Pico W), the view and
the arbiter's push each refuse both and join the hall's own broker; and none of them
speaks plain MQTT to an address off loopback."""

import ssl
import time

import pytest

from hall import push
from hall.broker import Broker
from hall.clock import HallClock
from hall.view import HallView
from sim import vclock
from tests.hall_helpers import need_broker, worker_port

pytestmark = pytest.mark.xdist_group("hall-rogue")

UP = 3  # hal.mqtt.UP: the CONNACK came


@pytest.fixture(scope="module")
def brokers():
    need_broker()
    hall = Broker([1], port=worker_port(), tls=True)
    # Each rogue takes the hall's passwords: only the certificate's check stops a client.
    other_ca = Broker([1], port=worker_port(), tls=True, passwords_of=hall)
    other_name = Broker(
        [1], port=worker_port(), tls=True, signed_by=hall, name="127.0.0.2", passwords_of=hall
    )
    yield hall, {"another CA": other_ca, "the hall's CA, another address": other_name}
    for broker in (hall, other_ca, other_name):
        broker.stop()


def joins(hall_file, seconds=5.0):
    """Whether a clock with ``hall_file`` gets its CONNACK within ``seconds``; and how
    many connections it lost meanwhile."""
    clock = HallClock(hall_file, control="300")
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            clock.advance(vclock.now_ms() + 100)
            if clock.link.client.state == UP:
                return True, clock.link.failures
            time.sleep(0.01)
        return False, clock.link.failures
    finally:
        clock.close()


ROGUES = ["another CA", "the hall's CA, another address"]


@pytest.mark.parametrize("rogue", ROGUES)
def test_the_clock_refuses_a_rogue_broker_and_joins_the_halls(brokers, rogue):
    hall, rogues = brokers
    joined, _ = joins(hall.hall_file(1))
    assert joined  # the hall's own broker, with the same file
    # the same hall file (the hall's CA, broker 127.0.0.1), the rogue at that address
    joined, failures = joins(dict(hall.hall_file(1), port=rogues[rogue].port))
    assert not joined and failures >= 2


@pytest.mark.parametrize("rogue", ROGUES)
def test_the_view_and_the_push_refuse_a_rogue_broker(brokers, rogue):
    hall, rogues = brokers
    broker = rogues[rogue]
    lines = []
    view = HallView(
        broker.host, broker.port, "view", hall.passwords["view"], ca=hall.ca, log=lines.append
    )
    try:
        assert not view.connected.wait(3) and not view.broker_up
    finally:
        view.close()
    account = {"broker": broker.host, "port": broker.port, "user": "arbiter", "ca": hall.ca}
    account["password"] = hall.passwords["arbiter"]
    with pytest.raises(ssl.SSLError):
        push.publish(account, b'{"id": "x"}')
    good = HallView(hall.host, hall.port, "view", hall.passwords["view"], ca=hall.ca)
    try:
        assert good.connected.wait(5)
    finally:
        good.close()


@pytest.mark.parametrize("host", ["192.168.1.10", "10.0.0.1", "hall-broker.invalid"])
def test_no_plain_mqtt_off_loopback(host):
    # refused before any packet: nothing is sent to these addresses
    with pytest.raises(ValueError, match="plain MQTT"):
        HallView(host, 1883, "view", "secret", log=lambda line: None)
    account = {"broker": host, "port": 1883, "user": "arbiter", "password": "secret"}
    with pytest.raises(ValueError, match="plain MQTT"):
        push.publish(account, b'{"id": "x"}')


def test_plain_mqtt_on_loopback_is_taken():
    for host in ("127.0.0.1", "localhost"):
        view = HallView(host, 9, "view", "x", log=lambda line: None)
        view.close()
