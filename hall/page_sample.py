"""A hall made up for the page's layout: many boards, long names, every kind of state.

``sample(count)`` makes the view's snapshot of ``count`` boards (``hall.boards``
reads each made-up message, as the view does), named from realistic names of up
to 60 characters, the most a name may have (``hall.pairings.MAX_NAME``), with
flags, claims, offline clocks, time trouble, low batteries and boards whose
clock has not come yet. ``PageServer`` serves ``hall/page.html`` with it and
no broker, for the layout tests and the pictures::

    python -m hall.page_sample [--boards 200] [--folder docs/pictures]

writes the page at 390 x 844 (a phone) and 1920 x 1080 (the wall).
"""

import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from hall.boards import Board
from hall.pairings import MAX_NAME
from hall.view import PAGE

# Names as pairing programs write them, "Surname, Firstname", the longest 60 characters.
NAMES = (
    "Wolfeschlegelsteinhausenbergerdorff-Ramaswamy, Maximilian Jo",
    "Abdurakhmanova-Kuznetsova, Aleksandra Mikhailovna",
    "Dos Santos Oliveira Pereira da Silva, Maria Eduarda Cristina",
    "Schwarzenberger-Oberhollenzer, Anna-Katharina Theresia",
    "Papadopoulou-Konstantinidou, Aikaterini",
    "Gunnlaugsdóttir, Guðrún Sólveig",
    "Nguyễn Thị Thanh, An",
    "Al-Mutairi, Abdulrahman bin Khalid",
    "Vachier-Lagrave, Maxime",
    "Praggnanandhaa, Rameshbabu",
    "Nepomniachtchi, Ian",
    "Kowalska, Anna",
    "Li, Wei",
    "Ng, Jo",
    "Øvregård-Løkkeberg, Signe Marit",
    "Błaszczykowski-Wiśniewska, Małgorzata Zofia",
    "Ramaswamy Venkatasubramanian, Srinivasaraghavan",
    "Fernández de Córdoba y Aguilar, José Ignacio",
)
assert max(len(name) for name in NAMES) == MAX_NAME

_MESSAGE = {
    "v": 2, "seq": 7, "reason": "change", "state": "running", "left_ms": 4_198_500,
    "right_ms": 3_597_000, "to_move": "left", "white": "left", "moves": 31, "left_stage": "1",
    "right_stage": "1", "flag_left": False, "flag_right": False, "first_flag": "none",
    "claim": "none", "result": "none", "push": "none", "push_id": None, "quickplay": "off",
    "battery": "ok",
}  # fmt: skip


def _message(number):
    """Board ``number``'s made-up state: most play on, some need the arbiter."""
    message = dict(_MESSAGE, board=number, moves=(number * 7) % 90)
    message["left_ms"] = (number * 48_611) % 5_400_000 + 150_000
    message["to_move"] = "left" if number % 2 else "right"
    if number % 17 == 1:
        message.update(state="over", flag_left=True, first_flag="left", left_ms=0)
    elif number % 23 == 2:
        message.update(state="claim", claim="open-right")
    elif number % 13 == 3:
        message.update(quickplay="g5", to_move="left", left_ms=95_000)
    elif number % 19 == 4:
        message.update(state="over", result="draw")
    elif number == 5:
        message.update(left_ms=359_999_999, right_ms=359_999_999)  # 99:59:59 on both sides
    if number % 31 == 5:
        message["battery"] = "low"
    return message


def sample(count, now_ms=None):
    """The view's ``/boards.json`` for ``count`` boards (the first and the last: no clock yet)."""
    now_ms = int(time.monotonic() * 1000) if now_ms is None else now_ms
    boards = []
    for number in range(1, count + 1):
        board = Board(number, listed=True)
        board.pairing = (NAMES[(2 * number) % len(NAMES)], NAMES[(2 * number + 1) % len(NAMES)])
        if 1 < number < count:
            board.take_status(b"online", now_ms)
            board.take_message(json.dumps(_message(number)).encode(), now_ms)
            if number % 29 == 6:
                board.take_status(b"offline", now_ms)
            if number % 37 == 7:
                board.take_message(b"[" * 40, now_ms)  # refused: the strip says garbage
        boards.append(board.snapshot(now_ms))
    return {"hall": {"broker": True, "event": "Hall Open 2026", "round": "3"}, "boards": boards}


class PageServer:
    """``hall/page.html`` and ``/boards.json`` from ``state()``; ``/events`` answers 503
    with ``Retry-After`` (the view's answer when a client's share is used up)."""

    def __init__(self, state, retry_after_s=7):
        page = open(PAGE, "rb").read()
        self.streams = 0  # /events requests answered 503
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                path = self.path.partition("?")[0]
                if path == "/":
                    self._send(200, "text/html; charset=utf-8", page)
                elif path == "/boards.json":
                    self._send(200, "application/json", json.dumps(state()).encode())
                elif path == "/events":
                    server.streams += 1
                    self._send(503, "text/plain", b"busy\n", ("Retry-After", str(retry_after_s)))
                else:
                    self._send(404, "text/plain", b"not found\n")

            def _send(self, status, kind, body, *headers):
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                for name, value in headers:
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

        class Server(ThreadingHTTPServer):
            def handle_error(self, request, client_address):
                pass  # a page closed while it was answered

        self.server = Server(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = "http://127.0.0.1:%d/" % self.server.server_address[1]

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def measure(window, boards=200, fragment="", query="?poll", wait_s=0.3, browser=None):
    """The page's own measure (its ``measure()``) of ``sample(boards)`` at the viewport
    ``window``, in ``browser`` (or one of its own): its cards' and their contents'
    boxes and font sizes, the strip's items, the wall's pages; with the body's
    classes, the stream banner's text, the number of ``/events`` requests and how
    many reasons the boards' needs hold."""
    from hall import screenshot

    state = sample(boards)
    with PageServer(lambda: state) as server:
        url = server.url + query + "#" + fragment
        with screenshot.open_page(url, window, browser) as page:
            page.wait_for(screenshot.DRAWN)
            time.sleep(wait_s)  # drawn again, at 100 ms, with every board laid out
            data = json.loads(page.evaluate("measure()"))
            data["body"] = page.evaluate("document.body.className")
            data["stream"] = page.evaluate("document.getElementById('stream').innerText")
        data["streams"] = server.streams
    data["needs"] = sum(len(board["needs"]) for board in state["boards"])
    return data


def main(argv=None):
    from hall import screenshot

    parser = argparse.ArgumentParser(prog="python -m hall.page_sample")
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--folder", default="docs/pictures")
    args = parser.parse_args(argv)
    if screenshot.chromium() is None:
        print("chromium is not installed: make hall-tools")
        return 1
    with PageServer(lambda: sample(args.boards)) as server:
        for name, window in (("phone", screenshot.PHONE), ("wall", screenshot.WALL)):
            path = os.path.join(args.folder, "hall-%s-%d.png" % (name, args.boards))
            screenshot.screenshot(server.url, path, window)
            print("wrote %s" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
