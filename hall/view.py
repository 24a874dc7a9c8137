"""The arbiter's view of the hall: subscribes to the broker and serves one web page.

``HallView`` reads every board's messages with the ``view`` account (which
the broker's ACL lets read and never write) and keeps, per board number, the
last message, when it came, whether the board is online (its ``/status``,
which the broker's last will sets to ``offline``) and its clock times for
the broadcast (``hall.pgn``). The page (``hall/page.html``) gets a snapshot
at ``/boards.json`` and every change as a server-sent event on ``/events``;
``/pgn/N`` is board N's ``[%clk]`` comments. The server answers GET alone:
nothing on the page can change a clock.
"""

import json
import os
import queue
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import paho.mqtt.client as paho

from firmware import hall_decode
from hall.pgn import ClockHistory

SILENT_MS = 75_000  # no message for 2.5 heartbeats: shown offline even without the will
PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "page.html")
EVENT_QUEUE = 1000  # changes a page's connection may fall behind before it is dropped


def _now_ms():
    return int(time.monotonic() * 1000)


class Board:
    """What the view knows of one board."""

    def __init__(self, number):
        self.number = number
        self.message = None
        self.received_ms = 0
        self.online = None  # None: no status seen yet
        self.history = ClockHistory()
        self.bad = 0  # messages that were not hall messages

    def snapshot(self, now_ms):
        silent = self.message is not None and now_ms - self.received_ms > SILENT_MS
        return {
            "board": self.number,
            "message": self.message,
            "age_ms": now_ms - self.received_ms if self.message is not None else None,
            "online": bool(self.online) and not silent,
            "plies": len(self.history.times),
        }


class HallView:
    """The subscriber and the boards it follows; ``serve`` adds the web page."""

    def __init__(self, host, port, user, password, prefix="hall"):
        self.prefix = prefix
        self.boards = {}
        self.lock = threading.Lock()
        self.listeners = []  # one queue per open /events connection
        self.received = 0
        self.arrivals = []  # (monotonic ms, board, seq): the bench reads it
        self.keep_arrivals = False
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="hall-view")
        self.client.username_pw_set(user, password)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.connected = threading.Event()
        self.client.connect(host, port, 30)
        self.client.loop_start()
        self.server = None

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        if not reason_code.is_failure:
            client.subscribe(self.prefix + "/board/#")
            self.connected.set()

    def _board(self, number):
        board = self.boards.get(number)
        if board is None:
            board = self.boards[number] = Board(number)
        return board

    def _on_message(self, client, userdata, message):
        parts = message.topic.split("/")
        if len(parts) < 3 or parts[1] != "board" or not parts[2].isdigit():
            return
        number = int(parts[2])
        now = _now_ms()
        with self.lock:
            board = self._board(number)
            if len(parts) == 4 and parts[3] == "status":
                board.online = message.payload == b"online"
            elif len(parts) == 3:
                try:
                    data = hall_decode.decode(message.payload)
                    if data["board"] != number:
                        raise ValueError("board %d on board %d's topic" % (data["board"], number))
                except (ValueError, UnicodeError):
                    board.bad += 1
                    return
                board.message = data
                board.received_ms = now
                board.online = True if board.online is None else board.online
                board.history.follow(data)
                self.received += 1
                if self.keep_arrivals:
                    self.arrivals.append((now, number, data["seq"]))
            else:
                return
            event = json.dumps(board.snapshot(now))
            for listener in list(self.listeners):
                try:
                    listener.put_nowait(event)
                except queue.Full:
                    self.listeners.remove(listener)

    def snapshot(self):
        now = _now_ms()
        with self.lock:
            return [self.boards[n].snapshot(now) for n in sorted(self.boards)]

    def pgn(self, number):
        with self.lock:
            board = self.boards.get(number)
            return None if board is None else board.history.pgn_comments()

    def serve(self, port=0, host="127.0.0.1"):
        """Serve the page on ``host:port`` (0: a free port) in a thread; its address."""
        view = self

        class Handler(_Handler):
            hall = view

        self.server = ThreadingHTTPServer((host, port), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return "http://%s:%d/" % (host, self.server.server_address[1])

    def close(self):
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
        with self.lock:
            for listener in self.listeners:
                listener.put_nowait(None)
        self.client.loop_stop()
        self.client.disconnect()


class _Handler(BaseHTTPRequestHandler):
    hall = None
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _send(self, status, kind, body):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == "/":
            with open(PAGE, "rb") as handle:
                self._send(200, "text/html; charset=utf-8", handle.read())
        elif path == "/boards.json":
            body = json.dumps(self.hall.snapshot()).encode()
            self._send(200, "application/json", body)
        elif path.startswith("/pgn/") and path[5:].isdigit():
            text = self.hall.pgn(int(path[5:]))
            if text is None:
                self._send(404, "text/plain", b"no such board\n")
            else:
                self._send(200, "text/plain; charset=utf-8", (text + "\n").encode())
        elif path == "/events":
            self._events()
        else:
            self._send(404, "text/plain", b"not found\n")

    def _events(self):
        listener = queue.Queue(EVENT_QUEUE)
        with self.hall.lock:
            self.hall.listeners.append(listener)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        try:
            while True:
                try:
                    event = listener.get(timeout=15)
                except queue.Empty:
                    event = ""  # a comment line keeps the connection open
                if event is None:
                    return
                line = ("data: %s\n\n" % event) if event else ": idle\n\n"
                self.wfile.write(line.encode())
                self.wfile.flush()
        except OSError:
            pass
        finally:
            with self.hall.lock:
                if listener in self.hall.listeners:
                    self.hall.listeners.remove(listener)

    def _refuse(self):
        self._send(405, "text/plain", b"the hall view reads only\n")

    do_POST = do_PUT = do_DELETE = do_PATCH = _refuse


def main(argv=None):
    """``python -m hall.view --broker-port P --account FILE [--port N]``: the view alone."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(prog="python -m hall.view")
    parser.add_argument("--broker", default="127.0.0.1")
    parser.add_argument("--broker-port", type=int, required=True)
    parser.add_argument("--account", required=True, help="JSON with user and password")
    parser.add_argument("--prefix", default="hall")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    with open(args.account) as handle:
        account = json.load(handle)
    view = HallView(
        args.broker, args.broker_port, account["user"], account["password"], args.prefix
    )
    print(view.serve(args.port), flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        view.close()
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
