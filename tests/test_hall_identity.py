"""One identity per login and the broker's limits (hall/broker_conf.py), against a real
Mosquitto with the hall's configuration.

The packets are written from the MQTT 3.1.1 specification (hall/probe.py), over plain
sockets, so that each test controls exactly what the broker receives and sees exactly
when it closes a connection.
"""

import socket
import ssl
import time

import pytest

from hall import broker_conf, push, tls
from hall.broker import Broker
from hall.probe import closed_within, publish_packet, session
from hall.view import HallView
from tests.hall_helpers import Recorder, need_broker, running_broker, worker_port

pytestmark = pytest.mark.xdist_group("hall-identity")


@pytest.fixture(scope="module")
def broker():
    with running_broker([1, 2]) as running:
        yield running


def test_another_clocks_id_takes_no_board_the_view_or_the_arbiter_off(broker):
    watch = Recorder(broker, topic="hall/board/2/status")
    logged = []
    view = HallView(broker.host, broker.port, "view", broker.passwords["view"], log=logged.append)
    board2, code = session(broker, "clock-2", "clock-2", will=(b"hall/board/2/status", b"offline"))
    try:
        assert code == 0 and view.connected.wait(5)
        board2.sendall(publish_packet(b"hall/board/2/status", b"online", retain=True))
        assert watch.wait_for(lambda: watch.on("hall/board/2/status") == [b"online"])
        # Board 1's file, looping over the other identities of the hall: each login is
        # accepted as clock-1, whatever id it claims, and takes nobody else's session.
        for client_id in ("clock-2", "hall-view", "view", "hall-arbiter", "arbiter") * 4:
            attacker, code = session(broker, "clock-1", client_id)
            assert code == 0
            attacker.close()
        board2.sendall(publish_packet(b"hall/board/2/status", b"online-still", retain=True))
        assert watch.wait_for(lambda: b"online-still" in watch.on("hall/board/2/status"))
        assert b"offline" not in watch.on("hall/board/2/status")  # no will: never dropped
        assert not closed_within(board2, 0.2)
        assert view.broker_up and not [line for line in logged if "lost" in line], logged
    finally:
        board2.close()
        view.close()
        watch.close()


def test_one_login_holds_one_session(broker):
    first, code = session(broker, "clock-1", "first")
    assert code == 0
    second, code = session(broker, "clock-1", "second")
    assert code == 0
    try:
        assert closed_within(first, 5)  # the older session goes: the login is the id
        assert not closed_within(second, 0.3)
    finally:
        first.close()
        second.close()


def test_a_packet_of_2_kib_passes_and_one_byte_more_ends_the_connection(broker):
    watch = Recorder(broker, topic="hall/board/1")
    topic = b"hall/board/1"
    # 1 type byte + 2 length bytes (128..16383) + 2 + the topic's 12 + the payload
    fits = broker_conf.MAX_PACKET_BYTES - (1 + 2 + 2 + len(topic))
    assert len(publish_packet(topic, b"x" * fits)) == 2048 == broker_conf.MAX_PACKET_BYTES
    try:
        sender, _ = session(broker, "clock-1", "clock-1")
        sender.sendall(publish_packet(topic, b"a" * fits))
        assert watch.wait_for(lambda: watch.on("hall/board/1") == [b"a" * fits])
        sender.sendall(publish_packet(topic, b"b" * (fits + 1), retain=True))
        assert closed_within(sender, 5)
        sender.close()
        sender, _ = session(broker, "clock-1", "clock-1")
        sender.sendall(publish_packet(topic, b"after"))
        assert watch.wait_for(lambda: b"after" in watch.on("hall/board/1"))
        assert b"b" * (fits + 1) not in watch.on("hall/board/1")
        sender.close()
    finally:
        watch.close()
    late = Recorder(broker, topic="hall/board/1")  # nothing of it was retained either
    time.sleep(0.3)
    assert late.on("hall/board/1") == []
    late.close()


def _closed_now(sock):
    """Whether the broker has closed ``sock`` by now (what it sent is read), at once."""
    sock.setblocking(False)
    try:
        while True:
            if sock.recv(4096) == b"":
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        sock.setblocking(True)


def test_the_listener_takes_its_accounts_and_a_few_more_then_refuses():
    need_broker()
    broker = Broker([1], port=worker_port())
    try:
        (limit,) = [listener[2] for listener in broker.listeners]
        assert limit == len(broker.passwords) + broker_conf.SPARE_CONNECTIONS
        # Sockets that never send CONNECT take a place too. Debian 12's Mosquitto 2.0.11
        # keeps max_connections + 1 (measured; its man page says max_connections).
        held = [socket.create_connection((broker.host, broker.port)) for _ in range(limit + 6)]
        # the broker closes those past its limit when it gets to them, however loaded the
        # machine: look until two whole seconds pass with none more closed
        closed = set()
        steady_since = time.monotonic()
        deadline = steady_since + 20
        while time.monotonic() - steady_since < 2.0 and time.monotonic() < deadline:
            now_closed = {i for i, sock in enumerate(held) if i in closed or _closed_now(sock)}
            if now_closed != closed:
                closed, steady_since = now_closed, time.monotonic()
            time.sleep(0.05)
        kept = [sock for index, sock in enumerate(held) if index not in closed]
        assert len(kept) == limit + 1
        assert broker.process.poll() is None
        kept.pop().close()
        deadline = time.monotonic() + 20  # the broker frees the place when it gets to it
        while True:
            try:
                sock, code = session(broker, "clock-1", "clock-1")  # a place again: in
                break
            except OSError:
                assert time.monotonic() < deadline, "the freed place never came"
                time.sleep(0.1)
        assert code == 0
        sock.close()
        for sock in held:
            sock.close()
    finally:
        broker.stop()


def test_a_plain_listener_off_loopback_is_refused():
    with pytest.raises(ValueError, match="only on loopback"):
        broker_conf.conf_text("p", "a", [(1883, "0.0.0.0", 10, None)])
    assert "listener 1883 127.0.0.1" in broker_conf.conf_text(
        "p", "a", [(1883, "127.0.0.1", 10, None)]
    )


def test_the_view_and_the_push_check_the_brokers_certificate(tmp_path):
    """The hall's broker over TLS (its own CA): the view and the arbiter's push get in with
    the hall's CA and not with another's."""
    need_broker()
    broker = Broker([1], port=worker_port(), tls=True)
    other_ca, _ = tls.make_ca(str(tmp_path), "another hall")
    views = []
    try:
        watch = Recorder(broker, topic="hall/settings")
        for ca in (broker.ca, other_ca):
            views.append(
                HallView(
                    broker.host,
                    broker.port,
                    "view",
                    broker.passwords["view"],
                    ca=ca,
                    log=lambda line: None,
                )
            )
        assert views[0].connected.wait(5)
        assert not views[1].connected.wait(1) and not views[1].broker_up
        account = {"broker": broker.host, "port": broker.port, "user": "arbiter"}
        account["password"] = broker.passwords["arbiter"]
        with pytest.raises(ssl.SSLError):
            push.publish(dict(account, ca=other_ca), b'{"id": "x"}')
        push.publish(dict(account, ca=broker.ca), b'{"id": "r1"}')
        assert watch.wait_for(lambda: watch.on("hall/settings") == [b'{"id": "r1"}'])
        watch.close()
    finally:
        for view in views:
            view.close()
        broker.stop()
