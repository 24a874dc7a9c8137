"""The MQTT client's limits (hal/mqtt.py) at the limit and one past it: a remaining
length of four bytes and not five (MQTT 3.1.1, 2.2.3), a PUBLISH of exactly the
inbox's size and one byte more, and a SUBACK's return code 0x80, a refusal (3.9.3);
and its times (docs/hall.md), each acted on at its bound and not a millisecond before:
a queue the socket takes nothing of for 5 s is lost, 20 s of silence send a ping, an
answer 5 s late loses the link.

Each of these was a surviving mutation of the core (issue 36): the tests before
sent only far larger packets or asserted no exception."""

from hal import mqtt


class Stream:
    """A scripted stream: the broker's bytes ``incoming``, ``per_read`` a call."""

    def __init__(self, incoming, per_read=48):
        self.incoming = bytearray(incoming)
        self.per_read = per_read
        self.written = bytearray()

    def ready(self):
        return mqtt.WRITABLE | (mqtt.READABLE if self.incoming else 0)

    def readinto(self, buffer, count):
        count = min(count, self.per_read, len(self.incoming))
        buffer[0:count] = self.incoming[0:count]
        del self.incoming[0:count]
        return count

    def write(self, buffer, start, count):
        self.written.extend(buffer[start : start + count])
        return count

    def close(self):
        pass


INBOX = 64
CONNACK = b"\x20\x02\x00\x00"


def up_client(incoming):
    """A client whose CONNACK came, then ``incoming`` waits on its stream."""
    client = mqtt.Client(b"clock-4", b"clock-4", b"pw", 60, inbox=INBOX)
    client.open(Stream(CONNACK + incoming), 0, b"hall/board/4/status", b"offline")
    assert events(client, 1) == [mqtt.CONNECTED]
    return client


def events(client, count, polls=200):
    """The first ``count`` events other than IDLE the client's polls give."""
    seen = []
    for now in range(0, polls * 10, 10):
        event = client.poll(now)
        if event != mqtt.IDLE:
            seen.append(event)
            if len(seen) == count or event == mqtt.LOST:
                break
    return seen


def publish(topic, payload, length_bytes=None):
    """A QoS 0 PUBLISH; ``length_bytes``: its remaining length encoded on that many
    bytes (continuation bytes of 0 value, as 2.2.3's algorithm reads them)."""
    body = bytes([0, len(topic)]) + topic + payload
    length = len(body)
    digits = []
    while True:
        digit = length & 0x7F
        length >>= 7
        digits.append(digit)
        if not length:
            break
    if length_bytes is not None:
        digits += [0] * (length_bytes - len(digits))
    encoded = bytes([digit | 0x80 for digit in digits[:-1]] + [digits[-1]])
    return b"\x30" + encoded + body


def test_a_remaining_length_of_four_bytes_is_read():
    client = up_client(publish(b"t", b"ok", length_bytes=4))
    assert events(client, 1) == [mqtt.MESSAGE]
    assert client.topic_is(b"t") and client.payload() == b"ok"


def test_a_fifth_remaining_length_byte_ends_the_connection():
    client = up_client(publish(b"t", b"ok", length_bytes=5))
    assert events(client, 1) == [mqtt.LOST]
    assert client.reason == "garbage" and client.state == mqtt.DOWN


def test_a_publish_of_exactly_the_inbox_size_is_delivered_whole():
    payload = bytes(range(INBOX - 3))  # 2 bytes of topic length, 1 of topic
    packet = publish(b"t", payload)
    assert packet[1] == INBOX  # the remaining length is the inbox's size
    client = up_client(packet)
    assert events(client, 1) == [mqtt.MESSAGE]
    assert client.payload() == payload and client.oversized == 0


def test_a_publish_one_byte_over_the_inbox_is_skipped_and_the_next_read():
    packet = publish(b"t", bytes(INBOX - 2))
    assert packet[1] == INBOX + 1
    client = up_client(packet + publish(b"t", b"next"))
    assert events(client, 1) == [mqtt.MESSAGE]
    assert client.oversized == 1 and client.payload() == b"next" and client.up()


def subscribed(return_code):
    """A client that subscribed and got a SUBACK (packet id 1) with ``return_code``."""
    client = up_client(b"")
    assert client.subscribe(b"hall/settings", 0)
    client.stream.incoming.extend(bytes([0x90, 0x03, 0x00, 0x01, return_code]))
    return client


def test_a_suback_granting_qos_0_is_a_subscription():
    client = subscribed(0x00)
    assert events(client, 1) == [mqtt.SUBSCRIBED] and client.up()


def test_a_suback_of_0x80_is_a_refusal_and_ends_the_connection():
    client = subscribed(0x80)
    assert events(client, 1) == [mqtt.LOST]
    assert client.reason == "refused" and client.state == mqtt.DOWN


# --- the client's times (hal/mqtt.py, docs/hall.md): each at its bound, not 1 ms before


class Refusing(Stream):
    """A stream whose socket takes nothing while ``refusing``."""

    refusing = False

    def write(self, buffer, start, count):
        return 0 if self.refusing else super().write(buffer, start, count)


def up_at_0(stream):
    """A client whose CONNACK came in its first poll, at 0 (the broker last heard then)."""
    client = mqtt.Client(b"clock-4", b"clock-4", b"pw", 60, inbox=INBOX)
    stream.incoming.extend(CONNACK)
    client.open(stream, 0, b"hall/board/4/status", b"offline")
    assert client.poll(0) == mqtt.CONNECTED
    return client


def test_a_queue_the_socket_takes_nothing_of_is_lost_at_stall_ms_not_before():
    # "a queue the socket takes nothing of for 5 s": lost at 5 s of no progress
    assert mqtt.STALL_MS == 5000
    stream = Refusing(b"")
    client = up_at_0(stream)
    assert client.poll(100) == mqtt.IDLE  # the queue empty at 100: nothing waits
    stream.refusing = True
    assert client.publish(b"hall/board/4", b"state")
    assert client.poll(100 + mqtt.STALL_MS - 1) == mqtt.IDLE and client.up()
    assert client.poll(100 + mqtt.STALL_MS) == mqtt.LOST
    assert client.reason == "stalled"


def test_a_queue_the_socket_takes_some_of_waits_stall_ms_from_then():
    stream = Refusing(b"")
    client = up_at_0(stream)
    stream.refusing = True
    assert client.publish(b"hall/board/4", b"a" * mqtt.WRITE_CHUNK)  # two writes' worth
    assert client.poll(4000) == mqtt.IDLE
    stream.refusing = False
    assert client.poll(4500) == mqtt.IDLE  # the socket took a chunk at 4500
    stream.refusing = True
    assert client.poll(4500 + mqtt.STALL_MS - 1) == mqtt.IDLE and client.up()
    assert client.poll(4500 + mqtt.STALL_MS) == mqtt.LOST
    assert client.reason == "stalled"


def pinged(stream):
    return b"\xc0\x00" in stream.written


def test_twenty_seconds_of_silence_send_a_ping_and_not_a_ms_before():
    # "silence from the broker this long: a PINGREQ" (docs/hall.md: 20 s)
    assert mqtt.PING_MS == 20_000
    stream = Refusing(b"")
    client = up_at_0(stream)
    for now in (mqtt.PING_MS - 1, mqtt.PING_MS - 1):  # the second writes what the first queued
        client.poll(now)
    assert not pinged(stream)
    for now in (mqtt.PING_MS, mqtt.PING_MS):
        client.poll(now)
    assert pinged(stream)


def test_a_ping_unanswered_for_answer_ms_loses_the_link_and_not_a_ms_before():
    # "An answer that does not come (CONNACK, SUBACK, PINGRESP: 5 s)"
    assert mqtt.ANSWER_MS == 5000
    stream = Refusing(b"")
    client = up_at_0(stream)
    client.poll(mqtt.PING_MS)  # the ping asked here
    assert client.poll(mqtt.PING_MS + mqtt.ANSWER_MS - 1) == mqtt.IDLE and client.up()
    assert client.poll(mqtt.PING_MS + mqtt.ANSWER_MS) == mqtt.LOST
    assert client.reason == "no answer"


def test_an_answered_ping_starts_the_silence_again():
    stream = Refusing(b"")
    client = up_at_0(stream)
    client.poll(mqtt.PING_MS)
    client.poll(mqtt.PING_MS + 10)  # the PINGREQ written
    stream.incoming.extend(b"\xd0\x00")  # the PINGRESP
    assert client.poll(mqtt.PING_MS + 20) == mqtt.IDLE
    del stream.written[:]
    client.poll(mqtt.PING_MS + 20 + mqtt.PING_MS - 1)
    client.poll(mqtt.PING_MS + 20 + mqtt.PING_MS - 1)
    assert not pinged(stream) and client.up()
    client.poll(mqtt.PING_MS + 20 + mqtt.PING_MS)
    client.poll(mqtt.PING_MS + 20 + mqtt.PING_MS)
    assert pinged(stream)
