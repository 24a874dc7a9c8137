"""Mosquitto's configuration for the hall: the same lines for the tests' broker and a real
hall's (docs/hall.md, "Identity and limits").

- **One identity per account**: every listener replaces the client id a client sends by
  its login (``use_username_as_clientid``), so a login can only ever take over its own
  session: a clock's file cannot knock another board, the view or the arbiter off.
- **Sizes**: ``max_packet_size`` (``MAX_PACKET_BYTES``, the whole packet) is twice the
  largest message the hall reads (the view refuses a payload over 1 KiB,
  ``firmware.hall_decode.MAX_BYTES``; a clock's inbox is 1 KiB whole): a larger packet
  ends its sender's connection and is never kept.
- **Connections**: each listener takes at most its accounts and ``SPARE_CONNECTIONS``
  (``max_connections``: on a fresh broker; Mosquitto 2.0.11 keeps one more than it says
  and frees two places when a connection ends, docs/hall.md), and the broker's
  open-file limit (``open_file_limit``: set by ``hall.broker`` for the tests' broker, by
  the systemd unit ``hall.accounts`` writes for a hall's) is their sum and
  ``SPARE_FILES``: the ceiling that holds, at which the broker stays up. Mosquitto
  closes a socket that never sends CONNECT after 1.5 times its default keepalive
  (60 s): ``CONNECT_DEADLINE_S``; in a hall such a socket never reaches it, since the
  login gate (``hall.gate``) closes it after 8 s.
- **No delay**: ``set_tcp_nodelay``, so each message is sent as it comes rather than
  after the ACK of the one before (a hop's delayed ACK is some 40 ms).
- **TLS** off loopback only: a plain listener is refused anywhere but on loopback
  (development and the broker host's own tools; docs/hall.md says why).
"""

import ipaddress

MAX_PACKET_BYTES = 2048
# Mosquitto 2.0.11 (Debian 12) counts a packet as its type byte and its remaining length,
# without the remaining length's own bytes (measured: with 2048 set, 2050-byte packets
# passed): every packet of 130 to 16,386 bytes has two of them, so 2046 is set to keep
# whole packets at MAX_PACKET_BYTES (tests/test_hall_identity.py, at the limit and past it).
_LENGTH_BYTES = 2
SPARE_CONNECTIONS = 8  # an arbiter's second tool, a view restarting, a bridge's reconnection
SPARE_FILES = 64  # the broker's own: listeners, its log, the password file and the ACL read
KEEPALIVE_MAX_S = 120
CONNECT_DEADLINE_S = 90  # Mosquitto 2.0: 1.5 x 60 s for a socket without CONNECT
TLS_VERSION = "tlsv1.2"


def is_loopback(address):
    """True for 127.0.0.0/8, ::1 and ``localhost``."""
    if address == "localhost":
        return True
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def connection_limit(accounts):
    """``max_connections`` of a listener for ``accounts`` logins."""
    return accounts + SPARE_CONNECTIONS


def open_file_limit(listeners):
    """The broker's open-file limit for ``listeners`` (see ``conf_text``)."""
    return sum(listener[2] for listener in listeners) + SPARE_FILES


def conf_text(passwd, acl, listeners, extra=""):
    """The configuration's text. ``listeners``: ``(port, address, connections, tls)`` with
    ``tls`` None (plain: loopback only, else ValueError) or ``(cafile, certfile, keyfile)``."""
    lines = [
        "per_listener_settings false",
        "allow_anonymous false",
        "password_file %s" % passwd,
        "acl_file %s" % acl,
        "max_packet_size %d" % (MAX_PACKET_BYTES - _LENGTH_BYTES),
        "max_keepalive %d" % KEEPALIVE_MAX_S,
        "persistence false",
        # a message goes on at once, not after the previous one's ACK (Nagle's algorithm
        # held a small message up to the receiver's delayed ACK, some 40 ms a hop)
        "set_tcp_nodelay true",
    ]
    for port, address, connections, tls in listeners:
        if tls is None and not is_loopback(address):
            raise ValueError(
                "a plain listener on %s: MQTT in clear only on loopback; give it TLS" % address
            )
        lines += [
            "",
            "listener %d %s" % (port, address),
            "use_username_as_clientid true",
            "max_connections %d" % connections,
        ]
        if tls is not None:
            cafile, certfile, keyfile = tls
            lines += [
                "cafile %s" % cafile,
                "certfile %s" % certfile,
                "keyfile %s" % keyfile,
                "tls_version %s" % TLS_VERSION,
                "require_certificate false",
            ]
    return "\n".join(lines) + "\n" + extra
