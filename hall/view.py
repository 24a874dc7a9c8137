"""The arbiter's view of the hall: subscribes to the broker and serves one web page.

``HallView`` reads every board's messages with the ``view`` account (which
the broker's ACL lets read and never write); ``hall.boards`` reads each one,
bounded and checked, and keeps per board the last message, whether its
clock is online and its clock times for the broadcast (``hall.pgn``). The
boards of the hall's accounts are on the page from the start.

The MQTT side is supervised: whatever a message holds, the handler catches
it; the network loop runs in a thread of the view's own that logs any
failure in one line and starts again; a lost broker is retried with backoff
(1 s doubling to 30 s), logged in one line, and shown on the page with the
time it was lost.

The page (``hall/page.html``) gets a snapshot at ``/boards.json`` and every
change as a server-sent event on ``/events`` (and an ``alive`` event every
``ALIVE_S``, so that the page notices a stream that stopped); ``/pgn/N`` is
board N's ``[%clk]`` comments with its tags. The server answers GET alone
(any other method: 405), a path or a query it does not know with 404, a
request line over ``MAX_LINE`` bytes with 414 and headers over
``MAX_HEADERS`` bytes with 431. Nothing on the page can change a clock.
"""

import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import paho.mqtt.client as paho

from hall.boards import Board, board_number

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "page.html")
ALIVE_S = 5  # the page counts its event stream stopped after three of these missed
MAX_LINE = 1024
MAX_HEADERS = 8192
_BODY_MAX = 65536  # a refused request's body read before the 405 (a larger one: reset)
MAX_LISTENERS = 64  # open /events connections
RECONNECT_S = (1, 30)


def _now_ms():
    return int(time.monotonic() * 1000)


def _stderr_line(text):
    print("hall.view: " + text, file=sys.stderr, flush=True)


class _Listener:
    """One open /events connection: the boards changed since it last wrote (at most
    one entry per board, however fast they change)."""

    def __init__(self):
        self.boards = set()
        self.hall = False
        self.closed = False
        self.wake = threading.Event()


class HallView:
    """The subscriber and the boards it follows; ``serve`` adds the web page."""

    def __init__(
        self,
        host,
        port,
        user,
        password,
        prefix="hall",
        boards=(),
        pairings=None,
        log=_stderr_line,
        ca=None,
    ):
        self.prefix = prefix
        self.address = "%s:%d" % (host, port)
        self.log = log
        self.boards = {}
        self.lock = threading.Lock()
        self.listeners = []
        self.received = 0
        self.refused = 0
        self.arrivals = []  # (monotonic ms, board, seq): the bench reads it
        self.keep_arrivals = False
        self.event = {}  # Event and Round, from the pairings
        for number in boards:
            self.boards[number] = Board(number, listed=True)
        if pairings is not None:
            self.set_pairings(pairings)
        self.broker_up = False
        self.lost_at = time.time()  # wall time (s) since when the broker is not connected
        self.broker_error = "not connected yet"
        self.connected = threading.Event()
        self.stopping = threading.Event()
        self.server = None
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="hall-view")
        self.client.username_pw_set(user, password)
        if ca is not None:  # the hall's CA file: TLS, the broker's certificate checked
            from hall import tls

            self.client.tls_set_context(tls.client_context(ca))
        self.client.suppress_exceptions = True
        self.client.reconnect_delay_set(*RECONNECT_S)
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.connect_async(host, port, 30)
        self.thread = threading.Thread(target=self._run, daemon=True, name="hall-view-mqtt")
        self.thread.start()

    # --- the MQTT side --------------------------------------------------------

    def _run(self):
        delay = RECONNECT_S[0]
        while not self.stopping.is_set():
            try:
                self.client.loop_forever(retry_first_connection=True)
                delay = RECONNECT_S[0]
            except Exception as error:  # the loop must never end unseen
                self.log(
                    "the MQTT loop failed (%s: %s); starting it again in %d s"
                    % (type(error).__name__, error, delay)
                )
                self._broker_lost(str(error))
            if self.stopping.wait(delay):
                return
            delay = min(delay * 2, RECONNECT_S[1])
            try:
                self.client.reconnect()
            except Exception:
                pass  # loop_forever retries from here

    def _broker_lost(self, why):
        with self.lock:
            if self.broker_up:
                self.lost_at = time.time()
            self.broker_up = False
            self.broker_error = why
            self._notify_hall()

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        if reason_code.is_failure:
            self.log("the broker at %s refused the view: %s" % (self.address, reason_code))
            self._broker_lost("refused: %s" % reason_code)
            return
        client.subscribe(self.prefix + "/board/#")
        with self.lock:
            self.broker_up = True
            self.broker_error = ""
            self._notify_hall()
        self.log("connected to the broker at %s" % self.address)
        self.connected.set()

    def _on_connect_fail(self, client, userdata):
        if self.broker_error != "no broker":
            self.log("no broker at %s; trying again (1 s, doubling to 30 s)" % self.address)
        self._broker_lost("no broker")

    def _on_disconnect(self, client, userdata, flags, reason_code, properties):
        self.connected.clear()
        if self.stopping.is_set():
            return
        self.log("lost the broker at %s (%s); trying again" % (self.address, reason_code))
        self._broker_lost("lost: %s" % reason_code)

    def _board(self, number):
        board = self.boards.get(number)
        if board is None:
            board = self.boards[number] = Board(number)
        return board

    def _on_message(self, client, userdata, message):
        try:
            self._take(message.topic, message.payload)
        except Exception as error:  # never the network thread's end: log and go on
            self.log(
                "a message on %s was not read: %s: %s"
                % (message.topic[:80], type(error).__name__, error)
            )

    def _take(self, topic, payload):
        parts = topic.split("/")
        if len(parts) not in (3, 4) or parts[0] != self.prefix or parts[1] != "board":
            return
        number = board_number(parts[2])
        if number is None or (len(parts) == 4 and parts[3] != "status"):
            return
        now = _now_ms()
        with self.lock:
            board = self._board(number)
            before = board.refused
            if len(parts) == 4:
                changed = board.take_status(payload, now)
            else:
                changed = board.take_message(payload, now)
                if changed:
                    self.received += 1
                    if self.keep_arrivals:
                        self.arrivals.append((now, number, board.message["seq"]))
            if board.refused != before:
                self.refused += 1
                changed = True
            if changed:
                for listener in self.listeners:
                    listener.boards.add(number)
                    listener.wake.set()

    def _notify_hall(self):
        for listener in self.listeners:
            listener.hall = True
            listener.wake.set()

    # --- what the page reads ----------------------------------------------------

    def set_pairings(self, pairings):
        """Names per board from ``hall.pairings.read`` (the event's, the round's)."""
        with self.lock:
            self.event = {"event": pairings.event, "round": pairings.round}
            for number, names in pairings.boards.items():
                self._board(number).pairing = names
                self.boards[number].listed = True

    def snapshot(self):
        now = _now_ms()
        with self.lock:
            return [self.boards[n].snapshot(now) for n in sorted(self.boards)]

    def hall_state(self):
        """The view's own state: whether it has the broker, since when not, the event."""
        return {
            "broker": self.broker_up,
            "lost_at_ms": None if self.broker_up else int(self.lost_at * 1000),
            "why": self.broker_error,
            "event": self.event.get("event"),
            "round": self.event.get("round"),
        }

    def page_state(self):
        now = _now_ms()
        with self.lock:
            boards = [self.boards[n].snapshot(now) for n in sorted(self.boards)]
            return {"hall": self.hall_state(), "boards": boards}

    def pgn(self, number):
        with self.lock:
            board = self.boards.get(number)
            if board is None:
                return None
            names = board.pairing or ("?", "?")
            tags = (
                ("Event", self.event.get("event") or "?"),
                ("Round", self.event.get("round") or "?"),
                ("Board", str(number)),
                ("White", names[0]),
                ("Black", names[1]),
            )
            head = "".join(
                '[%s "%s"]\n' % (k, v.replace("\\", "\\\\").replace('"', '\\"')) for k, v in tags
            )
            return head + "\n" + board.history.pgn_comments()

    def _listen(self):
        with self.lock:
            if len(self.listeners) >= MAX_LISTENERS:
                return None
            listener = _Listener()
            self.listeners.append(listener)
            return listener

    def _changes(self, listener):
        """The events ``listener`` has not written yet, as strict JSON lines."""
        now = _now_ms()
        with self.lock:
            listener.wake.clear()
            lines = []
            if listener.hall:
                lines.append("event: hall\ndata: %s\n\n" % json.dumps(self.hall_state()))
            for number in sorted(listener.boards):
                snapshot = self.boards[number].snapshot(now)
                lines.append("data: %s\n\n" % json.dumps(snapshot, allow_nan=False))
            listener.boards.clear()
            listener.hall = False
            return "".join(lines)

    def _unlisten(self, listener):
        with self.lock:
            if listener in self.listeners:
                self.listeners.remove(listener)

    def serve(self, port=0, host="127.0.0.1"):
        """Serve the page on ``host:port`` (0: a free port) in a thread; its address."""
        view = self

        class Handler(_Handler):
            hall = view

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request, client_address):
                error = sys.exc_info()[1]
                view.log(
                    "a request from %s failed: %s: %s"
                    % (client_address[0], type(error).__name__, error)
                )

        self.server = Server((host, port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return "http://%s:%d/" % (host, self.server.server_address[1])

    def close(self):
        self.stopping.set()
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
        with self.lock:
            for listener in self.listeners:
                listener.closed = True
                listener.wake.set()
        self.client.disconnect()
        self.thread.join(5)


class _Handler(BaseHTTPRequestHandler):
    hall = None
    protocol_version = "HTTP/1.1"
    timeout = 30  # a connection that sends nothing for this long is closed

    def log_message(self, *args):
        pass

    def handle_one_request(self):
        """One request, read within bounds; GET alone is answered."""
        try:
            self.raw_requestline = self.rfile.readline(MAX_LINE + 1)
        except OSError:
            self.close_connection = True
            return
        if not self.raw_requestline:
            self.close_connection = True
            return
        if len(self.raw_requestline) > MAX_LINE:
            self.requestline = ""
            self.request_version = "HTTP/1.1"
            self.command = None
            self.send_error(414, "request line over %d bytes" % MAX_LINE)
            self.close_connection = True
            return
        if not self.parse_request():
            return
        if sum(len(k) + len(v) + 4 for k, v in self.headers.items()) > MAX_HEADERS:
            self.send_error(431, "headers over %d bytes" % MAX_HEADERS)
            self.close_connection = True
            return
        if self.command == "GET":
            self._get()
        else:
            self._refuse()
        self.wfile.flush()

    def _send(self, status, kind, body, extra=()):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _get(self):
        path, _, query = self.path.partition("?")
        if path == "/" and query in ("", "poll"):
            with open(PAGE, "rb") as handle:
                self._send(200, "text/html; charset=utf-8", handle.read())
        elif "?" in self.path:
            self._send(404, "text/plain", b"not found\n")
        elif path == "/boards.json":
            body = json.dumps(self.hall.page_state(), allow_nan=False).encode()
            self._send(200, "application/json", body)
        elif path.startswith("/pgn/") and board_number(path[5:]) is not None:
            text = self.hall.pgn(board_number(path[5:]))
            if text is None:
                self._send(404, "text/plain", b"no such board\n")
            else:
                self._send(200, "text/plain; charset=utf-8", (text + "\n").encode())
        elif path == "/events":
            self._events()
        else:
            self._send(404, "text/plain", b"not found\n")

    def _events(self):
        listener = self.hall._listen()
        if listener is None:
            self._send(503, "text/plain", b"too many open pages\n")
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        try:
            with self.hall.lock:
                listener.hall = True
            while not listener.closed:
                text = self.hall._changes(listener)
                if not text:
                    text = "event: alive\ndata: {}\n\n"
                self.wfile.write(text.encode())
                self.wfile.flush()
                listener.wake.wait(ALIVE_S)
        except OSError:
            pass
        finally:
            self.hall._unlisten(listener)

    def _refuse(self):
        """405 with ``Allow: GET``. A body the request announces (up to ``_BODY_MAX``)
        is read first: a connection closed with bytes unread is reset, and the
        client would lose the answer."""
        text = self.headers.get("Content-Length", "0").strip()
        if text.isascii() and text.isdigit() and 0 < int(text) <= _BODY_MAX:
            self.rfile.read(int(text))
        self.close_connection = True
        self._send(405, "text/plain", b"the hall view reads only: GET\n", [("Allow", "GET")])


def _account(path):
    """The view's account file (``hall.accounts`` writes it): a dict, or SystemExit."""
    try:
        with open(path) as handle:
            account = json.load(handle)
        if not isinstance(account.get("user"), str) or not isinstance(account.get("password"), str):
            raise ValueError("it needs user and password")
        return account
    except OSError as error:
        raise SystemExit("hall.view: cannot read the account %s: %s" % (path, error.strerror))
    except ValueError as error:
        raise SystemExit("hall.view: the account %s is not usable: %s" % (path, error))


def main(argv=None):
    """``python -m hall.view --account FILE [--broker H] [--broker-port P] [--port N]
    [--boards 1-100] [--pairings FILE]``: the view alone."""
    import argparse

    from hall import pairings as pairings_module
    from hall.accounts import board_numbers

    parser = argparse.ArgumentParser(prog="python -m hall.view")
    parser.add_argument("--broker", default=None, help="the broker (default: the account's)")
    parser.add_argument("--broker-port", type=int, default=None)
    parser.add_argument("--account", required=True, help="JSON with user and password")
    parser.add_argument("--prefix", default=None)
    parser.add_argument("--port", type=int, default=0, help="the page's port")
    parser.add_argument("--boards", default=None, help="the hall's boards (default: the account's)")
    parser.add_argument("--pairings", default=None, help="the round's pairings: TRF or CSV")
    parser.add_argument("--round", type=int, default=None, help="the round in a TRF")
    args = parser.parse_args(argv)
    account = _account(args.account)
    host = args.broker or account.get("broker") or "127.0.0.1"
    port = args.broker_port or account.get("port") or 1883
    prefix = args.prefix or account.get("prefix") or "hall"
    try:
        boards = (
            board_numbers(args.boards or account.get("boards") or "")
            if (args.boards or account.get("boards"))
            else []
        )
        pairings = pairings_module.read(args.pairings, args.round) if args.pairings else None
    except (OSError, ValueError) as error:
        parser.error(str(error))
    view = HallView(
        host,
        port,
        account["user"],
        account["password"],
        prefix,
        boards,
        pairings,
        ca=account.get("ca"),
    )
    try:
        address = view.serve(args.port)
    except OSError as error:
        view.close()
        raise SystemExit(
            "hall.view: cannot serve the page on port %d: %s" % (args.port, error.strerror)
        )
    print(address, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        view.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
