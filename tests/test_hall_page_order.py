"""The page never shows an older state than it has shown (hall/page.html's ``take``),
in headless chromium against the real view: a poll of /boards.json asked before a
change and answered after the stream brought it does not put the older state back; a
restarted view's first states are taken although its count starts again; a batch that
waited before it left does not count a running clock from a stale age."""

import json
import socket
import threading
import time

import pytest

from hall import screenshot as shots
from hall.view import HallView
from tests.hall_helpers import chromium_browser
from tests.mpy import hall_messages

pytestmark = pytest.mark.xdist_group("hall-page-order")

NOTE = "(document.querySelector('#board-1 .note') || {textContent: ''}).textContent"


@pytest.fixture(scope="module")
def browser():
    with chromium_browser() as running:
        yield running


def message(moves, seq, reason="change", **changes):
    data = json.loads(hall_messages.lines()[0])
    data.update(board=1, moves=moves, seq=seq, reason=reason, **changes)
    return json.dumps(data).encode()


def new_view(port=0, broker_port=9):
    view = HallView("127.0.0.1", broker_port, "view", "x", boards=[1], log=lambda line: None)
    url = view.serve(port)
    return view, url


def test_a_poll_answered_after_the_streams_newer_event_does_not_put_the_older_back(browser):
    view, url = new_view()
    try:
        view._take("hall/board/1", message(1, 1, "boot"))
        with browser.page(url, shots.PHONE) as page:
            page.wait_for("streaming && %s.includes('move 1')" % NOTE, 20)
            # The next /boards.json is computed now (move 1) and answered only once the
            # stream has brought move 2: the race the page's 10 s poll runs every time.
            computed, release = threading.Event(), threading.Event()
            state_now = view.page_state
            held = []

            def late_state():
                state = state_now()
                if not held:
                    held.append(state)
                    computed.set()
                    release.wait(20)
                return state

            view.page_state = late_state
            page.evaluate("window.polled = false; poll().then(() => { window.polled = true; }); 1")
            assert computed.wait(10)
            view._take("hall/board/1", message(2, 2))
            page.wait_for("%s.includes('move 2')" % NOTE, 10)  # by the stream
            release.set()
            page.wait_for("window.polled", 10)
            assert held[0]["boards"][0]["message"]["moves"] == 1  # the poll's was older
            # The answer held may be the page's own 10 s poll's, which came first: it
            # reaches the page after ours, refused there then.
            page.wait_for("wentBack >= 1", 10)
            assert "move 2" in page.evaluate(NOTE)
    finally:
        view.close()


@pytest.mark.parametrize("clock_behind_ms", [0, 3_600_000])
def test_a_restarted_views_states_are_taken_though_its_count_starts_again(browser, clock_behind_ms):
    view, url = new_view()
    port = view.server.server_address[1]
    restarted = None
    try:
        for seq in range(1, 21):  # the first view counted 20 changes of board 1
            view._take("hall/board/1", message(seq, seq, "boot" if seq == 1 else "change"))
        with browser.page(url, shots.PHONE) as page:
            page.wait_for("streaming && %s.includes('move 20')" % NOTE, 20)
            view.close()
            time.sleep(0.01)  # a later epoch, whatever the clock's resolution
            restarted, _ = new_view(port)
            if clock_behind_ms:  # the computer's clock was set back meanwhile
                restarted.epoch = view.epoch - clock_behind_ms
            restarted._take("hall/board/1", message(3, 3, "boot"))  # its change 1
            # the page's stream ends, it polls and comes back (retry: 3 s)
            page.wait_for("%s.includes('move 3')" % NOTE, 20)
    finally:
        view.close()
        if restarted is not None:
            restarted.close()


def test_a_batch_that_waited_does_not_count_the_running_clock_from_a_stale_age(browser):
    # A broker that takes the view's connection and never answers: no failed attempt
    # every second, whose view state would make the page poll (and so correct itself).
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(4)
    view, url = new_view(broker_port=silent.getsockname()[1])
    wait_s = 3.0
    gathered = view._changes
    left = threading.Event()

    def late_batch(listener):
        batch = gathered(listener)  # encoded now: the age it held then is stale later
        if b'"board": 1' in batch and not left.is_set():
            time.sleep(wait_s)
            left.set()
        return batch

    view.fan_out.changes = late_batch
    try:
        running = {"state": "running", "to_move": "left", "left_ms": 600_000, "flag_left": False}
        with browser.page(url, shots.PHONE) as page:
            page.wait_for("streaming", 20)
            view._take("hall/board/1", message(5, 1, "boot", **running))
            taken = time.monotonic()
            assert left.wait(10)
            page.wait_for("boards.get(1).message !== null", 5)  # the late batch, not a poll
            shown = page.evaluate("shownMs(boards.get(1), 'left')")
            expected = 600_000 - (time.monotonic() - taken) * 1000
            # the evaluation's own round trip, and the page's clock against the view's
            assert abs(shown - expected) < 600, (shown, expected)
    finally:
        view.close()
        silent.close()
