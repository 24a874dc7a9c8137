"""A TCP connection as ``hal.mqtt``'s stream: non-blocking from the connect on.

``resolve(host, port)`` is the one call that may wait (DNS): the link makes it
once, outside a game, and not at all for an address written as numbers.
``SocketStream(address)`` starts a non-blocking connect (``EINPROGRESS`` is
"not yet"); ``ready`` asks ``select.poll`` at zero timeout, ``readinto`` and
``write`` move what the socket has or takes at once. On MicroPython the socket's
own ``readinto(buffer, count)`` and ``write(buffer, start, count)`` and
``poll.ipoll`` allocate nothing; CPython (the simulator) has ``recv_into``,
``send`` and ``poll``. ``socket`` is imported where a connection starts: the
MicroPython lane of the tests (WebAssembly) has none and scripts the stream.
"""

import errno
import select

from hal.mqtt import BROKEN, READABLE, WRITABLE

_GONE = select.POLLERR | select.POLLHUP | getattr(select, "POLLNVAL", 0)
_NOT_YET = (errno.EINPROGRESS, errno.EAGAIN, getattr(errno, "EWOULDBLOCK", errno.EAGAIN))


def resolve(host, port):
    """The socket address of ``host`` (a name is looked up: this may wait)."""
    import socket

    return socket.getaddrinfo(host, port, 0, socket.SOCK_STREAM)[0][-1]


class SocketStream:
    """One non-blocking TCP connection to ``address``."""

    def __init__(self, address):
        import socket

        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        nodelay = getattr(socket, "TCP_NODELAY", None)
        if nodelay is not None:  # a message's later parts do not wait for the first's ACK
            sock.setsockopt(socket.IPPROTO_TCP, nodelay, 1)
        sock.setblocking(False)
        try:
            sock.connect(address)
        except OSError as error:
            if error.args[0] not in _NOT_YET:
                sock.close()
                raise
        self.sock = sock
        self.poller = select.poll()
        self.poller.register(sock, select.POLLIN | select.POLLOUT)
        self.micropython = hasattr(self.poller, "ipoll")
        self.view = None

    def ready(self):
        flags = 0
        if self.micropython:
            for _sock, events in self.poller.ipoll(0):
                flags = events
        else:
            for _fd, events in self.poller.poll(0):
                flags = events
        ready = 0
        if flags & select.POLLIN:
            ready |= READABLE
        if flags & select.POLLOUT:
            ready |= WRITABLE
        if flags & _GONE:
            ready |= BROKEN | READABLE
        return ready

    def readinto(self, buffer, count):
        if self.micropython:
            read = self.sock.readinto(buffer, count)
            if read is None:
                return 0  # nothing after all
        else:
            try:
                read = self.sock.recv_into(buffer, count)
            except BlockingIOError:
                return 0
        if read == 0:
            raise OSError(errno.ECONNRESET)  # the broker closed the connection
        return read

    def write(self, buffer, start, count):
        if self.micropython:
            return self.sock.write(buffer, start, count) or 0
        if self.view is None or self.view.obj is not buffer:
            self.view = memoryview(buffer)
        try:
            return self.sock.send(self.view[start : start + count])
        except BlockingIOError:
            return 0

    def close(self):
        try:
            self.poller.unregister(self.sock)
        except (OSError, KeyError, ValueError):
            pass
        self.sock.close()
