"""The login gate in front of the real Mosquitto (hall/gate.py): sockets that never log in
are closed at its deadline, wrong passwords from one address wait and nobody else does,
and a good client beside them logs in and is served.

Each "device" of the room is a loopback address of its own (127.0.0.x): the gate counts
wrong logins per source address.
"""

import socket
import threading
import time

import pytest

from hall import gate, gate_login, probe, tls
from hall.broker import Broker
from tests.hall_helpers import Client, Recorder, need_broker, until, worker_port

FREE, FIRST_S, MAX_S, QUIET_S = 3, 0.6, 2.4, 6.0  # the back-off, scaled down for a test


@pytest.fixture(scope="module")
def broker():
    need_broker()
    options = {"free-refusals": FREE, "first-wait-s": FIRST_S, "max-wait-s": MAX_S}
    options["quiet-s"] = QUIET_S
    running = Broker([1, 2], port=worker_port(), tls=True, gate_options=options)
    yield running
    running.stop()


def tls_socket(broker, source="127.0.0.1"):
    raw = socket.socket()
    raw.bind((source, 0))
    raw.settimeout(20)
    raw.connect((broker.host, broker.port))
    return tls.client_context(broker.ca).wrap_socket(raw, server_hostname=broker.name)


def read_connack(sock):
    """The CONNACK's return (or reason) code; None if the socket closed first."""
    data = b""
    while len(data) < 4:
        try:
            chunk = sock.recv(4 - len(data))
        except OSError:
            return None
        if not chunk:
            return None
        data += chunk
    assert data[0] == 0x20, data
    return data[3]


def login(broker, source, user, password, level=4, sent=None):
    """(code, seconds from the CONNECT to the CONNACK, the CONNACK's instant) of one login
    from ``source``; ``sent`` (an Event) is set once the CONNECT is on its way."""
    sock = tls_socket(broker, source)
    try:
        started = time.monotonic()
        sock.sendall(
            probe.connect_packet(user.encode(), user.encode(), password.encode(), level=level)
        )
        if sent is not None:
            sent.set()
        code = read_connack(sock)
        answered = time.monotonic()
        return code, answered - started, answered
    finally:
        sock.close()


def waited(answers, index):
    """Seconds between the CONNACK of login ``index - 1`` and that of ``index``: the gate
    counts an address's wait from its last refusal (its own handshake and CONNECT go
    inside it, however long they take on a loaded machine)."""
    return answers[index][2] - answers[index - 1][2]


SLACK_S = 0.1  # a refusal's way from the gate to the client, on a loaded machine


def test_sockets_that_do_not_log_in_by_the_deadline_are_closed_and_one_that_does_stays(broker):
    # The gate counts from its accept: after each socket's connect began, before it ended.
    first = time.monotonic()
    silent = socket.create_connection((broker.host, broker.port))  # not even TLS
    handshaken = tls_socket(broker)  # TLS, then nothing
    half = tls_socket(broker)
    late = tls_socket(broker)
    last = time.monotonic()
    connect = probe.connect_packet(b"clock-2", b"clock-2", broker.passwords["clock-2"].encode())
    half.sendall(connect[: len(connect) // 2])
    late.sendall(connect[: len(connect) // 2])
    watch = Recorder(broker, topic="hall/board/1")  # a good client beside them all
    clock = Client(broker, "clock-1")
    assert clock.code == 0
    time.sleep(max(0.0, first + gate.LOGIN_S - 0.5 - time.monotonic()))
    late.sendall(connect[len(connect) // 2 :])  # whole, half a second before the deadline
    held = [sock for sock in (silent, handshaken, half) if not probe.closed_within(sock, 0.01)]
    assert len(held) == 3  # not closed before the deadline
    assert read_connack(late) == 0
    time.sleep(max(0.0, last + gate.LOGIN_S + 1.5 - time.monotonic()))
    assert [probe.closed_within(sock, 0.2) for sock in (silent, handshaken, half)] == [True] * 3
    assert not probe.closed_within(late, 0.2)  # logged in: the deadline is behind it
    clock.publish("hall/board/1", b"after the deadline")
    assert watch.wait_for(lambda: watch.on("hall/board/1") == [b"after the deadline"])
    for sock in (silent, handshaken, half, late):
        sock.close()
    clock.disconnect()
    watch.close()


def test_wrong_passwords_from_one_address_wait_more_each_time_up_to_the_cap(broker):
    source, wrong = "127.0.0.7", "not-the-password"
    answers = [login(broker, source, "clock-1", wrong) for _ in range(FREE + 4)]
    assert [answer[0] for answer in answers] == [5] * (FREE + 4)  # each refused, by the broker
    assert max(answer[1] for answer in answers[:FREE]) < FIRST_S * 0.8  # the free ones: at once
    expected = [min(FIRST_S * 2**n, MAX_S) for n in range(4)]  # 0.6, 1.2, 2.4, then 2.4
    waits = [waited(answers, index) for index in range(FREE, FREE + 4)]
    for seconds, floor in zip(waits, expected, strict=True):
        assert floor - SLACK_S <= seconds < floor + 1.5, waits
    assert "127.0.0.7: %d wrong logins in a row" % (FREE + 4) in broker.gate_log_text()
    # the right password waits its turn too, then clears the address
    answers.append(login(broker, source, "clock-1", broker.passwords["clock-1"]))
    assert answers[-1][0] == 0 and waited(answers, len(answers) - 1) >= MAX_S - SLACK_S
    assert login(broker, source, "clock-1", wrong)[1] < FIRST_S * 0.8


def test_a_waiting_address_delays_nobody_else(broker):
    source = "127.0.0.8"
    for _ in range(FREE + 3):
        last = login(broker, source, "clock-2", "wrong")  # at the cap: each login waits
    results = {}
    sent = threading.Event()

    def guess():
        results["guess"] = login(broker, source, "clock-2", "wrong", sent=sent)

    guesser = threading.Thread(target=guess)
    guesser.start()
    # its handshake may take long on a loaded machine; its CONNECT then reaches the gate
    # at once, and waits there MAX_S
    assert sent.wait(20)
    time.sleep(0.3)
    second = tls_socket(broker, source)  # another login from it while the first waits
    second.sendall(probe.connect_packet(b"x", b"clock-2", b"wrong"))
    assert read_connack(second) is None  # closed without an answer, not queued
    second.close()
    others = [
        login(broker, "127.0.0.1", "clock-1", broker.passwords["clock-1"]),  # the arbiter's
        login(broker, "127.0.0.9", "clock-2", broker.passwords["clock-2"]),  # a clock's
        login(broker, "127.0.0.10", "clock-1", "a first typo"),
    ]
    assert [answer[0] for answer in others] == [0, 0, 5]
    assert max(answer[1] for answer in others) < FIRST_S * 0.8
    guesser.join()
    assert results["guess"][0] == 5
    assert waited([last, results["guess"]], 1) >= MAX_S - SLACK_S


def test_mqtt_5_wrong_passwords_count_too_and_a_quiet_address_starts_afresh(broker):
    source = "127.0.0.11"
    answers = [login(broker, source, "clock-1", "wrong", level=5) for _ in range(FREE + 1)]
    # Mosquitto 2.0.11 answers a wrong MQTT 5 password "not authorized" (0x87), as its
    # 3.1.1 answer is 5, "not authorized", rather than 4
    assert [answer[0] for answer in answers] == [0x87] * (FREE + 1)
    assert waited(answers, FREE) >= FIRST_S - SLACK_S
    time.sleep(QUIET_S)
    assert login(broker, source, "clock-1", "wrong", level=5)[1] < FIRST_S * 0.8


def test_the_broker_itself_listens_on_loopback_only_behind_the_gate(broker):
    (listener,) = broker.listeners
    assert listener[1] == "127.0.0.1" and listener[0] != broker.port
    assert listener[3] is None  # plain, to the gate alone: TLS ends at the gate
    assert broker.gate_process.process.poll() is None
    assert gate_login.MAX_PACKET_BYTES == 2048


def test_a_gate_without_its_broker_closes_logins_and_stops_and_starts_with_it():
    need_broker()
    broker = Broker([1], port=worker_port(), gate=True)  # plain, on loopback
    try:
        sock, code = probe.session(broker, "clock-1", "clock-1")
        assert code == 0
        broker.process.terminate()  # Mosquitto alone goes: its clients' links end
        broker.process.wait(10)
        assert probe.closed_within(sock, 5)
        sock.close()
        with pytest.raises(OSError, match="no CONNACK"):
            probe.session(broker, "clock-1", "clock-1")  # taken by the gate, then closed
        assert "did not answer a login" in broker.gate_log_text()
        broker.halt()  # the gate stops with the broker
        with pytest.raises(OSError):
            socket.create_connection((broker.host, broker.port), timeout=2)
        broker.start()
        sock, code = probe.session(broker, "clock-1", "clock-1")
        assert code == 0
        sock.close()
    finally:
        broker.stop()


def test_packets_sent_with_the_connect_reach_the_broker_after_it(broker):
    """A client may send its SUBSCRIBE and PUBLISH before the CONNACK comes (the gate
    holds them while the login goes to the broker), and is then served as usual."""
    sock = tls_socket(broker, "127.0.0.12")
    password = broker.passwords["watch-4"].encode()
    body = b"\x00\x01" + probe._text(b"hall/board/2") + b"\x00"
    subscribe = b"\x82" + probe._length(len(body)) + body
    sock.sendall(probe.connect_packet(b"watch-4", b"watch-4", password) + subscribe)
    assert read_connack(sock) == 0
    assert sock.recv(5)[:1] == b"\x90"  # the SUBACK
    clock = tls_socket(broker, "127.0.0.13")
    password = broker.passwords["clock-2"].encode()
    publish = probe.publish_packet(b"hall/board/2", b"with its login")
    clock.sendall(probe.connect_packet(b"clock-2", b"clock-2", password) + publish)
    assert read_connack(clock) == 0
    data = b""
    while b"with its login" not in data:
        chunk = sock.recv(4096)
        assert chunk, "the watcher's connection ended"
        data += chunk
    for each in (sock, clock):
        each.close()


def test_one_address_holds_at_most_its_share_of_sockets_before_their_login(broker):
    """A laptop's idle sockets: the gate keeps 8 of one address until their deadline and
    closes a ninth at once; a clock at another address logs in beside them, and the
    address gets its places back as its sockets log in."""
    raw = socket.socket()
    raw.bind(("127.0.0.14", 0))
    raw.connect((broker.host, broker.port))
    held = [raw]
    for _ in range(gate.UNLOGGED_PER_ADDRESS - 1):
        sock = socket.socket()
        sock.bind(("127.0.0.14", 0))
        sock.connect((broker.host, broker.port))
        held.append(sock)
    time.sleep(0.3)  # the gate has accepted them all
    assert not any(probe.closed_within(sock, 0.01) for sock in held)  # at the share: kept
    past = socket.socket()
    past.bind(("127.0.0.14", 0))
    past.connect((broker.host, broker.port))
    assert probe.closed_within(past, 2)  # one past it: closed at once
    assert login(broker, "127.0.0.15", "clock-1", broker.passwords["clock-1"])[0] == 0
    held.pop().close()  # a place of its own again, once the gate has seen it close
    assert until(
        lambda: login(broker, "127.0.0.14", "clock-1", broker.passwords["clock-1"])[0] == 0
    )
    for sock in held + [past]:
        sock.close()
