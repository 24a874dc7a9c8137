"""The hall's page in headless chromium: its DOM after the scripts ran, and a screenshot.

    python -m hall.screenshot [--clocks 6] [--out docs/pictures/hall-page.png]

runs a small hall (broker, clocks, view), stops one clock so that it goes
offline, waits for board 1's flag, and writes the page's picture for
docs/hall.md. ``page_dom`` and ``screenshot`` are what the tests use.
"""

import argparse
import os
import shutil
import subprocess
import sys
import time
import zlib

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
WINDOW = (1000, 420)
PHONE = (390, 844)  # a phone in the arbiter's hand
WALL = (1920, 1080)  # the screen on the hall's wall


def chromium():
    """The browser's path, or None."""
    for name in CHROMIUM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


# The page has drawn the view's boards (its first poll came back).
DRAWN = "document.getElementById('count').textContent !== '0'"


def open_page(url, window=WINDOW, browser=None):
    """The page at ``url`` in headless chromium, its viewport exactly ``window``
    (``hall.devtools``): in ``browser``, or in a browser of its own that closes with
    it; a context manager."""
    from hall.devtools import Browser, Page

    if browser is not None:
        return browser.page(url, window)
    own = Browser(chromium())
    try:
        return Page(own, url, window, own=True)
    except BaseException:
        own.close()
        raise


def page_dom(url, window=WINDOW, ready=DRAWN, browser=None):
    """The page's DOM once its scripts drew the boards (the page polls: ``?poll``), in
    ``browser`` (or one of its own)."""
    with open_page(url + "?poll", window, browser) as page:
        page.wait_for(ready)
        return page.evaluate("document.documentElement.outerHTML")


def screenshot(url, path, window=WINDOW, ready=DRAWN, settle_s=0.3, browser=None):
    """A PNG of the page at ``path``, its viewport ``window`` (width, height), in
    ``browser`` (or one of its own)."""
    with open_page(url + "?poll", window, browser) as page:
        page.wait_for(ready)
        time.sleep(settle_s)  # the cards' colours are drawn with the strip, a frame later
        return page.screenshot(os.path.abspath(path))


def png_pixels(path):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB or RGBA PNG, non-interlaced."""
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    position = 8
    chunks = []
    while position < len(data):
        length = int.from_bytes(data[position : position + 4], "big")
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            width = int.from_bytes(body[0:4], "big")
            height = int.from_bytes(body[4:8], "big")
            depth, color, interlace = body[8], body[9], body[12]
            if depth != 8 or color not in (2, 6) or interlace:
                raise ValueError("only 8-bit RGB(A) PNGs without interlace")
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            chunks.append(body)
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = bytearray(raw[start + 1 : start + 1 + stride])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                guess = left + up - corner
                a, b, c = abs(guess - left), abs(guess - up), abs(guess - corner)
                line[x] = (
                    line[x] + (left if a <= b and a <= c else up if b <= c else corner)
                ) & 255
        rows.append([tuple(line[x : x + 3]) for x in range(0, stride, channels)])
        previous = line
    return width, height, rows


def main(argv=None):
    from hall.broker import Broker
    from hall.view import HallView

    parser = argparse.ArgumentParser(prog="python -m hall.screenshot")
    parser.add_argument("--clocks", type=int, default=6)
    parser.add_argument("--out", default="docs/pictures/hall-page.png")
    parser.add_argument("--phone", default="docs/pictures/hall-phone.png", help="390 x 844")
    parser.add_argument("--wall", default="docs/pictures/hall-wall.png", help="1920 x 1080")
    parser.add_argument(
        "--names", default="docs/pictures/hall-names.png", help="every script's names, 390 x 844"
    )
    args = parser.parse_args(argv)
    if chromium() is None:
        print("chromium is not installed: make hall-tools")
        return 1
    names_screenshot(args.names)
    print("wrote %s" % args.names)
    numbers = list(range(1, args.clocks + 1))
    listed = list(range(1, args.clocks + 3))  # two boards whose clocks have not come yet
    with Broker(listed) as broker:
        view = HallView(broker.host, broker.port, "view", broker.passwords["view"], boards=listed)
        view.set_pairings(example_pairings(listed))
        url = view.serve()
        processes = [start_clock(broker, number) for number in numbers]
        try:
            wait_for(view, lambda boards: all(b["message"] for b in boards[: len(numbers)]), 20)
            processes[-1].terminate()  # the last board's clock stops: it goes offline
            wait_for(view, lambda boards: flag_and_offline(boards, 1, numbers[-1]), 30)
            for path, window in ((args.out, WINDOW), (args.phone, PHONE), (args.wall, WALL)):
                screenshot(url, path, window)
                print("wrote %s" % path)
        finally:
            for process in processes:
                process.terminate()
                process.wait(10)
            view.close()
    return 0


# Players' names in every script the page's fonts cover (docs/hall.md, "The page"):
# White, Black on each board; the last, an Arabic name too long for its half of a card.
NAMES_IN_EVERY_SCRIPT = {
    1: ("Magnus Carlsen", "Ян Непомнящий"),
    2: ("Βασίλειος Κωτρωνιάς", "丁立人"),
    3: ("이창호", "藤井聡太"),
    4: ("عماد حکیمی", "בוריס גלפנד"),
    5: (" ".join(["محمد"] * 12), "Judit Polgár"),
}


def names_screenshot(path, window=PHONE, browser=None):
    """The page with ``NAMES_IN_EVERY_SCRIPT`` on made-up boards (``hall.page_sample``,
    no broker), a PNG at ``path``."""
    from hall import page_sample

    def state():
        made = page_sample.sample(len(NAMES_IN_EVERY_SCRIPT) + 2)
        made["boards"] = made["boards"][1:-1]  # the boards that have a clock
        for board, names in zip(made["boards"], NAMES_IN_EVERY_SCRIPT.values(), strict=True):
            board["white"], board["black"] = names
        made["hall"].update(event="Every name")
        return made

    with page_sample.PageServer(state) as server:
        return screenshot(server.url, path, window, browser=browser)


def example_pairings(boards):
    """Made-up names for the pictures, White then Black on each board."""
    from hall.pairings import Pairings

    names = [
        "Ahlberg",
        "Baptiste",
        "Castillo",
        "Dimitrova",
        "Eriksen",
        "Fontaine",
        "Gallo",
        "Horvath",
        "Ishikawa",
        "Jansen",
        "Kowalski",
        "Lindqvist",
        "Moreau",
        "Novak",
        "Okafor",
        "Petrov",
        "Quinn",
        "Rossi",
    ]
    pairings = Pairings("Hall Open", "3")
    for index, board in enumerate(boards):
        pairings.boards[board] = (names[(2 * index) % 18], names[(2 * index + 1) % 18])
    return pairings


def start_clock(broker, number, speed=4.0):
    """Board ``number`` as ``python -m hall.clock`` (board 1: 10 s, a flag falls soon)."""
    import json

    path = os.path.join(broker.folder, "hall-board-%d.json" % number)
    with open(path, "w") as handle:
        json.dump(broker.hall_file(number), handle)
    control, think = ("10", "4000") if number == 1 else ("300+2", "6000")
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "hall.clock",
            "--hall-file",
            path,
            "--control",
            control,
            "--seed",
            str(number),
            "--speed",
            str(speed),
            "--think-ms",
            think,
        ],
        cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
    )


def flag_and_offline(boards, flagged, stopped):
    by_number = {board["board"]: board for board in boards}
    flag = by_number.get(flagged, {}).get("message") or {}
    return bool(flag.get("flag_left") or flag.get("flag_right")) and (
        stopped in by_number
        and by_number[stopped]["message"] is not None  # its clock came, then went
        and not by_number[stopped]["online"]
    )


def wait_for(view, predicate, timeout_s):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate(view.snapshot()):
            return
        time.sleep(0.1)
    raise RuntimeError("the hall did not get there in %d s: %r" % (timeout_s, view.snapshot()))


if __name__ == "__main__":
    sys.exit(main())
