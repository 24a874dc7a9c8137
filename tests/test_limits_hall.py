"""The hall message's limits (firmware/hall_decode.py, docs/hall.md) at the limit and
one past it: its size (the tests before sent 1 MB, never 1,025 bytes, and a decoder
reading up to 1,025 went unnoticed, issue 36), each number's range and the periods a
stage names; and the link's heartbeat, backoff and keep-alive (hal/hall_link.py)."""

import functools
import json

import pytest

from firmware import claims, engine, hall_decode, hall_message, timecontrol
from hal import mqtt
from tests.mpy import hall_messages


@functools.lru_cache(maxsize=1)
def probe_line():
    return hall_messages.lines()[0]  # a message a clock wrote: board 12, running


def padded(size):
    """A message the clock writes, padded with JSON white space to ``size`` bytes."""
    text = probe_line().encode()
    assert len(text) < size
    return text[:-1] + b" " * (size - len(text)) + text[-1:]


def test_a_message_of_exactly_max_bytes_is_read():
    payload = padded(hall_decode.MAX_BYTES)
    assert len(payload) == 1024  # docs/hall.md: at most 1 KiB
    assert hall_decode.decode(payload)["board"] == json.loads(payload)["board"]


def readings(monkeypatch):
    """The sizes of what decode reads (its UTF-8 checked), recorded: the whole
    message first, then the strings inside it."""
    seen = []
    check = hall_decode.check_utf8

    def recording(payload):
        seen.append(len(payload))
        return check(payload)

    monkeypatch.setattr(hall_decode, "check_utf8", recording)
    return seen


def test_a_message_one_byte_over_is_refused_before_it_is_read(monkeypatch):
    """Refused for its size, whatever the words: at the limit the same message is read
    (the recording sees it), one byte past nothing of it is, as bytes or as text."""
    at_limit = padded(hall_decode.MAX_BYTES)
    payload = padded(hall_decode.MAX_BYTES + 1)
    seen = readings(monkeypatch)
    for message in (at_limit, at_limit.decode()):
        hall_decode.decode(message)
        assert seen[0] == hall_decode.MAX_BYTES  # the whole message, then its strings
        del seen[:]
    with pytest.raises(ValueError):
        hall_decode.decode(payload)
    with pytest.raises(ValueError):
        hall_decode.decode(payload.decode())  # as text, the same count
    assert seen == []


# --- each number at its bound, and one past ----------------------------------------


def message(**changes):
    """The clock's message with ``changes``, as compact JSON."""
    data = json.loads(probe_line())
    data.update(changes)
    return json.dumps(data, separators=(",", ":"))


def refusal(**changes):
    with pytest.raises(ValueError) as refused:
        hall_decode.decode(message(**changes))
    return str(refused.value)


# (field, lowest, highest): docs/hall.md's ranges, as hall_decode names them
RANGES = [
    ("board", 1, hall_message.MAX_BOARD),  # the hall's board numbers
    ("seq", 0, hall_decode.MAX_SEQ),  # a small integer on a 32-bit board
    ("left_ms", 0, hall_decode.MAX_MS),  # 99:59:59.999, the most a clock shows
    ("right_ms", 0, hall_decode.MAX_MS),
    ("moves", 0, hall_decode.MAX_MOVES),  # the move counter's four digits
]


def test_the_ranges_are_the_ones_the_documents_state():
    assert hall_message.MAX_BOARD == 9999
    assert hall_decode.MAX_SEQ == 2**30 - 1
    assert hall_decode.MAX_MS == 359_999_999
    assert hall_decode.MAX_MOVES == 9999


@pytest.mark.parametrize("name, lowest, highest", RANGES, ids=[r[0] for r in RANGES])
def test_a_number_is_read_at_each_end_of_its_range(name, lowest, highest):
    for value in (lowest, highest):
        assert hall_decode.decode(message(**{name: value}))[name] == value


@pytest.mark.parametrize("name, lowest, highest", RANGES, ids=[r[0] for r in RANGES])
def test_a_number_one_past_its_range_is_refused_by_name(name, lowest, highest):
    said = "%s must be a whole number %d..%d" % (name, lowest, highest)
    assert refusal(**{name: highest + 1}) == said
    if lowest > 0:
        assert refusal(**{name: lowest - 1}) == said
    else:  # below 0 is no whole number of a hall message at all
        with pytest.raises(ValueError):
            hall_decode.decode(message(**{name: -1}))


def test_a_message_version_is_1_or_2_and_never_true():
    # docs/hall.md: "v" is 1 or 2; JSON's true is no number, though Python's True == 1
    assert hall_decode.VERSION == 2
    for version in (1, 2):
        assert hall_decode.decode(message(v=version))["v"] == version
    for version in (0, 3, True, False, "1"):
        assert refusal(v=version) == "a message version not 1..2", version


@pytest.mark.parametrize("name", ["left_stage", "right_stage"])
def test_a_stage_names_a_period_up_to_the_ninth_and_byo_yomi_up_to_999(name):
    # docs/hall.md: a stage is the period 1..9 (timecontrol.MAX_PERIODS), byoN or canN
    # (N up to timecontrol.MAX_MOVES: 999 periods, 999 moves of a Canadian block)
    assert hall_decode.MAX_PERIOD == timecontrol.MAX_PERIODS == 9
    assert hall_decode.MAX_BYO == timecontrol.MAX_MOVES == 999
    reached = ["1", str(hall_decode.MAX_PERIOD)]
    for prefix in ("byo", "can"):
        reached += [prefix + "0", prefix + str(hall_decode.MAX_BYO)]
    for stage in reached:
        assert hall_decode.decode(message(**{name: stage}))[name] == stage
    said = "%s is not a period (1..9, byoN, canN)" % name
    past = ["0", str(hall_decode.MAX_PERIOD + 1)]
    past += ["byo%d" % (hall_decode.MAX_BYO + 1), "can%d" % (hall_decode.MAX_BYO + 1)]
    for stage in past:
        assert refusal(**{name: stage}) == said, stage


# --- the link's times (hal/hall_link.py): the heartbeat, the backoff, the keep-alive ---


class Broker:
    """A stream to a broker that answers at once: CONNACK, SUBACK, PINGRESP. Keeps the
    client's packets as ``(kind, body)``, in order."""

    def __init__(self):
        self.incoming = bytearray()
        self.written = bytearray()
        self.packets = []

    def ready(self):
        return mqtt.WRITABLE | (mqtt.READABLE if self.incoming else 0)

    def readinto(self, buffer, count):
        count = min(count, len(self.incoming))
        buffer[0:count] = self.incoming[0:count]
        del self.incoming[0:count]
        return count

    def write(self, buffer, start, count):
        self.written.extend(buffer[start : start + count])
        while True:  # each whole packet written: kept, and answered
            length = shift = 0
            at = 1
            while at < len(self.written):
                length |= (self.written[at] & 0x7F) << shift
                shift += 7
                at += 1
                if not self.written[at - 1] & 0x80:
                    break
            else:
                return count
            if len(self.written) < at + length:
                return count
            kind, body = self.written[0] & 0xF0, bytes(self.written[at : at + length])
            del self.written[: at + length]
            self.packets.append((kind, body))
            answer = {0x10: b"\x20\x02\x00\x00", 0x80: b"\x90\x03\x00\x01\x00", 0xC0: b"\xd0\x00"}
            self.incoming.extend(answer.get(kind, b""))

    def close(self):
        pass


class Battery:
    def is_low(self):
        return False

    def next_reading(self):
        return None


class App:
    """What the link asks of the app: the clock and the claims (in setup), the battery."""

    def __init__(self):
        self.clock = engine.Clock(timecontrol.parse("300"))
        self.claims = claims.Claims(self.clock, "off", "appendix-g")

    def battery(self):
        return Battery()


class Hall:
    board = 12
    user = "clock-12"
    password = "pw"
    prefix = "hall"
    broker = "192.168.1.10"
    port = 1883
    ca = ""


def link_over(stream, resolve=None):
    from hal import hall_link

    wlan = type("Wlan", (), {"isconnected": lambda self: True})()
    address = resolve or (lambda host, port: (host, port))
    return hall_link.HallLink(Hall(), wlan, address, lambda address: stream)


def reasons(stream):
    """The reasons of the state messages the client sent, in order."""
    said = []
    for kind, body in stream.packets:
        if kind == 0x30:
            topic_end = 2 + (body[0] << 8 | body[1])
            if body[2:topic_end] == b"hall/board/12":
                said.append(json.loads(body[topic_end:])["reason"])
    return said


def connected_link():
    """A link whose first message (``boot``) was queued at 20 ms, and sent."""
    stream = Broker()
    link = link_over(stream)
    app = App()
    assert link.poll(app, 0) is False  # the connect starts
    assert link.poll(app, 10) is False  # the CONNECT goes
    assert link.poll(app, 20) is True  # the CONNACK: the first message is queued
    sent(link, app, stream, 30)  # it goes, after the SUBSCRIBE and the online status
    assert reasons(stream) == ["boot"]
    return link, app, stream


def sent(link, app, stream, now):
    """Polls at ``now`` until the client's queue is written (a message takes several:
    hal.mqtt.WRITE_CHUNK bytes a poll)."""
    for _ in range(10):
        link.poll(app, now)
        if not link.writing():
            return


def test_the_links_deadline_is_its_heartbeat_while_up_and_its_backoff_while_down():
    """``HallLink.deadline``: the main loop sleeps no longer than to it (hal/runtime.py)."""
    from hal import hall_link

    link, app, stream = connected_link()
    assert link.deadline() == 20 + hall_link.HEARTBEAT_MS  # the heartbeat after "boot"
    assert link.poll(app, 20 + hall_link.HEARTBEAT_MS) is True
    assert link.deadline() == 20 + 2 * hall_link.HEARTBEAT_MS
    link._fail(40_000)  # the connection lost at 40 s: a backoff of 1 s
    assert link.deadline() == 40_000 + hall_link.FIRST_BACKOFF_MS


def test_a_heartbeat_goes_30_s_after_the_last_message_and_not_a_ms_before():
    from hal import hall_link

    # docs/hall.md: "a heartbeat every 30 s without a change"
    assert hall_link.HEARTBEAT_MS == 30_000
    link, app, stream = connected_link()
    for now in range(1000, 20 + hall_link.HEARTBEAT_MS, 1000):  # pings answered meanwhile
        assert link.poll(app, now) is False
    assert link.poll(app, 20 + hall_link.HEARTBEAT_MS - 1) is False
    assert link.poll(app, 20 + hall_link.HEARTBEAT_MS) is True
    sent(link, app, stream, 20 + hall_link.HEARTBEAT_MS)
    assert reasons(stream) == ["boot", "heartbeat"]


def test_a_link_that_cannot_connect_waits_1_2_4_8_then_16_s_between_tries():
    from hal import hall_link

    # docs/hall.md: "tried again after 1 s, then 2, 4, 8 and at most 16 s"
    assert (hall_link.FIRST_BACKOFF_MS, hall_link.MAX_BACKOFF_MS) == (1000, 16_000)
    tries = []

    def no_such_name(host, port):
        tries.append(now)
        raise OSError(-2)

    link = link_over(Broker(), no_such_name)
    app = App()
    now = 0
    link.poll(app, now)
    for wait in (1000, 2000, 4000, 8000, 16_000, 16_000):
        now += wait - 1
        link.poll(app, now)  # 1 ms early: skipped
        now += 1
        link.poll(app, now)
    assert tries == [0, 1000, 3000, 7000, 15_000, 31_000, 47_000]


def test_the_client_never_leaves_the_keep_alive_without_a_packet():
    from hal import hall_link

    # MQTT 3.1.1, 3.1.2.10: the client sends a packet at least every Keep Alive seconds
    # (the broker drops it after 1.5 times as long); the CONNECT says KEEPALIVE_S.
    link, app, stream = connected_link()
    kind, connect = stream.packets[0]
    assert kind == 0x10 and connect[8] << 8 | connect[9] == hall_link.KEEPALIVE_S == 60
    sent_at = [30]
    for now in range(100, 5 * 60_000, 100):
        before = len(stream.packets)
        link.poll(app, now)
        if len(stream.packets) > before:
            sent_at.append(now)
    gaps = [later - earlier for earlier, later in zip(sent_at[:-1], sent_at[1:], strict=True)]
    assert 0 < max(gaps) <= hall_link.KEEPALIVE_S * 1000
