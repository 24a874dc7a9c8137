"""Raw MQTT 3.1.1 packets over plain sockets, for the hall's tests and bench: each
packet written from the specification (section 3.1 CONNECT, 3.3 PUBLISH, 2.2.3 the
remaining length), so that a caller controls exactly what a broker receives and sees
exactly when it closes a connection."""

import socket
import time


def _text(data):
    return len(data).to_bytes(2, "big") + data


def _length(count):
    """The remaining length: 7 bits a byte, the high bit saying that another follows."""
    out = bytearray()
    while True:
        byte, count = count % 128, count // 128
        out.append(byte | (0x80 if count else 0))
        if not count:
            return bytes(out)


def connect_packet(client_id, user, password, will=None, keepalive_s=30, level=4):
    """A CONNECT of MQTT 3.1.1 (``level`` 4) or MQTT 5 (5: no properties)."""
    flags = 0xC2  # user name, password, clean session
    payload = _text(client_id)
    if will is not None:
        flags |= 0x24  # a will, retained, QoS 0
        payload += _text(will[0]) + _text(will[1])
    payload += _text(user) + _text(password)
    properties = b"\x00" if level == 5 else b""
    body = _text(b"MQTT") + bytes([level, flags]) + keepalive_s.to_bytes(2, "big") + properties
    body += payload
    return bytes([0x10]) + _length(len(body)) + body


def publish_packet(topic, payload, retain=False):
    body = _text(topic) + payload
    return bytes([0x30 | (1 if retain else 0)]) + _length(len(body)) + body


def read_connack(sock):
    """The broker's answer to a CONNECT: its four bytes, or fewer where the connection
    closed first (its return code is the last)."""
    answer = b""
    while len(answer) < 4:
        chunk = sock.recv(4 - len(answer))
        if not chunk:
            break
        answer += chunk
    return answer


def session(broker, user, client_id, will=None, password=None):
    """A socket logged in as ``user`` with ``client_id``; the CONNACK's return code."""
    sock = socket.create_connection((broker.host, broker.port), timeout=5)
    secret = broker.passwords[user] if password is None else password
    sock.sendall(connect_packet(client_id.encode(), user.encode(), secret.encode(), will))
    answer = read_connack(sock)
    if answer[:2] != b"\x20\x02":
        sock.close()
        raise OSError("no CONNACK from the broker: %r" % answer)
    return sock, answer[3]


def closed_within(sock, seconds):
    """True if the broker closes ``sock`` within ``seconds`` (anything it sends is read)."""
    sock.settimeout(0.05)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if sock.recv(4096) == b"":
                return True
        except TimeoutError:
            continue
        except OSError:
            return True
    return False


# --- the page server's side: HTTP requests from a chosen loopback address --------------


def http_connect(address, source, timeout=5):
    """A socket to the page server at ``address``, from the loopback address ``source``
    (127.0.0.x: one "device" of the room each); ``timeout`` bounds a hang."""
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(timeout)
    sock.connect(address)
    return sock


def http_answer(sock):
    """The answer's status code and its head's bytes, read until the head ends or the
    server closes: ``(None, b"")`` where it closed without a word."""
    data = b""
    while b"\r\n\r\n" not in data:
        try:
            chunk = sock.recv(4096)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    if not data:
        return None, b""
    return int(data.split(b" ", 2)[1]), data


def http_status(sock):
    """The answer's status code (None: closed without one)."""
    return http_answer(sock)[0]


def http_get(address, source, path, key=None):
    """GET ``path`` from ``source``, with the arbiter's ``key`` if given: (the socket, kept
    open for a stream, and the status code)."""
    from hall.page_server import KEY_HEADER

    sock = http_connect(address, source)
    head = "GET %s HTTP/1.1\r\nHost: x\r\n" % path
    if key is not None:
        head += "%s: %s\r\n" % (KEY_HEADER, key)
    sock.sendall((head + "\r\n").encode())
    return sock, http_status(sock)
