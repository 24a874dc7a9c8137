"""The page's event stream read as a page reads it, for the hall's latency figures.

``EventReader`` opens ``pages`` event streams (``/events``) of the view and notes
when each board's message (board, seq) reached each page: the instant the kernel
received the read's last bytes (``SO_TIMESTAMPNS``), so that the reader's own wait
for a core is not counted as the hall's.
"""

import json
import re
import socket
import sys
import threading
import time

# A board's event as the view writes it (hall.boards ``snapshot``, the clock's message
# in its own order: firmware/hall_message.py).
_BOARD_AND_SEQ = re.compile(
    rb'data: \{"board": (\d+), "message": \{"v": \d+, "board": \d+, "seq": (\d+)'
)


_STAMP_SPACE = socket.CMSG_SPACE(16)  # struct timespec: two 64-bit fields
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)  # Linux's, which Python does not name
_REALTIME_TO_MONOTONIC = time.time() - time.monotonic()


def _arrival(ancillary):
    """The monotonic instant the kernel received a read's last bytes (SO_TIMESTAMPNS, on
    the real-time clock, taken to the monotonic one), or now when there is no stamp."""
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(data) >= 16:
            seconds = int.from_bytes(data[:8], sys.byteorder, signed=True)
            nanoseconds = int.from_bytes(data[8:16], sys.byteorder, signed=True)
            return seconds + nanoseconds / 1e9 - _REALTIME_TO_MONOTONIC
    return time.monotonic()


class EventReader(threading.Thread):
    """Reads ``pages`` event streams of the page (``/events``) in one thread, stamping each
    read as it returns: ``arrived[page]`` notes when each (board, seq) reached that page.
    One thread for all of them, so that 16 readers do not wait for one another's turn
    at the interpreter and count it as the view's latency."""

    def __init__(self, port, pages=1):
        super().__init__(daemon=True)
        import selectors

        self.selector = selectors.DefaultSelector()
        self.arrived = []
        self.buffers = []
        self.socks = []
        for page in range(pages):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            # the kernel stamps each read with the instant its last bytes arrived: this
            # reader's own wait for a core is not the hall's
            sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
            sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ, page)
            self.socks.append(sock)
            self.arrived.append({})
            self.buffers.append(b"")
        self.running = True

    def run(self):
        while self.running:
            for key, _events in self.selector.select(0.5):
                try:
                    data, ancillary, _flags, _address = key.fileobj.recvmsg(262144, _STAMP_SPACE)
                except OSError:
                    continue
                now = _arrival(ancillary)
                if not data:
                    self.selector.unregister(key.fileobj)
                    continue
                self._read(key.data, self.buffers[key.data] + data, now)

    def _read(self, page, buffer, now):
        """Note each whole event of ``buffer``; the board and the seq are found by a
        pattern (JSON decoded only for an event it does not fit), so that reading 16
        pages costs this process little beside the view it measures."""
        arrived = self.arrived[page]
        end = buffer.rfind(b"\n\n")
        if end < 0:
            self.buffers[page] = buffer
            return
        whole = buffer[:end]
        self.buffers[page] = buffer[end + 2 :]
        found = 0
        for match in _BOARD_AND_SEQ.finditer(whole):
            arrived.setdefault((int(match.group(1)), int(match.group(2))), now)
            found += 1
        if found != whole.count(b"data: {"):  # an event the pattern does not fit
            for line in whole.split(b"\n"):
                if line.startswith(b"data: "):
                    entry = json.loads(line[6:])
                    message = entry.get("message")
                    if isinstance(message, dict) and "seq" in message:
                        arrived.setdefault((entry["board"], message["seq"]), now)

    def close(self):
        self.running = False
        self.join(2)
        for sock in self.socks:
            sock.close()
