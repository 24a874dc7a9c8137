"""The view's web server (hall/page_server.py) holds every client to its share: heads
bounded before they are read past, deadlines for idle and trickling connections,
connections and event streams per address, one encoding per change for every page.

The limits are the module's; the deadlines are shortened here (monkeypatch) so that a
test takes a second, not ten. Two clients are two loopback addresses (127.0.0.1 and
127.0.0.2: all of 127/8 is the loopback's).
"""

import json
import socket
import time

import pytest

from hall import page_server, probe
from hall.boards import plain_reason
from hall.view import HallView, hall_address

GOOD = (
    '{"v":2,"board":12,"seq":7,"reason":"change","state":"running","to_move":"left",'
    '"left_ms":100000,"right_ms":200000,"flag_left":false,"flag_right":false,"moves":3,'
    '"period_left":"1","period_right":"1","claim":"none","push":"none","push_id":null,'
    '"quickplay":"off","battery":"ok"}'
)


@pytest.fixture(scope="module")
def view():
    hall = HallView("127.0.0.1", 9, "view", "x", boards=[1, 12], log=lambda line: None)
    hall.serve()
    yield hall
    hall.close()


def connect(view, source="127.0.0.1"):
    # a bound on a hang: the server's own deadlines come first
    return probe.http_connect(view.server.server_address, source, timeout=30)


def test_the_request_line_at_its_limit_and_one_byte_past_it(view):
    path = b"/" + b"a" * (page_server.MAX_LINE - len(b"GET  HTTP/1.1") - 1)
    line = b"GET " + path + b" HTTP/1.1"
    assert len(line) == page_server.MAX_LINE
    sock = connect(view)
    sock.sendall(line + b"\r\nHost: x\r\n\r\n")
    assert probe.http_answer(sock)[0] == 404  # read whole and answered: no such path
    sock = connect(view)
    sock.sendall(b"GET " + path + b"a HTTP/1.1")  # one byte over, and no end of line yet
    assert probe.http_answer(sock)[0] == 414  # refused before the rest was sent


def test_headers_at_their_limit_and_one_byte_past_it(view):
    def headers(size):
        one = b"X-Pad: " + b"y" * 93 + b"\r\n"  # 102 bytes with its CRLF
        count, rest = divmod(size, len(one))
        return one * count + b"X: " + b"z" * (rest - 5) + b"\r\n"

    assert len(headers(page_server.MAX_HEADERS)) == page_server.MAX_HEADERS
    sock = connect(view)
    sock.sendall(b"GET / HTTP/1.1\r\n" + headers(page_server.MAX_HEADERS) + b"\r\n")
    assert probe.http_answer(sock)[0] == 200
    sock = connect(view)
    sock.sendall(b"GET / HTTP/1.1\r\n" + headers(page_server.MAX_HEADERS + 1))
    assert probe.http_answer(sock)[0] == 431  # before the blank line came


def test_idle_and_trickling_connections_are_closed_at_the_deadline(view, monkeypatch):
    monkeypatch.setattr(page_server, "HEAD_S", 1)
    idle, trickle = connect(view), connect(view)
    started = time.monotonic()
    for byte in b"GET / HTTP/1.1\r\nHost: x":
        try:
            trickle.sendall(bytes([byte]))  # a byte every 0.1 s: each read is quick
        except OSError:
            break  # closed by the server
        time.sleep(0.1)
    assert probe.http_answer(trickle)[0] == 408
    assert probe.http_answer(idle) == (None, b"")  # nothing said: closed
    assert time.monotonic() - started < 15  # at HEAD_S, not at the socket's 30 s


def test_connections_per_address_and_the_next_gets_503(view, monkeypatch):
    monkeypatch.setattr(page_server, "CLIENT_CONNECTIONS", 3)
    held = [connect(view) for _ in range(3)]
    shares = view.server.shares
    deadline = time.monotonic() + 20  # the server's threads take them, however loaded
    while sum(shares.connections.values()) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    extra = connect(view)
    code, head = probe.http_answer(extra)
    assert code == 503 and b"Retry-After: %d" % page_server.RETRY_AFTER_S in head
    other = connect(view, "127.0.0.2")  # another client still gets in
    other.sendall(b"GET /boards.json HTTP/1.1\r\nHost: x\r\n\r\n")
    assert probe.http_answer(other)[0] == 200
    for sock in held + [extra, other]:
        sock.close()
    time.sleep(0.1)


def open_stream(view, source):
    sock = connect(view, source)
    sock.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
    return sock, probe.http_answer(sock)


def test_a_full_pool_of_streams_makes_room_for_a_new_client(view, monkeypatch):
    monkeypatch.setattr(page_server, "MAX_STREAMS", 4)
    monkeypatch.setattr(page_server, "CLIENT_STREAMS", 4)
    greedy = [open_stream(view, "127.0.0.1") for _ in range(4)]
    assert all(code == 200 for _, (code, _) in greedy)
    first, (code, _) = open_stream(view, "127.0.0.2")
    assert code == 200  # the pool was full: the greedy client's oldest stream went
    second, (code, _) = open_stream(view, "127.0.0.2")
    assert code == 200
    third, (code, head) = open_stream(view, "127.0.0.2")
    assert code == 503 and b"Retry-After" in head  # 2 and 2: the shares are even
    assert view.server.shares.stream_count() == 4
    ended = greedy[0][0]
    ended.settimeout(2)
    rest = greedy[0][1][1]
    while True:
        chunk = ended.recv(4096)
        if not chunk:
            break  # the displaced stream ended: its page reconnects after retry
        rest += chunk
    assert b"\r\n\r\nretry: %d\n\n" % page_server.RETRY_MS in rest
    for sock in [sock for sock, _ in greedy] + [first, second, third]:
        sock.close()


def test_one_change_is_encoded_once_for_sixteen_pages(view):
    # (an address of its own: the streams closed above leave at their next write)
    pages = [open_stream(view, "127.0.0.3")[0] for _ in range(16)]
    time.sleep(0.3)
    before = view.encodings
    view._take("hall/board/12", GOOD.encode())
    received = []
    for sock in pages:
        data = b""
        while b'"board": 12' not in data:
            data += sock.recv(65536)
        line = [part for part in data.split(b"\n\n") if b'"board": 12' in part][0]
        received.append(line)
        sock.close()
    assert view.encodings - before == 1
    assert len(set(received)) == 1 and json.loads(received[0].split(b"data: ", 1)[1])["board"] == 12


def test_a_refusal_does_not_quote_what_the_clock_sent():
    assert plain_reason("key 'evil<b>' twice") == "key … twice"
    assert plain_reason("message version 'x\\'y', not 1..2") == "message version …, not 1..2"
    assert plain_reason("a number of the wrong form: 0x41414141") == "a number of the wrong form: …"
    assert plain_reason("a message of 3000 bytes (at most 1024)").endswith("(at most 1024)")


def test_the_page_listens_on_the_network_the_broker_is_reached_by():
    assert hall_address("127.0.0.1") == "127.0.0.1"


def test_the_view_prints_the_page_on_the_halls_network(tmp_path):
    """``python -m hall.view`` without --listen: the page on the address this computer
    reaches the broker from, printed, and served there."""
    import subprocess
    import sys

    broker = "192.0.2.10"  # TEST-NET-1: routed like a hall's broker, never answered
    address = hall_address(broker)
    if address.startswith("127."):
        pytest.skip("no network but loopback on this machine")
    from hall import tls

    ca, _ = tls.make_ca(str(tmp_path))  # a broker off loopback: TLS (plain is refused)
    account = tmp_path / "view.json"
    data = {"broker": broker, "port": 9, "user": "view", "password": "x", "ca": ca}
    account.write_text(json.dumps(data))
    view = subprocess.Popen(
        [sys.executable, "-m", "hall.view", "--account", str(account)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        url = view.stdout.readline().strip()
        assert url.startswith("http://%s:" % address) and url.endswith("/")
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        with socket.create_connection((address, port), timeout=5) as sock:
            sock.sendall(b"GET /boards.json HTTP/1.1\r\nHost: x\r\n\r\n")
            assert probe.http_answer(sock)[0] == 200
        with pytest.raises(OSError):  # not on loopback: on the hall's network only
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
    finally:
        view.terminate()
        view.wait(10)


def test_every_connection_sends_without_delay(view, monkeypatch):
    # a page never writes back, so Nagle's algorithm would hold each event after the
    # first until the page's delayed ACK (some 40 ms on Linux)
    import hall.view

    seen = []
    answer_before = hall.view._Handler.answer

    def answer_noting(handler):
        seen.append(handler.connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
        return answer_before(handler)

    monkeypatch.setattr(hall.view._Handler, "answer", answer_noting)
    sock = connect(view, "127.0.0.5")
    sock.sendall(b"GET /hall HTTP/1.1\r\nHost: x\r\n\r\n")
    status, _ = probe.http_answer(sock)
    sock.close()
    assert status is not None and seen and seen[0] != 0
