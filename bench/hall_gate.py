"""The login gate's figures (hall/gate.py), against the real Mosquitto behind it, as a
hall runs it (TLS at the gate, Mosquitto plain on loopback):

    python -m bench.hall --audit [--write]   # with the audit's (bench/hall_audit.py)

- **Sockets without a login**: 20 sockets that never send a byte to the gate, and 20
  straight to Mosquitto's own listener beside them, still open after 10 s (goal 0
  through the gate; Mosquitto alone, Debian 12's 2.0.11, keeps them some 95 s).
- **Wrong passwords**: one address (127.0.0.7) logs in with a wrong password 6 times in
  a row, each from its CONNECT to the CONNACK: how many are answered at once (goal
  ``gate_login.FREE_REFUSALS``) and how long each of the rest waited (1 s doubling); and
  while it waits, a login from another address (127.0.0.1, the arbiter's) and its time
  from CONNECT to CONNACK (goal ``<= 100 ms``: nobody else waits).
- **The relay's latency**: one broker, a clock's account and a watcher logged in
  straight at Mosquitto's own listener, another pair through the gate (both hops of a
  hall: the clock's and the view's); a message published, then read whole by its
  watcher, the two pairs taking turns ``RELAY_MESSAGES`` times so that the machine's
  load falls on both alike: p50 and p99 of each path, and the gate's share of the p50.
"""

import socket
import threading
import time

from hall import gate_login, probe, tls

GUESSES = gate_login.FREE_REFUSALS + 3
RELAY_MESSAGES = 1000
AT_ONCE_S = 0.5  # an answer quicker than half the first wait came at once


def silent_sockets_figures(count=20, after_s=10.0):
    from hall.broker import Broker

    with Broker([1], tls=True) as broker:
        to_gate = [socket.create_connection((broker.host, broker.port), 5) for _ in range(count)]
        to_broker = [
            socket.create_connection((broker.host, broker.broker_port), 5) for _ in range(count)
        ]
        try:
            time.sleep(after_s)
            held = sum(not probe.closed_within(sock, 0.05) for sock in to_gate)
            held_by_mosquitto = sum(not probe.closed_within(sock, 0.05) for sock in to_broker)
        finally:
            for sock in to_gate + to_broker:
                sock.close()
    return {
        "sockets": count,
        "after_s": after_s,
        "held": held,
        "held_by_mosquitto_alone": held_by_mosquitto,
    }


def _login(broker, source, user, password):
    """(CONNACK code, seconds from CONNECT to CONNACK) of one login over TLS from ``source``."""
    raw = socket.socket()
    raw.bind((source, 0))
    raw.settimeout(60)
    raw.connect((broker.host, broker.port))
    sock = tls.client_context(broker.ca).wrap_socket(raw, server_hostname=broker.name)
    try:
        started = time.monotonic()
        sock.sendall(probe.connect_packet(b"bench", user.encode(), password.encode()))
        answer = b""
        while len(answer) < 4:
            chunk = sock.recv(4 - len(answer))
            if not chunk:
                return None, time.monotonic() - started
            answer += chunk
        return answer[3], time.monotonic() - started
    finally:
        sock.close()


def guess_figures():
    from hall.broker import Broker

    with Broker([1], tls=True) as broker:
        answers = [_login(broker, "127.0.0.7", "clock-1", "wrong") for _ in range(GUESSES - 1)]
        other = {}

        def beside():
            time.sleep(0.3)  # the guesser's last login is waiting by then
            other["login"] = _login(broker, "127.0.0.1", "clock-1", broker.passwords["clock-1"])

        arbiter = threading.Thread(target=beside)
        arbiter.start()
        answers.append(_login(broker, "127.0.0.7", "clock-1", "wrong"))
        arbiter.join()
    code, seconds = other["login"]
    return {
        "guesses": GUESSES,
        "codes": [code for code, _ in answers],
        "answered_at_once": sum(seconds < AT_ONCE_S for _, seconds in answers),
        "waits_s": [round(seconds, 2) for _, seconds in answers[gate_login.FREE_REFUSALS :]],
        "other_address_login_ms": round(seconds * 1000, 1),
        "other_address_taken": code == 0,
    }


def _logged_in(broker, port, user):
    """A socket to ``port`` logged in as ``user``."""
    sock = socket.create_connection((broker.host, port), 5)
    secret = broker.passwords[user].encode()
    sock.sendall(probe.connect_packet(user.encode(), user.encode(), secret))
    if _packet(sock)[3] != 0:
        raise RuntimeError("%s was refused at port %d" % (user, port))
    return sock


def _subscribed(broker, port, user, topic):
    sock = _logged_in(broker, port, user)
    body = b"\x00\x01" + probe._text(topic) + b"\x00"  # packet 1, QoS 0
    sock.sendall(b"\x82" + probe._length(len(body)) + body)
    if _packet(sock)[0] != 0x90:
        raise RuntimeError("no SUBACK")
    return sock


def _packet(sock):
    """One whole packet from ``sock`` (its remaining length in one byte or two)."""
    data = b""
    while True:
        chunk = sock.recv(4096)
        if not chunk:
            raise OSError("closed")
        data += chunk
        length = data[1] & 0x7F
        start = 2
        if len(data) > 2 and data[1] & 0x80:
            length += data[2] << 7
            start = 3
        if len(data) >= start + length:
            return data


def relay_figures(messages=RELAY_MESSAGES):
    from hall.broker import Broker

    with Broker([1, 2], gate=True) as broker:
        paths = {}
        for name, port, board, watcher in (
            ("straight", broker.broker_port, 1, "watch-1"),
            ("gate", broker.port, 2, "watch-2"),
        ):
            topic = b"hall/board/%d" % board
            clock = _logged_in(broker, port, "clock-%d" % board)
            paths[name] = (clock, _subscribed(broker, port, watcher, topic), topic, [])
        payload = b"x" * 330  # a clock's message (bench/hall.py: bytes_per_message_payload)
        for _ in range(messages):
            for clock, watch, topic, times in paths.values():
                started = time.perf_counter()
                clock.sendall(probe.publish_packet(topic, payload))
                _packet(watch)
                times.append((time.perf_counter() - started) * 1000)
        for clock, watch, _, _ in paths.values():
            clock.close()
            watch.close()
    figures = {"messages": messages}
    for name, (_, _, _, times) in paths.items():
        ordered = sorted(times)
        figures[name + "_p50_ms"] = round(ordered[len(ordered) // 2], 3)
        figures[name + "_p99_ms"] = round(ordered[int(len(ordered) * 0.99)], 3)
    figures["gate_adds_p50_ms"] = round(figures["gate_p50_ms"] - figures["straight_p50_ms"], 3)
    return figures


def gate_figures():
    return {
        "silent_sockets": silent_sockets_figures(),
        "guesses": guess_figures(),
        "relay": relay_figures(),
    }


def rows(figures):
    silent, guesses = figures["silent_sockets"], figures["guesses"]
    return [
        (
            "hall broker: sockets without a login held after 10 s, of 20 (through its gate)",
            silent["held"],
            "0",
        ),
        (
            "hall broker: the same held by Mosquitto 2.0.11 alone, of 20",
            silent["held_by_mosquitto_alone"],
            "report",
        ),
        (
            "hall gate: wrong passwords in a row from one address answered at once, of %d"
            % guesses["guesses"],
            guesses["answered_at_once"],
            "<= %d" % gate_login.FREE_REFUSALS,
        ),
        ("hall gate: the next ones' waits, s", guesses["waits_s"], "report"),
        (
            "hall gate: another address's login while one waits, CONNECT to CONNACK, ms",
            guesses["other_address_login_ms"],
            "<= 100",
        ),
    ] + relay_rows(figures["relay"])


def relay_rows(relay):
    return [
        (
            "hall gate: a message clock to watcher, straight / through the gate both ways, p50 ms",
            [relay["straight_p50_ms"], relay["gate_p50_ms"]],
            "report",
        ),
        (
            "hall gate: the same, p99 ms",
            [relay["straight_p99_ms"], relay["gate_p99_ms"]],
            "report",
        ),
        ("hall gate: what it adds to the p50, ms", relay["gate_adds_p50_ms"], "<= 1 ms"),
    ]
