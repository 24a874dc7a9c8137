"""The arbiter is never crowded out (hall/page_server.py's reserve): with the view's
arbiter key, the arbiter's devices have 32 connections and 8 streams no spectator can
take. Spectators at their share's limit and one past it, 8 addresses x 32 trickling
connections, 64 addresses holding a stream each: the arbiter's phone at another
address gets /boards.json and a stream every time. Loopback addresses only (127.0.0.x)."""

import select
import time

import pytest

from hall import page_server, probe
from hall.view import HallView
from tests.hall_helpers import until

KEY = "the-arbiters-key"
SPECTATOR_CONNECTIONS = page_server.MAX_CONNECTIONS - page_server.ARBITER_CONNECTIONS
SPECTATOR_STREAMS = page_server.MAX_STREAMS - page_server.ARBITER_STREAMS
PHONE = "127.0.0.200"


@pytest.fixture
def view():
    hall = HallView("127.0.0.1", 9, "view", "x", boards=[1], log=lambda line: None)
    hall.serve(arbiter_key=KEY)
    yield hall
    hall.close()


def connect(view, source):
    return probe.http_connect(view.server.server_address, source)


def get(view, source, path, key=None):
    return probe.http_get(view.server.server_address, source, path, key)


def refused_at_once(sock):
    """A connection over its share: 503 at once, before any request."""
    sock.settimeout(2)
    return probe.http_status(sock) == 503


def test_trickling_spectators_at_their_share_and_past_it_leave_the_arbiter_served(
    view, monkeypatch
):
    # their deadline is not what is tested: they hold their places however long 256
    # connections take to open on a loaded machine
    monkeypatch.setattr(page_server, "HEAD_S", 120)
    _, code = get(view, PHONE, "/boards.json", KEY)  # the phone opened the arbiter's page
    assert code == 200
    shares = view.server.shares
    refused_before = shares.refused
    held = []
    try:
        # 8 addresses x 32 connections, each trickling a request it never ends
        for n in range(1, 9):
            for _ in range(page_server.CLIENT_CONNECTIONS):
                sock = connect(view, "127.0.0.%d" % n)
                sock.sendall(b"GET /boards.json HT")
                held.append(sock)
        # the server has taken every one (admitted or refused), however loaded the machine
        assert until(
            lambda: sum(shares.connections.values()) + shares.refused - refused_before == len(held)
        )
        # the spectators' share is full at its limit: the rest were refused at once
        assert sum(shares.connections.values()) == SPECTATOR_CONNECTIONS
        refused = answered(held, len(held) - SPECTATOR_CONNECTIONS)
        assert len(refused) == len(held) - SPECTATOR_CONNECTIONS
        assert all(refused_at_once(sock) for sock in refused)
        past, code = get(view, "127.0.0.9", "/boards.json")  # a spectator past the share
        assert code == 503
        for _ in range(13):  # the audit's 13 tries: 0 answered; now every one
            _, code = get(view, PHONE, "/boards.json", KEY)
            assert code == 200
        # the arbiter's reserve at its limit, then one past it
        reserve = [connect(view, PHONE) for _ in range(page_server.ARBITER_CONNECTIONS)]
        assert until(lambda: shares.arbiter_connections == page_server.ARBITER_CONNECTIONS)
        assert refused_at_once(connect(view, PHONE))
        assert shares.arbiter_connections == page_server.ARBITER_CONNECTIONS
        for sock in reserve:
            sock.close()
    finally:
        for sock in held:
            sock.close()


def answered(socks, count, timeout_s=20.0):
    """The sockets of ``socks`` the server has written to, once ``count`` of them are (or
    at ``timeout_s``, a bound on a hang); a moment more shows none beyond them."""
    deadline = time.monotonic() + timeout_s
    readable = []
    while len(readable) < count and time.monotonic() < deadline:
        readable, _, _ = select.select(socks, [], [], 0.05)
    readable, _, _ = select.select(socks, [], [], 0.2)
    return readable


def test_64_addresses_streams_leave_the_arbiter_a_stream(view):
    _, code = get(view, PHONE, "/boards.json", KEY)
    assert code == 200
    socks = []
    try:
        codes = []
        for n in range(1, 65):
            sock, code = get(view, "127.0.1.%d" % n, "/events")
            socks.append(sock)
            codes.append(code)
        # each address holds one: the spectators' share at its limit, the rest refused
        assert codes.count(200) == SPECTATOR_STREAMS
        assert codes.count(503) == 64 - SPECTATOR_STREAMS
        # the arbiter's streams: every one of its reserve, and one past it (its own
        # oldest page makes room, no spectator's)
        for _ in range(page_server.ARBITER_STREAMS + 1):
            sock, code = get(view, PHONE, "/events", KEY)
            socks.append(sock)
            assert code == 200
        assert view.server.shares.stream_count() == page_server.MAX_STREAMS
        _, code = get(view, PHONE, "/boards.json", KEY)
        assert code == 200
        _, code = get(view, "127.0.1.99", "/events")  # a spectator without the key
        assert code == 503
        _, code = get(view, "127.0.1.100", "/events", "a guessed key")
        assert code == 503
    finally:
        for sock in socks:
            sock.close()


def test_the_page_keeps_the_key_from_its_address_and_sends_it(view):
    from hall import screenshot as shots
    from hall.devtools import Browser

    if shots.chromium() is None:
        pytest.skip("Debian's chromium is not installed: make hall-tools")
    url = "http://127.0.0.1:%d/" % view.server.server_address[1]
    assert not view.server.shares.is_arbiter("127.0.0.1")
    with Browser(shots.chromium()) as browser:
        with browser.page(url + "#key=" + KEY, (390, 844)) as page:
            page.wait_for("streaming", 20)
            assert page.evaluate("localStorage.getItem('hallKey')") == KEY
            assert "key" not in page.evaluate("location.href")  # off the address bar
            assert view.server.shares.is_arbiter("127.0.0.1")  # the view saw the key
            assert len(view.server.shares.arbiter_streams) == 1  # its stream: the reserve
        # the same device later, without the key in the address: still the arbiter's
        view.server.shares.arbiter_addresses.clear()
        with browser.page(url, (390, 844)) as page:
            page.wait_for("streaming", 20)
            assert view.server.shares.is_arbiter("127.0.0.1")
