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
"""

import socket
import threading
import time

from hall import gate_login, probe, tls

GUESSES = gate_login.FREE_REFUSALS + 3
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


def gate_figures():
    return {"silent_sockets": silent_sockets_figures(), "guesses": guess_figures()}


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
    ]
