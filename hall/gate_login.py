"""What the hall's login gate (``hall.gate``) reads of MQTT, and which addresses it makes wait.

- ``split_packet``: one whole MQTT packet off the front of the bytes come so far (its
  type byte, its remaining length of 1 to 4 bytes, its body: MQTT 3.1.1 section 2.2,
  MQTT 5 section 2.1), never more than the broker's largest packet
  (``hall.broker_conf.MAX_PACKET_BYTES``);
- ``connect_level``: the protocol level of a CONNECT (3, 4 or 5; a Mosquitto bridge's
  0x80 bit set aside); ValueError for any other packet;
- ``wrong_login``: what the broker's CONNACK says of the login: refused for its user name
  or password (MQTT 3.1.1 return codes 4 and 5; MQTT 5 reason codes 0x86 and 0x87),
  taken, or refused for another reason;
- ``Ledger``: each source address's wrong logins in a row and how long its next login
  waits: ``FREE_REFUSALS`` pass at once, then ``FIRST_WAIT_S`` doubling at each further
  one up to ``MAX_WAIT_S``, counted from the last refusal; a login the broker takes, or
  ``QUIET_S`` without a refusal, clears the address. While an address waits, it has one
  login under way at a time: another is closed at once.
"""

from hall import broker_conf

CONNECT = 0x10
CONNACK = 0x20
MAX_PACKET_BYTES = broker_conf.MAX_PACKET_BYTES
_NAMES = {b"MQTT": (4, 5), b"MQIsdp": (3,)}  # protocol name -> its levels
_BRIDGE_BIT = 0x80  # Mosquitto's bridges set it on the level ("try_private")
REFUSED_V3 = (4, 5)  # bad user name or password, not authorized
REFUSED_V5 = (0x86, 0x87)  # the same, MQTT 5's reason codes

FREE_REFUSALS = 3  # a person mistyping a password, a clock with an old hall file
FIRST_WAIT_S = 1.0
MAX_WAIT_S = 30.0  # a clock's reconnection backs off to 30 s too (hal/hall_link.py)
QUIET_S = 600.0
_PRUNE_AT = 1024  # addresses in the ledger before the old ones are swept out


def split_packet(buffer, limit=MAX_PACKET_BYTES):
    """``(packet, header_bytes)`` taken off the front of ``buffer`` (a bytearray) once
    the packet is whole there, else None. ValueError as soon as its remaining length runs
    over 4 bytes or says a packet over ``limit``: nothing more needs to come first."""
    length, shift, index = 0, 0, 1
    while True:
        if index >= len(buffer):
            return None
        byte = buffer[index]
        length |= (byte & 0x7F) << shift
        index += 1
        if not byte & 0x80:
            break
        shift += 7
        if shift > 21:
            raise ValueError("a remaining length of more than 4 bytes")
    if index + length > limit:
        raise ValueError("a packet of %d bytes, over %d" % (index + length, limit))
    if len(buffer) < index + length:
        return None
    packet = bytes(buffer[: index + length])
    del buffer[: index + length]
    return packet, index


def connect_level(packet, header_bytes):
    """The protocol level of ``packet`` if it is a CONNECT; ValueError otherwise."""
    if packet[0] != CONNECT:
        raise ValueError("the first packet is of type %d, not CONNECT" % (packet[0] >> 4))
    body = packet[header_bytes:]
    if len(body) < 2:
        raise ValueError("a CONNECT without a protocol name")
    size = int.from_bytes(body[:2], "big")
    name, rest = body[2 : 2 + size], body[2 + size :]
    if not rest or rest[0] & ~_BRIDGE_BIT not in _NAMES.get(name, ()):
        raise ValueError("a CONNECT of an unknown protocol %r" % bytes(name[:8]))
    return rest[0] & ~_BRIDGE_BIT


def wrong_login(packet, header_bytes, level):
    """The CONNACK ``packet``: True if it refuses the login for its user name or password,
    False if it takes it, None if it refuses it for another reason (a full broker, an
    unknown protocol: not a guess). ValueError for any other packet."""
    body = packet[header_bytes:]
    if packet[0] != CONNACK or len(body) < 2:
        raise ValueError("the broker answered CONNECT with something else than CONNACK")
    if body[1] == 0:
        return False
    return True if body[1] in (REFUSED_V5 if level == 5 else REFUSED_V3) else None


class Ledger:
    """The wrong logins of each source address (times in seconds of one monotonic clock)."""

    def __init__(self, free=FREE_REFUSALS, first_s=FIRST_WAIT_S, max_s=MAX_WAIT_S, quiet_s=QUIET_S):
        if not (free >= 0 and 0 < first_s <= max_s and quiet_s > 0):
            raise ValueError("the back-off: free >= 0, 0 < first <= max, quiet > 0")
        self.free, self.first_s, self.max_s, self.quiet_s = free, first_s, max_s, quiet_s
        self._refusals = {}  # address -> (wrong logins in a row, when the last was)
        self._under_way = {}  # address -> its logins between begin and end

    def refusals(self, address, now):
        """Wrong logins in a row ``address`` made, the old ones forgotten."""
        entry = self._refusals.get(address)
        if entry is None:
            return 0
        if now - entry[1] >= self.quiet_s:
            del self._refusals[address]
            return 0
        return entry[0]

    def wait_s(self, address, now):
        """How long from ``now`` a login of ``address`` waits before it reaches the broker."""
        count = self.refusals(address, now)
        if count < self.free:
            return 0.0
        wait = min(self.first_s * 2 ** min(count - self.free, 32), self.max_s)
        return max(0.0, self._refusals[address][1] + wait - now)

    def begin(self, address, now):
        """A login of ``address`` arrives: the seconds it waits, or None (closed at once:
        the address waits and has a login under way already)."""
        if self.refusals(address, now) >= self.free and self._under_way.get(address):
            return None
        self._under_way[address] = self._under_way.get(address, 0) + 1
        return self.wait_s(address, now)

    def end(self, address, refused, now):
        """The broker answered the login ``begin`` let through: ``refused`` True (a wrong
        user name or password), False (taken: the address starts afresh) or None (no
        answer, or refused for another reason: its record stays as it was)."""
        left = self._under_way.get(address, 0) - 1
        if left > 0:
            self._under_way[address] = left
        else:
            self._under_way.pop(address, None)
        if refused:
            self._refusals[address] = (self.refusals(address, now) + 1, now)
            if len(self._refusals) > _PRUNE_AT:
                self._prune(now)
        elif refused is False:
            self._refusals.pop(address, None)

    def _prune(self, now):
        for address in [a for a, (_, at) in self._refusals.items() if now - at >= self.quiet_s]:
            del self._refusals[address]
