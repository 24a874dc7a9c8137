"""The page for every name, in headless chromium with Debian's fonts (make hall-tools):
each player's name in Latin, Cyrillic, Greek, CJK, Hangul, Arabic and Hebrew is drawn
with a font that has its script (Chromium's own account of the fonts it drew a node
with: ``CSS.getPlatformFontsForNode``), never a box; and a long Arabic name is
shortened at its end, its start still shown."""

import subprocess

import pytest

from hall import screenshot as shots
from hall.devtools import Browser
from hall.pairings import Pairings
from hall.view import HallView

pytestmark = pytest.mark.xdist_group("hall-fonts")

# board -> (White, Black), and the families that hold each script (Debian's packages)
NAMES = {
    1: ("Magnus Carlsen", "Ян Непомнящий"),  # Latin, Cyrillic
    2: ("Βασίλειος Κωτρωνιάς", "丁立人"),  # Greek, CJK
    3: ("이창호", "藤井聡太"),  # Hangul, CJK (Japanese)
    4: ("عماد حکیمی", "בוריס גלפנד"),  # Arabic, Hebrew
}
FONTS = {
    "Magnus Carlsen": "Noto Sans",
    "Ян Непомнящий": "Noto Sans",
    "Βασίλειος Κωτρωνιάς": "Noto Sans",
    "丁立人": "Noto Sans CJK",
    "이창호": "Noto Sans CJK",
    "藤井聡太": "Noto Sans CJK",
    "عماد حکیمی": "Noto Sans Arabic",
    "בוריס גלפנד": "Noto Sans Hebrew",
}
LONG_ARABIC = "محمد " * 20  # far wider than its half of a phone's card


def fonts_installed():
    for package in ("fonts-noto-core", "fonts-noto-cjk"):
        done = subprocess.run(["dpkg", "-s", package], capture_output=True)
        if done.returncode != 0:
            return False
    return True


@pytest.fixture(scope="module")
def page():
    if shots.chromium() is None or not fonts_installed():
        pytest.skip("chromium and Debian's Noto fonts are not installed: make hall-tools")
    view = HallView("127.0.0.1", 9, "view", "x", boards=[1, 2, 3, 4, 5], log=lambda line: None)
    pairings = Pairings("Open", "1", dict(NAMES))
    pairings.boards[5] = (LONG_ARABIC.strip(), "Short")
    view.set_pairings(pairings)
    url = view.serve()
    try:
        with Browser(shots.chromium()) as browser:
            with browser.page(url + "?poll", shots.PHONE) as opened:
                opened.wait_for(shots.DRAWN)
                opened.call("DOM.enable")
                opened.call("CSS.enable")
                yield opened
    finally:
        view.close()


def drawn_with(page, selector):
    root = page.call("DOM.getDocument")["root"]["nodeId"]
    node = page.call("DOM.querySelector", nodeId=root, selector=selector)["nodeId"]
    fonts = page.call("CSS.getPlatformFontsForNode", nodeId=node)["fonts"]
    return {font["familyName"]: font["glyphCount"] for font in fonts}


@pytest.mark.parametrize("board", sorted(NAMES))
def test_every_name_is_drawn_with_a_font_of_its_script(page, board):
    for side in ("left", "right"):
        selector = "#board-%d .names .%s" % (board, side)
        name = page.evaluate("document.querySelector(%r).textContent" % selector)
        fonts = drawn_with(page, selector)
        wanted = FONTS[name]
        letters = sum(count for family, count in fonts.items() if family.startswith(wanted))
        spaces = name.count(" ")
        # every letter from the script's own font (a space may come from the first)
        assert letters >= len(name) - spaces, (name, fonts)


def test_an_arabic_name_is_shortened_at_its_end(page):
    selector = "#board-5 .names .left"
    assert page.evaluate("document.querySelector(%r).textContent" % selector).startswith("محمد")
    assert page.evaluate("getComputedStyle(document.querySelector(%r)).direction" % selector) == (
        "rtl"
    )
    # The name's first letter is inside its box (at its right edge: Arabic runs right to
    # left) and its last is cut: shortened at its end, as a long Latin name is.
    script = (
        """(() => {
      const span = document.querySelector(%r), text = span.firstChild;
      const box = span.getBoundingClientRect();
      const letter = (i) => {
        const r = document.createRange(); r.setStart(text, i); r.setEnd(text, i + 1);
        return r.getBoundingClientRect();
      };
      const first = letter(0), last = letter(text.length - 1);
      return [first.left >= box.left - 0.5 && first.right <= box.right + 0.5,
              last.right <= box.left + 0.5 || last.left >= box.right - 0.5];
    })()"""
        % selector
    )
    first_shown, last_cut = page.evaluate(script)
    assert first_shown and last_cut
