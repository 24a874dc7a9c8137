"""A TLS connection as ``hal.mqtt``'s stream: the hall's CA checks the broker, nothing waits.

``TlsStream(address, ca, server_name)`` starts a non-blocking TCP connect as
``hal.net_stream.SocketStream`` does; once the socket is connected, each ``ready()``
moves the handshake on by one non-blocking step and reports nothing (neither
readable nor writable) until it is done, so ``hal.mqtt`` queues its CONNECT and waits
for its CONNACK (``ANSWER_MS``) as over TCP. The broker's certificate must be signed
by ``ca`` (the hall file's PEM, ``firmware.hall_settings``) and name ``server_name``;
anything else ends the connection (``BROKEN``).

The handshake's arithmetic (ECDHE and ECDSA on P-256) takes the processor for a while
within one step: ``hal.hall_link`` starts a TLS connection only while the clock
stands, and drops one that has not finished its handshake when a clock starts.

The CA goes to ``ssl`` as DER (``ca_der``): MicroPython's mbedTLS is built without
PEM parsing (``MBEDTLS_PEM_PARSE_C`` is not in its extmod/mbedtls configuration), so
the hall file's PEM text is refused there ("invalid cert"); CPython takes either.

On MicroPython (``ssl`` on mbedTLS) the socket is wrapped at once with
``do_handshake_on_connect=False``. Its sockets have no ``do_handshake``, and its
streams never hand a write of nothing to mbedTLS, so the handshake runs inside the
first reads and writes (``hal.mqtt``'s CONNECT), one non-blocking step a call, each
moving nothing (``None``) until it is done; a certificate the CA did not sign or that
names another host raises ``ValueError`` there, taken as a broken connection (an
``OSError``). ``hal.hall_link`` sees the handshake as the time before the CONNACK.
On CPython (the simulator, ``ssl`` on OpenSSL) it is wrapped once connected and
``do_handshake`` is called until it stops asking for more. Reading and writing go
through the wrapped socket as in ``SocketStream``.
"""

import binascii
import errno
import select

from hal.mqtt import BROKEN, READABLE, WRITABLE
from hal.net_stream import SocketStream

_BEGIN = "-----BEGIN CERTIFICATE-----"
_END = "-----END CERTIFICATE-----"


def ca_der(pem):
    """The DER of each certificate of the PEM text ``pem``, in order."""
    ders = []
    at = pem.find(_BEGIN)
    while at >= 0:
        end = pem.find(_END, at)
        if end < 0:
            raise ValueError("a certificate without its END line")
        body = "".join(pem[at + len(_BEGIN) : end].split())
        ders.append(binascii.a2b_base64(body))
        at = pem.find(_BEGIN, end)
    if not ders:
        raise ValueError("no certificate in the CA")
    return ders


class TlsStream(SocketStream):
    """One TLS connection to ``address``, checked against the hall's CA."""

    def __init__(self, address, ca, server_name):
        SocketStream.__init__(self, address)
        import ssl

        self.ssl = ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.verify_mode = ssl.CERT_REQUIRED
        for der in ca_der(ca):
            context.load_verify_locations(cadata=der)
        self.context = context
        self.server_name = server_name
        self.secured = False
        self.tcp = self.sock
        if self.micropython:
            self._wrap()
            self.secured = True  # the handshake runs in the first reads and writes

    def _wrap(self):
        self.sock = self.context.wrap_socket(
            self.tcp,
            server_side=False,
            do_handshake_on_connect=False,
            server_hostname=self.server_name,
        )
        if self.micropython:
            self.poller.unregister(self.tcp)
            self.poller.register(self.sock, select.POLLIN | select.POLLOUT)

    def ready(self):
        ready = SocketStream.ready(self)
        if self.secured:
            if not self.micropython and self.sock.pending():
                ready |= READABLE  # decrypted bytes wait inside the TLS layer
            return ready
        if ready & BROKEN:
            return BROKEN
        if not ready & (READABLE | WRITABLE):
            return 0  # the TCP connect or the broker's next handshake message: not yet
        try:
            self._step()
        except OSError as error:
            if error.args and error.args[0] in (errno.EAGAIN, errno.EINPROGRESS):
                return 0
            return BROKEN  # a certificate the hall's CA did not sign, a wrong name, a reset
        return WRITABLE if self.secured else 0

    def _step(self):
        """One non-blocking step of the handshake (sets ``secured`` when it is done);
        CPython only."""
        if self.sock is self.tcp:
            self._wrap()
        try:
            self.sock.do_handshake()
        except (self.ssl.SSLWantReadError, self.ssl.SSLWantWriteError):
            return
        self.secured = True

    def readinto(self, buffer, count):
        if self.micropython:
            try:
                return SocketStream.readinto(self, buffer, count)
            except ValueError:  # mbedTLS refused the broker's certificate
                raise OSError(errno.ECONNABORTED)
        try:
            read = self.sock.recv_into(buffer, count)
        except (self.ssl.SSLWantReadError, self.ssl.SSLWantWriteError):
            return 0
        if read == 0:
            raise OSError(errno.ECONNRESET)
        return read

    def write(self, buffer, start, count):
        if not self.secured:
            return 0
        if self.micropython:
            try:
                return SocketStream.write(self, buffer, start, count)
            except ValueError:  # mbedTLS refused the broker's certificate
                raise OSError(errno.ECONNABORTED)
        if self.view is None or self.view.obj is not buffer:
            self.view = memoryview(buffer)
        try:
            return self.sock.send(self.view[start : start + count])
        except (self.ssl.SSLWantReadError, self.ssl.SSLWantWriteError):
            return 0

    def close(self):
        try:
            self.poller.unregister(self.sock)
        except (OSError, KeyError, ValueError):
            pass
        try:
            self.sock.close()
        finally:
            if self.tcp is not self.sock:
                self.tcp.close()
