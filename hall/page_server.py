"""The view's web server: fair to every page, and no client can hold it (docs/hall.md,
"The page's server").

- **Reads bounded before they happen**: a request's head (request line and headers) is
  read from the socket by this module, never more than ``MAX_LINE`` bytes for the line
  (414 past it) and ``MAX_HEADERS`` for the headers (431), and only until
  ``HEAD_S`` after the connection came or its last answer went: a connection that
  sends nothing, or trickles, is answered 408 and closed then.
- **Shares**: at most ``MAX_CONNECTIONS`` connections, ``CLIENT_CONNECTIONS`` of
  them from one address (more: 503 and closed at once); at most ``MAX_STREAMS``
  event streams, ``CLIENT_STREAMS`` of them from one address. When every stream is
  taken, a new client's page gets one all the same: the oldest stream of the address
  holding the most (if it holds more than the newcomer would) is ended, and that page
  reconnects as the stream's ``retry`` says.
- **Writes bounded**: a page that stops reading is closed after ``WRITE_S``.
- **Refusals**: 503 carries ``Retry-After`` (seconds) and ``Cache-Control: no-store``;
  the event stream sends ``retry: RETRY_MS`` first, so a page's ``EventSource``
  reconnects after that long.
"""

import hmac
import io
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_LINE = 1024
MAX_HEADERS = 8192
HEAD_S = 10  # the whole head must come within this (an idle keep-alive is closed then too)
WRITE_S = 10  # a write the page does not take in this long closes its connection
MAX_CONNECTIONS = 256
CLIENT_CONNECTIONS = 32  # a wall screen's 16 pages, their streams and their reloads
MAX_STREAMS = 64
CLIENT_STREAMS = 16
# The arbiter's own devices (a request with the hall's arbiter key: ``KEY_HEADER``) have
# a share of their own inside the totals, which no spectator can take: an address that
# showed the key is the arbiter's for ``ARBITER_KNOWN_S`` and its connections are taken
# into the reserve as they come, before their head is read.
ARBITER_CONNECTIONS = 32
ARBITER_STREAMS = 8
ARBITER_KNOWN_S = 12 * 3600  # a round's day
KEY_HEADER = "X-Hall-Key"
RETRY_AFTER_S = 5
RETRY_MS = 3000
_BODY_MAX = 65536  # a refused request's body read before the 405 (a larger one: reset)


class Shares:
    """Who holds what: connections and event streams per client address."""

    def __init__(self, reserve=False):
        self.lock = threading.Lock()
        self.reserve = reserve  # the arbiter's share is kept (the view has its key)
        self.connections = {}  # address -> count (spectators')
        self.streams = {}  # address -> [stream, ...], oldest first (spectators')
        self.arbiter_addresses = {}  # address -> when it last showed the arbiter's key
        self.arbiter_connections = 0
        self.arbiter_streams = []
        self.refused = 0

    def know_arbiter(self, address):
        """``address`` showed the arbiter's key: its connections go to the reserve."""
        with self.lock:
            self.arbiter_addresses[address] = time.monotonic()

    def is_arbiter(self, address):
        with self.lock:
            return self._arbiter(address)

    def _arbiter(self, address):
        seen = self.arbiter_addresses.get(address)
        if seen is not None and time.monotonic() - seen > ARBITER_KNOWN_S:
            del self.arbiter_addresses[address]
            return False
        return seen is not None

    def connect(self, address):
        """Admit a connection from ``address``: ``"arbiter"`` (the reserve), ``"spectator"``,
        or False (refused)."""
        with self.lock:
            if self._arbiter(address) and self.arbiter_connections < ARBITER_CONNECTIONS:
                self.arbiter_connections += 1
                return "arbiter"
            count = self.connections.get(address, 0)
            spectators = MAX_CONNECTIONS - (ARBITER_CONNECTIONS if self.reserve else 0)
            if count >= CLIENT_CONNECTIONS or sum(self.connections.values()) >= spectators:
                self.refused += 1
                return False
            self.connections[address] = count + 1
            return "spectator"

    def disconnect(self, address, share="spectator"):
        with self.lock:
            if share == "arbiter":
                self.arbiter_connections -= 1
                return
            count = self.connections.get(address, 0) - 1
            if count > 0:
                self.connections[address] = count
            else:
                self.connections.pop(address, None)

    def open_stream(self, address, stream, arbiter=False):
        """Admit ``stream`` for ``address`` (``arbiter``: a request with the arbiter's key,
        into the reserve); the stream it displaced (ended), or False when refused."""
        with self.lock:
            if arbiter:
                displaced = None
                if len(self.arbiter_streams) >= ARBITER_STREAMS:
                    displaced = self.arbiter_streams.pop(0)  # the arbiter's oldest page
                self.arbiter_streams.append(stream)
                return displaced
            held = self.streams.setdefault(address, [])
            if len(held) >= CLIENT_STREAMS:
                self.refused += 1
                return False
            displaced = None
            spectators = MAX_STREAMS - (ARBITER_STREAMS if self.reserve else 0)
            if sum(len(streams) for streams in self.streams.values()) >= spectators:
                greedy = max(self.streams, key=lambda other: len(self.streams[other]))
                if len(self.streams[greedy]) <= len(held) + 1:
                    self.refused += 1
                    return False
                displaced = self.streams[greedy].pop(0)
            held.append(stream)
            return displaced

    def close_stream(self, address, stream):
        with self.lock:
            if stream in self.arbiter_streams:
                self.arbiter_streams.remove(stream)
                return
            held = self.streams.get(address, [])
            if stream in held:
                held.remove(stream)
            if not held:
                self.streams.pop(address, None)

    def stream_count(self):
        with self.lock:
            spectators = sum(len(streams) for streams in self.streams.values())
            return spectators + len(self.arbiter_streams)


class _Refused(Exception):
    """The head cannot be read: answer ``status`` (None: close without a word)."""

    def __init__(self, status, reason):
        Exception.__init__(self, reason)
        self.status = status
        self.reason = reason


class Server(ThreadingHTTPServer):
    """A thread per connection, within the shares; ``log`` says what failed."""

    daemon_threads = True
    request_queue_size = 64

    def __init__(self, address, handler, log, arbiter_key=None):
        self.shares = Shares(reserve=arbiter_key is not None)
        self.log = log
        self.arbiter_key = arbiter_key  # None: no reserve (every device a spectator)
        self.share_of = {}  # id of a connection's socket -> its share
        ThreadingHTTPServer.__init__(self, address, handler)

    def has_arbiter_key(self, text):
        key = self.arbiter_key
        return bool(key) and hmac.compare_digest(text.encode(), key.encode())

    def process_request(self, request, client_address):
        share = self.shares.connect(client_address[0])
        self.share_of[id(request)] = share
        if not share:
            self.share_of.pop(id(request), None)
            try:
                request.setblocking(False)
                request.send(
                    b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: %d\r\n"
                    b"Content-Length: 0\r\nConnection: close\r\n\r\n" % RETRY_AFTER_S
                )
            except OSError:
                pass
            self.shutdown_request(request)
            return
        ThreadingHTTPServer.process_request(self, request, client_address)

    def process_request_thread(self, request, client_address):
        try:
            ThreadingHTTPServer.process_request_thread(self, request, client_address)
        finally:
            share = self.share_of.pop(id(request), "spectator")
            self.shares.disconnect(client_address[0], share)

    def handle_error(self, request, client_address):
        error = sys.exc_info()[1]
        self.log(
            "a request from %s failed: %s: %s" % (client_address[0], type(error).__name__, error)
        )


class Handler(BaseHTTPRequestHandler):
    """Reads a head within bounds, then ``answer()`` (a subclass's) for GET; 405 else."""

    protocol_version = "HTTP/1.1"
    timeout = HEAD_S

    def log_message(self, *args):
        pass

    def setup(self):
        BaseHTTPRequestHandler.setup(self)
        # each event goes as written: a page sends nothing back to carry an early ACK,
        # and Nagle's algorithm would hold the next event for its delayed one (~40 ms)
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.pending = b""  # bytes read past the last head

    def _read_head(self):
        """The head's bytes (line, headers and the blank line), read within ``HEAD_S``
        and the limits, never more than ``limit + 1`` bytes; None when the client closed
        before a byte."""
        deadline = time.monotonic() + HEAD_S
        data = self.pending
        limit = MAX_LINE + 2 + MAX_HEADERS + 2
        while True:
            line_end = data.find(b"\n")
            line = data if line_end < 0 else data[:line_end]
            if len(line[:-1] if line.endswith(b"\r") else line) > MAX_LINE:
                raise _Refused(414, "request line over %d bytes" % MAX_LINE)
            if line_end >= 0:
                block = data[line_end + 1 :]
                if block.startswith(b"\r\n"):
                    end = 0  # no headers
                else:
                    end = block.find(b"\r\n\r\n")
                    end = end + 2 if end >= 0 else -1  # the headers with their CRLFs
                if end >= 0:
                    if end > MAX_HEADERS:
                        raise _Refused(431, "headers over %d bytes" % MAX_HEADERS)
                    self.pending = block[end + 2 :]
                    return data[: line_end + 1 + end + 2]
                partial = 1 if block.endswith(b"\n\r") else 0  # the blank line's start
                if len(block) - partial > MAX_HEADERS:
                    raise _Refused(431, "headers over %d bytes" % MAX_HEADERS)
            left = deadline - time.monotonic()
            if left <= 0:
                raise _Refused(408 if data else None, "no whole request in %d s" % HEAD_S)
            self.connection.settimeout(left)
            try:
                chunk = self.connection.recv(max(1, min(4096, limit + 1 - len(data))))
            except TimeoutError:
                raise _Refused(408 if data else None, "no whole request in %d s" % HEAD_S)
            except OSError:
                raise _Refused(None, "reset")
            if not chunk:
                if data:
                    raise _Refused(None, "closed in the middle of a request")
                return None
            data += chunk

    def handle_one_request(self):
        """One request, read within bounds; GET alone is answered."""
        self.close_connection = True
        try:
            head = self._read_head()
        except _Refused as refused:
            if refused.status is not None:
                self._error(refused.status, refused.reason)
            return
        if head is None:
            return
        line, _, headers = head.partition(b"\n")
        self.raw_requestline = line + b"\n"
        self.rfile = io.BytesIO(headers)  # parse_request reads the headers from here
        self.connection.settimeout(WRITE_S)
        self.close_connection = False
        if not self.parse_request():
            self.close_connection = True
            return
        self.arbiter = self.server.has_arbiter_key(self.headers.get(KEY_HEADER, ""))
        if self.arbiter:
            self.server.shares.know_arbiter(self.client_address[0])
        if self.command == "GET":
            self.answer()
        else:
            self._refuse()
        self.wfile.flush()

    def _error(self, status, reason):
        self.requestline = ""
        self.request_version = "HTTP/1.1"
        self.command = None
        self.connection.settimeout(WRITE_S)
        try:
            self.send_error(status, reason)
        except OSError:
            pass
        self.close_connection = True

    def send(self, status, kind, body, extra=()):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def busy(self, why):
        """503 with Retry-After: the page tries again then."""
        self.close_connection = True
        self.send(503, "text/plain", (why + "\n").encode(), [("Retry-After", str(RETRY_AFTER_S))])

    def _refuse(self):
        """405 with ``Allow: GET``. A body the request announces (up to ``_BODY_MAX``) is
        read first, within ``HEAD_S``: a connection closed with bytes unread is reset,
        and the client would lose the answer."""
        text = self.headers.get("Content-Length", "0").strip()
        if text.isascii() and text.isdigit() and 0 < int(text) <= _BODY_MAX:
            wanted = int(text) - len(self.pending)
            deadline = time.monotonic() + HEAD_S
            while wanted > 0 and time.monotonic() < deadline:
                self.connection.settimeout(max(0.01, deadline - time.monotonic()))
                try:
                    chunk = self.connection.recv(min(wanted, 65536))
                except OSError:
                    break
                if not chunk:
                    break
                wanted -= len(chunk)
            self.connection.settimeout(WRITE_S)
        self.close_connection = True
        self.send(405, "text/plain", b"the hall view reads only: GET\n", [("Allow", "GET")])

    def answer(self):
        self.send(404, "text/plain", b"not found\n")
