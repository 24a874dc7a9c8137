"""The hall's guard, measured: what one clock's file and a laptop in the room can still do.

Against a real Mosquitto with the hall's configuration (``hall.broker_conf``) and the
view's page server (``hall.page_server``), with their real deadlines:

- takeovers that succeed: board 1's account logs in again and again with the client id
  of every other identity (``clock-2``, the view's, the arbiter's); counted are the
  times board 2's session or the view's connection was closed (goal 0);
- the largest packet the broker accepts (found by bisection; goal 2,048 bytes);
- the sessions one account holds after logging in 20 times with 20 ids (goal 1);
- the sockets one address keeps open at the broker without logging in, out of 500;
- the seconds until the page's server closes a connection that trickles a byte every
  0.5 s (goal <= page_server.HEAD_S + 1) and until the broker closes a socket that
  never sends CONNECT (Mosquitto's own, 1.5 x 60 s).

``python -m bench.hall --guard`` prints them; ``--write`` stores them under ``guard`` in ``hall`` of
bench/latest.json, the rest of ``hall`` kept.
"""

import socket
import threading
import time

from bench import figure_rows
from bench.figure_rows import Figure
from hall import broker_conf, page_server
from hall.broker import Broker, free_port
from hall.probe import closed_within, publish_packet, session
from hall.view import HallView

IDENTITIES = ("clock-2", "hall-view", "view", "hall-arbiter", "arbiter")
TAKEOVER_ROUNDS = 20  # each identity taken over this many times


def _takeovers(broker, rounds=TAKEOVER_ROUNDS):
    lost = []
    view = HallView(broker.host, broker.port, "view", broker.passwords["view"], log=lost.append)
    victim, _ = session(broker, "clock-2", "clock-2", will=(b"hall/board/2/status", b"offline"))
    try:
        view.connected.wait(5)
        succeeded = 0
        for _ in range(rounds):
            for client_id in IDENTITIES:
                attacker, _ = session(broker, "clock-1", client_id)
                attacker.close()
        if closed_within(victim, 0.3):
            succeeded += 1
        succeeded += len([line for line in lost if "lost" in line])
        return succeeded, rounds * len(IDENTITIES)
    finally:
        victim.close()
        view.close()


def _accepted(broker, size):
    topic = b"hall/board/1"
    overhead = len(publish_packet(topic, b"x" * 200)) - 200
    sock, _ = session(broker, "clock-1", "clock-1")
    try:
        sock.sendall(publish_packet(topic, b"x" * (size - overhead)))
        return not closed_within(sock, 0.3)
    finally:
        sock.close()


def _largest_packet(broker):
    low, high = 200, 70_000  # accepted, refused
    while high - low > 1:
        middle = (low + high) // 2
        if _accepted(broker, middle):
            low = middle
        else:
            high = middle
    return low


def _sessions(broker, count=20):
    held = [session(broker, "clock-1", "id-%d" % n)[0] for n in range(count)]
    time.sleep(0.5)
    alive = [sock for sock in held if not closed_within(sock, 0.05)]
    for sock in held:
        sock.close()
    return len(alive)


def _silent_sockets(broker, count=500):
    held = []
    for _ in range(count):
        try:
            held.append(socket.create_connection((broker.host, broker.port), timeout=2))
        except OSError:
            break
    time.sleep(0.5)
    kept = [sock for sock in held if not closed_within(sock, 0.01)]
    for sock in held:
        sock.close()
    return len(kept)


def _closed_after(sock, trickle, limit_s):
    """Seconds until ``sock`` is closed by the far end (``trickle``: a byte every 0.5 s)."""
    started = time.monotonic()
    sock.settimeout(0.5)
    while time.monotonic() - started < limit_s:
        if trickle:
            try:
                sock.send(b"G")
            except OSError:
                return round(time.monotonic() - started, 1)
        try:
            if sock.recv(4096) == b"" or trickle is None:
                return round(time.monotonic() - started, 1)
        except TimeoutError:
            continue
        except OSError:
            return round(time.monotonic() - started, 1)
    return None


def guard_figures(with_broker_deadline=True):
    figures = {}
    broker = Broker([1, 2], port=free_port())
    try:
        silent = {}
        if with_broker_deadline:
            quiet = socket.create_connection((broker.host, broker.port))

            def wait_broker():
                silent["s"] = _closed_after(quiet, False, 150)

            waiter = threading.Thread(target=wait_broker)
            waiter.start()
        succeeded, tries = _takeovers(broker)
        figures["takeovers_succeeded"] = succeeded
        figures["takeover_attempts"] = tries
        figures["largest_packet_accepted_bytes"] = _largest_packet(broker)
        figures["sessions_one_account_holds"] = _sessions(broker)
        view = HallView("127.0.0.1", 9, "view", "x", log=lambda line: None)
        view.serve()
        try:
            trickle = socket.create_connection(view.server.server_address)
            figures["trickling_connection_closed_s"] = _closed_after(trickle, True, 60)
            trickle.close()
        finally:
            view.close()
        figures["silent_sockets_kept_of_500"] = _silent_sockets(broker)
        figures["broker_max_connections"] = broker.listeners[0][2]
        if with_broker_deadline:
            waiter.join()
            quiet.close()
            figures["connect_less_socket_closed_s"] = silent.get("s")
    finally:
        broker.stop()
    return figures


def declared():
    """The guard's figures (bench/figure_rows.py)."""
    return (
        Figure(
            "takeovers that succeed ({:,} tries)".format(TAKEOVER_ROUNDS * len(IDENTITIES)),
            "hall.guard.takeovers_succeeded",
            "",
            "0",
        ),
        Figure("takeover tries", "hall.guard.takeover_attempts", "", "report", False),
        Figure(
            "largest packet the broker accepts",
            "hall.guard.largest_packet_accepted_bytes",
            "B",
            "{:,} B".format(broker_conf.MAX_PACKET_BYTES),
        ),
        Figure("sessions one account holds", "hall.guard.sessions_one_account_holds", "", "1"),
        Figure(
            "a trickling connection closed by the view after",
            "hall.guard.trickling_connection_closed_s",
            "s",
            "≤ %d s" % (page_server.HEAD_S + 1),
        ),
        Figure(
            "sockets kept without CONNECT, of 500",
            "hall.guard.silent_sockets_kept_of_500",
            "",
            "report",
        ),
        Figure(
            "the broker's max_connections then",
            "hall.guard.broker_max_connections",
            "",
            "report",
            False,
        ),
        Figure(
            "a socket without CONNECT closed by the broker after",
            "hall.guard.connect_less_socket_closed_s",
            "s",
            "report",
        ),
    )


def rows(figures):
    """The hall table's rows of the guard (``figures``: ``guard_figures``)."""
    return figure_rows.table_rows(declared(), None, {"hall": {"guard": figures}})
