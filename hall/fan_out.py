"""One thread writes every open page's event stream (docs/hall.md, "The page's server").

A change wakes this thread once, however many pages are open: it gathers what each
stream has not had yet (``changes``), sends it without blocking, and keeps what a
page did not take for when its socket can take more. A stream with bytes still
pending gathers nothing new: its boards wait in the view's set, one entry per board,
so a slow page holds at most one batch; in the pass its page takes the last of
them, what changed meanwhile is gathered and sent. A page that takes nothing for
``page_server.WRITE_S`` is ended, and so is one whose socket fails; a stream with
nothing to say for ``alive_s`` gets the alive event, and every batch starts with
one: the view's clock as the batch leaves. The handler threads of the
streams only wait for their end.
"""

import selectors
import socket
import threading
import time

from hall import page_server


def alive_event(now):
    """The alive event, with the view's clock (``time.monotonic()``, here in ms): it
    starts every batch, so that a page counts each board's running time from the view's
    instant of its message whenever the batch reached it (hall/page.html: the least
    difference of the clocks seen, a batch that waited is not it)."""
    return b'event: alive\ndata: {"now_ms":%d}\n\n' % int(now * 1000)


class Stream:
    """One page's event stream as the fan-out writes it."""

    def __init__(self, address=None):
        self.address = address
        self.boards = set()  # boards changed since the stream was last written
        self.hall = False  # the view's own state changed
        self.closed = False
        self.ended = threading.Event()  # the handler thread waits on it
        self.sock = None  # set, non-blocking, once the stream's head is written
        self.sending = threading.Lock()  # held while the fan-out sends on ``sock``
        self.pending = b""
        self.took_at = time.monotonic()  # when the page last took bytes or had none waiting
        self.written_at = self.took_at  # when the last bytes went

    def end(self):
        """No byte goes to this stream after this returns."""
        with self.sending:
            self.closed = True
        self.ended.set()


class FanOut:
    """``streams()`` lists the open streams; ``changes(stream)`` returns the bytes the
    stream has not had (and clears its marks); ``signal()`` says something changed."""

    def __init__(self, streams, changes, alive_s):
        self.streams = streams
        self.changes = changes
        self.alive_s = alive_s
        self.wake_read, self.wake_write = socket.socketpair()
        self.wake_read.setblocking(False)
        self.wake_write.setblocking(False)
        self.signalled = False
        self.stopping = False
        self.sends = 0  # the bench and the tests read it
        self.thread = threading.Thread(target=self._run, daemon=True, name="hall-fan-out")

    def start(self):
        self.thread.start()

    def signal(self):
        """Wake the writer (once until it has looked; cheap for every message)."""
        if not self.signalled:
            self.signalled = True
            try:
                self.wake_write.send(b"\0")
            except OSError:
                pass  # a wake byte is already waiting

    def stop(self):
        self.stopping = True
        self.signalled = False
        self.signal()
        if self.thread.is_alive():
            self.thread.join(5)
        self.wake_read.close()
        self.wake_write.close()

    def _run(self):
        selector = selectors.DefaultSelector()
        selector.register(self.wake_read, selectors.EVENT_READ)
        waiting = []
        while not self.stopping:
            timeout = self._write_all(waiting)
            for stream in waiting:
                try:
                    selector.register(stream.sock, selectors.EVENT_WRITE, stream)
                except (ValueError, OSError):
                    stream.end()  # closed meanwhile
            for key, _events in selector.select(max(0.0, timeout)):
                if key.fileobj is self.wake_read:
                    try:
                        while self.wake_read.recv(256):
                            pass
                    except OSError:
                        pass
                    self.signalled = False  # after the drain: a later change sends a new byte
            for stream in waiting:
                try:
                    selector.unregister(stream.sock)
                except (KeyError, ValueError, OSError):
                    pass
        selector.close()

    def _write_all(self, waiting):
        """One pass over the open streams; ``waiting`` becomes those a page has not
        taken everything of. The seconds until the next deadline (alive or stall)."""
        waiting.clear()
        now = time.monotonic()
        timeout = self.alive_s
        for stream in self.streams():
            if stream.closed or stream.sock is None:
                continue
            if stream.pending:  # what the page did not take before: first
                self._send(stream, now)
            if not (stream.closed or stream.pending):
                # All taken: what changed meanwhile (its wake may have come while the
                # page still held bytes, when nothing was gathered for it) goes now.
                changes = self.changes(stream)
                if changes or now - stream.written_at >= self.alive_s:
                    stream.pending = alive_event(time.monotonic()) + changes
                stream.took_at = now
                if stream.pending:
                    self._send(stream, now)
            if stream.closed:
                continue
            if stream.pending:
                waiting.append(stream)
                timeout = min(timeout, page_server.WRITE_S - (now - stream.took_at))
            else:
                timeout = min(timeout, self.alive_s - (now - stream.written_at))
        return timeout

    def _send(self, stream, now):
        with stream.sending:
            if stream.closed:
                return
            try:
                sent = stream.sock.send(stream.pending)
            except BlockingIOError:
                sent = 0
            except OSError:
                sent = -1
            self.sends += 1
        if sent < 0:
            stream.end()  # the page is gone
            return
        if sent:
            stream.pending = stream.pending[sent:]
            stream.took_at = now
            stream.written_at = now
        if stream.pending and now - stream.took_at >= page_server.WRITE_S:
            stream.end()  # the page stopped reading
