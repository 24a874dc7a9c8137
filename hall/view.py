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
board N's ``[%clk]`` comments with its tags. Each change is encoded once, when it
arrives, and the same bytes go to every open page: one thread writes every stream
(``hall.fan_out``), woken once per change however many pages are open. The server
(``hall.page_server``) answers GET alone (any other method: 405), a path or a
query it does not know with 404, and holds every client to its share: bounded
heads (414, 431), deadlines (408), connections and streams per address (503 with
``Retry-After``). It listens on the hall's network by default (the address this
computer reaches the broker from: ``hall_address``). Nothing on the page can change
a clock.
"""

import json
import os
import secrets
import socket
import sys
import threading
import time

import paho.mqtt.client as paho

from hall import fan_out, page_server
from hall.boards import Board, board_number

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "page.html")
ALIVE_S = 5  # the page counts its event stream stopped after three of these missed
MAX_LINE = page_server.MAX_LINE
MAX_HEADERS = page_server.MAX_HEADERS
MAX_LISTENERS = page_server.MAX_STREAMS  # open /events connections
RECONNECT_S = (1, 30)


def _now_ms():
    return int(time.monotonic() * 1000)


def _stderr_line(text):
    print("hall.view: " + text, file=sys.stderr, flush=True)


def hall_address(broker_host, broker_port=1883):
    """This computer's address on the network it reaches the broker by (no packet is
    sent: a UDP socket only chooses its route); loopback for a broker on loopback."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect((broker_host, broker_port))
            return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"


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
        from hall import tls

        tls.check_plain(host, ca)  # the view's password never crosses the hall in clear
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
        self.encoded = {}  # board -> its last change as an event's bytes, for every page
        self.encoded_hall = b""  # the view's own state as an event's bytes
        self.encodings = 0  # how many times a change was encoded (the bench reads it)
        # Every state the page gets carries the view's epoch (a restarted view's is later)
        # and the sequence of its last change, counted over the whole view: a page keeps
        # the newest of what its stream and its polls bring (hall/page.html).
        self.epoch = int(time.time() * 1000)
        self.change_seq = 0  # the last change's sequence (boards and the view's own state)
        self.hall_seq = 0
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
        self.fan_out = fan_out.FanOut(self._streams, self._changes, ALIVE_S)
        # One login holds one session: a second program on this account puts this view
        # off. Each view claims its account on its own topic (``PREFIX/views/USER``,
        # retained: a random id of this run) at each connection until the broker has
        # sent the claim back (a view put off before its claim got in claims again when
        # it comes back); a view that finds another run's claim there steps back
        # instead of taking the session back (``_presence``), so two programs never
        # take turns and the later one keeps the session.
        self.user = user
        self.run_id = secrets.token_hex(8).encode()
        self.presence_topic = "%s/views/%s" % (prefix, user)
        self.connections = 0
        self.claimed = False  # the broker sent this run's claim back
        self.taken_over = False
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="hall-view")
        self.client.username_pw_set(user, password)
        if ca:  # the hall's CA file: TLS, the broker's certificate checked
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
            if self.taken_over:
                return  # another program holds the account: it keeps the session
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
        self.connections += 1
        if not self.claimed:  # before the subscription: the retained one is ours
            client.publish(self.presence_topic, self.run_id, qos=1, retain=True)
        client.subscribe([(self.prefix + "/board/#", 0), (self.presence_topic, 1)])
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
        if self.stopping.is_set() or self.taken_over:
            return
        self.log("lost the broker at %s (%s); trying again" % (self.address, reason_code))
        self._broker_lost("lost: %s" % reason_code)

    def _board(self, number):
        board = self.boards.get(number)
        if board is None:
            board = self.boards[number] = Board(number)
        return board

    def _presence(self, payload):
        """The account's claim (``PREFIX/views/USER``): another run's means another
        program logged in with this account after this view: it keeps the session."""
        if payload == self.run_id:
            self.claimed = True
            return
        if self.taken_over:
            return
        # Taking it back would start a loop of two programs each putting the other off
        # (and the red banner on every page): this view steps back and says so.
        self.taken_over = True
        self.log(
            "another program logged in to the broker at %s with this view's account %r: "
            "this view stops reading and leaves it the session. Give each view its own "
            "account file (hall.accounts writes view.json, view-2.json, view-3.json)"
            % (self.address, self.user)
        )
        self._broker_lost("taken over")
        self.client.disconnect()  # loop_forever returns: no reconnection

    def _on_message(self, client, userdata, message):
        if message.topic == self.presence_topic:
            self._presence(message.payload)
            return
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
                self.change_seq += 1
                board.changed(self.change_seq)
                if self.listeners:
                    self._encode(number, now)
                else:
                    self.encoded.pop(number, None)  # encoded when a page asks
                for listener in self.listeners:
                    listener.boards.add(number)
                if self.listeners:
                    self.fan_out.signal()

    def _encode(self, number, now):
        """Board ``number``'s snapshot as an event, once for every page (under the lock)."""
        snapshot = self._state(number, now)
        self.encoded[number] = ("data: %s\n\n" % json.dumps(snapshot, allow_nan=False)).encode()
        self.encodings += 1

    def _state(self, number, now):
        """Board ``number`` as the page gets it, with the view's epoch (under the lock)."""
        snapshot = self.boards[number].snapshot(now)
        snapshot["epoch"] = self.epoch
        return snapshot

    def _notify_hall(self):
        self.change_seq += 1
        self.hall_seq = self.change_seq
        self.encoded_hall = ("event: hall\ndata: %s\n\n" % json.dumps(self.hall_state())).encode()
        for listener in self.listeners:
            listener.hall = True
        if self.listeners:
            self.fan_out.signal()

    # --- what the page reads ----------------------------------------------------

    def set_pairings(self, pairings):
        """Names per board from ``hall.pairings.read`` (the event's, the round's)."""
        with self.lock:
            self.event = {"event": pairings.event, "round": pairings.round}
            for number, names in pairings.boards.items():
                self._board(number).pairing = names
                self.boards[number].listed = True
                self.change_seq += 1
                self.boards[number].changed(self.change_seq)

    def snapshot(self):
        now = _now_ms()
        with self.lock:
            return [self._state(n, now) for n in sorted(self.boards)]

    def hall_state(self):
        """The view's own state: whether it has the broker, since when not, the event."""
        return {
            "broker": self.broker_up,
            "lost_at_ms": None if self.broker_up else int(self.lost_at * 1000),
            "why": self.broker_error,
            "taken_over": self.taken_over,  # another view logged in with this account
            "account": self.user,
            "event": self.event.get("event"),
            "round": self.event.get("round"),
            "epoch": self.epoch,
            "seq": self.hall_seq,
        }

    def page_state(self):
        now = _now_ms()
        with self.lock:
            boards = [self._state(n, now) for n in sorted(self.boards)]
            return {"hall": self.hall_state(), "boards": boards, "now_ms": now}

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

    def _listen(self, address=None, arbiter=False):
        """A stream for a page at ``address`` within its share (``hall.page_server``;
        ``arbiter``: the arbiter's reserve), or None; a stream it displaced is ended."""
        listener = fan_out.Stream(address)
        shares = self.server.shares if self.server is not None else None
        if shares is None:
            with self.lock:
                if len(self.listeners) >= MAX_LISTENERS:
                    return None
        else:
            displaced = shares.open_stream(address, listener, arbiter)
            if displaced is False:
                return None
            if displaced is not None:
                displaced.end()
        with self.lock:
            self.listeners.append(listener)
            if not self.encoded_hall:
                self.encoded_hall = (
                    "event: hall\ndata: %s\n\n" % json.dumps(self.hall_state())
                ).encode()
            return listener

    def _changes(self, listener):
        """The events ``listener`` has not written yet: the bytes encoded at each change."""
        with self.lock:
            parts = []
            if listener.hall:
                parts.append(self.encoded_hall)
            encoded = self.encoded
            for number in sorted(listener.boards):
                if number not in encoded:
                    self._encode(number, _now_ms())
                parts.append(encoded[number])
            listener.boards.clear()
            listener.hall = False
            return b"".join(parts)

    def _streams(self):
        with self.lock:
            return list(self.listeners)

    def _unlisten(self, listener):
        with self.lock:
            if listener in self.listeners:
                self.listeners.remove(listener)
        if self.server is not None:
            self.server.shares.close_stream(listener.address, listener)

    def serve(self, port=0, host="127.0.0.1", arbiter_key=None):
        """Serve the page on ``host:port`` (0: a free port) in a thread; its address.
        ``arbiter_key``: the key of the arbiter's own devices, whose connections and
        streams have a share no spectator can take (``hall.page_server``)."""
        view = self

        class Handler(_Handler):
            hall = view

        self.server = page_server.Server((host, port), Handler, self.log, arbiter_key)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.fan_out.start()
        return "http://%s:%d/" % (host, self.server.server_address[1])

    def close(self):
        self.stopping.set()
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
        for listener in self._streams():
            listener.end()
        self.fan_out.stop()
        self.client.disconnect()
        self.thread.join(5)


class _Handler(page_server.Handler):
    hall = None

    def answer(self):
        path, _, query = self.path.partition("?")
        if path == "/" and query in ("", "poll"):
            with open(PAGE, "rb") as handle:
                self.send(200, "text/html; charset=utf-8", handle.read())
        elif "?" in self.path:
            self.send(404, "text/plain", b"not found\n")
        elif path == "/boards.json":
            body = json.dumps(self.hall.page_state(), allow_nan=False).encode()
            self.send(200, "application/json", body)
        elif path.startswith("/pgn/") and board_number(path[5:]) is not None:
            text = self.hall.pgn(board_number(path[5:]))
            if text is None:
                self.send(404, "text/plain", b"no such board\n")
            else:
                self.send(200, "text/plain; charset=utf-8", (text + "\n").encode())
        elif path == "/events":
            self._events()
        else:
            self.send(404, "text/plain", b"not found\n")

    def _events(self):
        listener = self.hall._listen(self.client_address[0], self.arbiter)
        if listener is None:
            self.busy("every event stream is taken; try again")
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        try:
            self.wfile.write(b"retry: %d\n\n" % page_server.RETRY_MS)
            self.connection.setblocking(False)  # from here the fan-out writes it
            with self.hall.lock:
                listener.hall = True
                listener.sock = self.connection
                self.hall.fan_out.signal()  # under the view's lock, as every change's
            while not listener.closed and not self.hall.stopping.is_set():
                listener.ended.wait(ALIVE_S)
        except OSError:
            pass  # gone before its stream began
        finally:
            listener.end()
            self.hall._unlisten(listener)
            self.connection.settimeout(page_server.WRITE_S)


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
    [--listen ADDRESS] [--boards 1-100] [--pairings FILE]``: the view alone; prints the
    page's address (on the hall's network unless ``--listen`` says otherwise)."""
    import argparse

    from hall import pairings as pairings_module
    from hall.accounts import board_numbers

    parser = argparse.ArgumentParser(prog="python -m hall.view")
    parser.add_argument("--broker", default=None, help="the broker (default: the account's)")
    parser.add_argument("--broker-port", type=int, default=None)
    parser.add_argument("--account", required=True, help="JSON with user and password")
    parser.add_argument("--prefix", default=None)
    parser.add_argument("--port", type=int, default=0, help="the page's port")
    parser.add_argument(
        "--listen",
        default=None,
        help="the page's address (default: this computer's on the hall's network)",
    )
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
    try:
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
    except ValueError as error:
        raise SystemExit("hall.view: %s" % error)
    listen = args.listen or hall_address(host, port)
    try:
        address = view.serve(args.port, listen, account.get("arbiter_key"))
    except OSError as error:
        view.close()
        raise SystemExit(
            "hall.view: cannot serve the page on %s:%d: %s" % (listen, args.port, error.strerror)
        )
    print(address, flush=True)
    if account.get("arbiter_key"):
        # once on each of the arbiter's phones: the page keeps the key and drops it from
        # the address; that device then has the arbiter's share of the view
        print("the arbiter's devices: %s#key=%s" % (address, account["arbiter_key"]), flush=True)
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
