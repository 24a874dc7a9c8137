"""The hall's page laid out in headless chromium at a phone's 390 x 844 and a wall's
1920 x 1080 (``hall.devtools`` sets the exact viewport), with 200 made-up boards whose
names run to 60 characters (``hall.page_sample``): every card inside the viewport and
its contents inside the card, the strip on two lines and most urgent first, the wall's
pages and sizes; the page's own stream, and its banner and polling when the view
refuses the stream."""

import json
import time

import pytest

from hall import page_sample
from hall import screenshot as shots
from hall.view import HallView
from tests.hall_helpers import chromium_browser
from tests.mpy import hall_messages

# One worker opens every page of the module in one browser (a browser's start costs
# about 1.5 s of the machine's two cores).
pytestmark = pytest.mark.xdist_group("hall-layout")


@pytest.fixture(scope="module")
def browser():
    with chromium_browser() as running:
        yield running


# The strip's order the issue asks for: flags and claims before time trouble and battery.
URGENCY = ("flag", "claim", "offline", "garbage", "time trouble", "battery")


def measured(browser, window, fragment="", boards=200, query="?poll", wait_s=0.3):
    return page_sample.measure(window, boards, fragment, query, wait_s, browser)


def inside(inner, outer, slack=0.5):
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def assert_every_card_fits(data):
    width, height = data["viewport"]
    assert data["scrollWidth"] <= width  # nothing pushes the page sideways
    for card in data["cards"]:
        assert 0 <= card["box"][0] and card["box"][2] <= width, card
        if data["wall"]:
            assert card["box"][3] <= height, card  # the wall does not scroll
        for part in card["parts"]:
            assert inside(part["box"], card["box"]), (card["board"], part)
    # both sides of every card are there, the longest names shortened inside it
    for card in data["cards"]:
        if "waiting" in card["kind"].split():
            continue  # no clock yet: names only
        names = [part["name"] for part in card["parts"]]
        assert sum(name.startswith("left") for name in names) == 2, card
        assert sum(name.startswith("right") for name in names) == 2, card
    assert any(part["clipped"] for card in data["cards"] for part in card["parts"])


def ranks(strip):
    return [URGENCY.index(item["text"].split(" ", 1)[1]) for item in strip]


def test_every_card_fits_a_phone_and_the_strip_keeps_to_two_lines(browser):
    data = measured(browser, shots.PHONE)
    assert data["viewport"] == list(shots.PHONE) and not data["wall"]
    assert len(data["cards"]) == 200
    assert_every_card_fits(data)
    *links, more = data["strip"]
    assert len({item["box"][1] for item in data["strip"]}) <= 2  # two lines at most
    assert more["text"] == "+%d more" % (data["needs"] - len(links))
    assert ranks(links) == sorted(ranks(links)) and links[0]["text"].endswith(" flag")


def test_the_wall_shows_200_boards_page_by_page_legible_from_5_m(browser):
    data = measured(browser, shots.WALL, "open")
    assert data["viewport"] == list(shots.WALL) and data["wall"]
    assert_every_card_fits(data)
    per_page = data["perPage"]
    pages = -(-200 // per_page)
    assert len(data["cards"]) == per_page >= 24
    assert data["pages"] == "page 1 of %d: boards 1\u2013%d" % (pages, per_page)
    # docs/hall.md: names 28 px and times 38 px at least on the wall (read from 5 m)
    for card in data["cards"]:
        for part in card["parts"]:
            if part["name"].split()[-1] in ("white", "black"):
                assert part["font"] >= 28, part
            elif part["name"] != "number":
                assert part["font"] >= 38, part
    # the strip opened (one tap): every board that needs the arbiter, most urgent first
    *links, fewer = data["strip"]
    assert fewer["text"] == "fewer" and len(links) == data["needs"]
    assert ranks(links) == sorted(ranks(links))


class _TimedPageServer(page_sample.PageServer):
    """The sample's server, noting when it answers each /events request (``asked``):
    its handler counts them in ``streams``, in the server's own thread."""

    @property
    def streams(self):
        return len(self.__dict__.get("asked", []))

    @streams.setter
    def streams(self, count):
        asked = self.__dict__.setdefault("asked", [])
        while len(asked) < count:
            asked.append(time.monotonic())


def test_the_wall_turns_its_pages_and_a_refused_stream_is_polled_with_a_banner(browser):
    # The view answers /events with 503 and Retry-After: 7 (its share of streams is
    # used up): the page polls, says so, and asks again no sooner than it was told.
    # When it asks is noted by the server as it answers, so a browser slowed by a
    # loaded machine changes nothing of what is checked.
    state = page_sample.sample(200)
    with _TimedPageServer(lambda: state) as server:
        with shots.open_page(server.url + "#turn=1000", shots.WALL, browser) as page:
            pages = "document.getElementById('pages').textContent"
            page.wait_for(
                shots.DRAWN + " && document.body.classList.contains('polling') && " + pages
            )
            first = page.evaluate(pages)
            page.wait_for("%s !== %r" % (pages, first))  # a page turned on its own
            data = json.loads(page.evaluate("measure()"))  # (a full page, not the last)
            body = page.evaluate("document.body.className")
            banner = page.evaluate("document.getElementById('stream').innerText")
            until = server.asked[0] + 7.5  # past the Retry-After of the first refusal
            while time.monotonic() < until:
                time.sleep(0.05)
            asked = list(server.asked)
    assert "polling" in body.split()
    assert banner.startswith("Live updates stopped (the view is serving as many")
    assert "every 2 s" in banner
    # the page waits at least Retry-After from the refusal it read, which the server
    # sent after it noted the request: the next request comes 7 s or more after
    assert len(asked) == 1 or asked[1] - asked[0] >= 7.0, asked
    assert len(data["cards"]) == data["perPage"]


def test_the_stream_brings_a_change_at_once_and_no_banner(browser):
    # The page reads the view's /events itself (fetch): a board that comes after the
    # page opened is drawn well before the 10 s poll of a page whose stream is live.
    view = HallView("127.0.0.1", 9, "view", "x", boards=[4, 5], log=lambda line: None)
    try:
        url = view.serve()
        with shots.open_page(url, shots.PHONE, browser) as page:
            # the stream is open (the page's own flag), not a fixed wait
            page.wait_for(shots.DRAWN + " && document.body.classList.contains('lost') && streaming")
            message = json.loads(hall_messages.lines()[0])
            message.update(board=6)
            view._take("hall/board/6", json.dumps(message).encode())
            # well before the 10 s poll, with room for a loaded machine's browser
            page.wait_for("!!document.getElementById('board-6')", 8)
            assert "polling" not in page.evaluate("document.body.className").split()
    finally:
        view.close()


def test_a_strip_link_turns_the_wall_to_its_boards_page(browser):
    state = page_sample.sample(200)
    visible = "document.getElementById('board-%d').getClientRects().length > 0"
    with page_sample.PageServer(lambda: state) as server:
        with shots.open_page(server.url + "?poll", shots.WALL, browser) as page:
            page.wait_for(shots.DRAWN + " && document.getElementById('pages').textContent")
            assert not page.evaluate(visible % 150)
            page.evaluate("location.hash = '#board-150'")  # as a tap on "150 ..." does
            page.wait_for(visible % 150)
            per_page = json.loads(page.evaluate("measure()"))["perPage"]
            first = (149 // per_page) * per_page + 1
            assert page.evaluate("document.getElementById('pages').textContent").startswith(
                "page %d of " % (149 // per_page + 1)
            )
            assert page.evaluate(visible % first) and not page.evaluate(visible % 1)


def test_a_banner_that_comes_later_leaves_the_wall_on_one_screen(browser):
    # The view loses the broker while the wall shows its pages: the red banner takes
    # room above the cards, and the wall counts its rows again.
    state = page_sample.sample(200)
    with page_sample.PageServer(lambda: state) as server:
        with shots.open_page(server.url + "?poll", shots.WALL, browser) as page:
            page.wait_for(shots.DRAWN + " && document.getElementById('pages').textContent")
            before = json.loads(page.evaluate("measure()"))
            state["hall"] = {"broker": False, "lost_at_ms": 0, "why": "keepalive timeout"}
            page.wait_for("document.body.classList.contains('lost')")
            # the wall counts its rows again (waited for: a loaded machine draws late)
            page.wait_for("JSON.parse(measure()).perPage < %d" % before["perPage"])
            after = json.loads(page.evaluate("measure()"))
    assert after["perPage"] < before["perPage"]
    assert max(card["box"][3] for card in after["cards"]) <= shots.WALL[1]
