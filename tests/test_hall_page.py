"""The hall's page in a real browser (Debian's chromium, headless): every board shows,
a flag that fell in a simulated game is highlighted, a stopped clock goes offline, and
the view answers nothing but GET."""

import json
import os
import urllib.error
import urllib.request

import pytest

from hall import screenshot as shots
from hall.broker import Broker
from hall.pairings import Pairings
from hall.view import HallView
from tests.hall_helpers import Client, chromium_browser, need_broker, worker_port
from tests.mpy import hall_messages

# One worker plays the whole module: one broker, three clocks and one browser for its
# pages (a browser's start costs about 1.5 s of the machine's two cores).
pytestmark = pytest.mark.xdist_group("hall-page")


@pytest.fixture(scope="module")
def browser():
    with chromium_browser() as running:
        yield running


FLAG_BORDER = (0xFF, 0x30, 0x30)  # .board.flag in hall/page.html
OFFLINE_FILL = (0x44, 0x47, 0x4D)  # .board.offline
RUNNING_FILL = (0x2B, 0x2F, 0x36)  # .board


@pytest.fixture(scope="module")
def hall():
    need_broker()
    if shots.chromium() is None:
        pytest.skip("Debian's chromium is not installed: make hall-tools")
    broker = Broker([1, 2, 3], port=worker_port())
    view = HallView(broker.host, broker.port, "view", broker.passwords["view"])
    url = view.serve()
    clocks = [shots.start_clock(broker, number) for number in (1, 2, 3)]
    try:
        # every clock has sent its state (a board is listed from its first word: the status)
        shots.wait_for(
            view,
            lambda boards: [board["message"] is not None for board in boards] == [True] * 3,
            20,
        )
        clocks[2].terminate()  # board 3's clock stops: the broker's last will
        # The tests read the page once: it must stand still first. Board 1's 10 s game
        # ends with both flags down (the second falls a move after the first); board 2
        # runs far from its flag and board 3 stays offline.
        shots.wait_for(
            view, lambda boards: both_flags(boards, 1) and shots.flag_and_offline(boards, 1, 3), 60
        )
        yield view, url, broker
    finally:
        for process in clocks:
            process.terminate()
            process.wait(10)
        view.close()
        broker.stop()


def both_flags(boards, number):
    message = {board["board"]: board for board in boards}.get(number, {}).get("message") or {}
    return bool(message.get("flag_left") and message.get("flag_right"))


def last_seq(view, number):
    """The seq of the last message the view took from board ``number``'s clock."""
    return {board["board"]: board for board in view.snapshot()}[number]["message"]["seq"]


def card_classes(dom, number):
    marker = 'id="board-%d"' % number
    assert marker in dom, "board %d is not on the page" % number
    tag = dom[dom.rindex("<", 0, dom.index(marker)) : dom.index(">", dom.index(marker))]
    return tag.split('class="')[1].split('"')[0].split()


def test_the_page_shows_every_board_with_the_flag_and_the_offline_clock(hall, browser):
    view, url, broker = hall
    dom = shots.page_dom(url, browser=browser)
    assert "flag" in card_classes(dom, 1)
    assert card_classes(dom, 2) == ["board"]
    assert "offline" in card_classes(dom, 3)
    assert "OFFLINE" in dom
    assert "flag both" in dom  # 10 s sudden death: the other clock runs on to its flag too


def test_the_screenshot_shows_the_highlights(hall, browser, tmp_path):
    view, url, broker = hall
    path = shots.screenshot(url, str(tmp_path / "hall.png"), browser=browser)
    width, height, rows = shots.png_pixels(path)
    assert (width, height) == shots.WINDOW
    counts = {FLAG_BORDER: 0, OFFLINE_FILL: 0, RUNNING_FILL: 0}
    for row in rows:
        for pixel in row:
            if pixel in counts:
                counts[pixel] += 1
    # Three cards of about 230 x 110 px: one with a 4 px red border, one grey, one plain.
    assert counts[FLAG_BORDER] > 2 * 4 * 200
    assert counts[OFFLINE_FILL] > 150 * 80
    assert counts[RUNNING_FILL] > 150 * 80


def test_the_view_reads_only_and_exports_clock_times(hall):
    view, url, broker = hall
    request = urllib.request.Request(url + "boards.json", data=b"{}", method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=5)
    assert refused.value.code == 405
    boards = json.loads(urllib.request.urlopen(url + "boards.json", timeout=5).read())["boards"]
    assert [board["board"] for board in boards] == [1, 2, 3]
    text = urllib.request.urlopen(url + "pgn/1", timeout=5).read().decode()
    plies = boards[0]["plies"]
    assert plies >= 1 and text.count("[%clk ") <= plies
    tags, _, moves = text.partition("\n\n")
    assert tags.splitlines()[2:3] == ['[Board "1"]'] and tags.startswith('[Event "')
    assert moves.startswith("1. {[%clk 0:00:")  # a 10 s game: White's time after move 1
    assert os.path.basename(url) == ""


def test_the_page_streams_from_the_view_and_a_change_through_the_broker_comes_at_once(
    hall, browser
):
    # The page as the arbiters open it (no ?poll): it reads the view's /events, which
    # starts with "retry: 3000" and says "alive" every 5 s; a message published to the
    # broker is drawn well before the 10 s poll, and no polling banner shows.
    view, url, broker = hall
    with shots.open_page(url, shots.PHONE, browser) as page:
        page.wait_for(shots.DRAWN + " && streaming", 10)
        message = json.loads(hall_messages.lines()[0])
        # the next message of board 3's clock: the view refuses one whose seq is not
        # above the last it took (a replay), and how far the clock got before it was
        # stopped depends on how fast the machine started the three clocks
        message.update(board=3, moves=77, seq=last_seq(view, 3) + 1)
        clock = Client(broker, "clock-3")
        try:
            clock.publish("hall/board/3", json.dumps(message))
        finally:
            clock.disconnect()
        note = "document.querySelector('#board-3 .note').textContent"
        # before the 10 s poll could bring it, with room for a loaded machine's browser
        page.wait_for("%s.includes('move 77')" % note, 8)
        assert "polling" not in page.evaluate("document.body.className").split()


def test_the_page_says_the_broker_is_lost_and_shows_boards_without_clocks(browser):
    view = HallView("127.0.0.1", 9, "view", "x", boards=[4, 5], log=lambda line: None)
    try:
        url = view.serve()
        view._take("hall/board/5", b"[" * 2000)  # garbage: the strip names the board
        pairings = Pairings("Open", "1", {6: ("White Player", "Black Player")})
        view.set_pairings(pairings)
        message = json.loads(hall_messages.lines()[0])  # White on the right, Black to move
        message.update(board=6)
        view._take("hall/board/6", json.dumps(message).encode())
        dom = shots.page_dom(url, shots.PHONE, browser=browser)
    finally:
        view.close()
    assert '<body class="lost">' in dom
    assert "The view lost the broker at" in dom
    assert card_classes(dom, 4) == ["board", "waiting"] and "no clock yet" in dom
    assert ">5 garbage</a>" in dom
    card = dom[dom.index('id="board-6"') :]
    assert '<span class="left black" dir="auto">Black Player</span>' in card
    assert '<span class="right white" dir="auto">White Player</span>' in card


def test_a_board_whose_clock_never_sent_its_state_is_not_a_stopped_clock():
    """The fixture stops board 3's clock and waits for it to go offline: a board listed
    from its status alone (its clock killed before its first state) must not pass."""
    flagged = {"board": 1, "message": {"flag_left": True, "flag_right": False}, "online": True}
    never = {"board": 3, "message": None, "online": False}
    assert not shots.flag_and_offline([flagged, never], 1, 3)
    went = dict(never, message={"flag_left": False, "flag_right": False})
    assert shots.flag_and_offline([flagged, went], 1, 3)
