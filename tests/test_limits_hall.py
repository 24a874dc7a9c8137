"""The hall message's limits (firmware/hall_decode.py, docs/hall.md) at the limit and
one past it: its size (the tests before sent 1 MB, never 1,025 bytes, and a decoder
reading up to 1,025 went unnoticed, issue 36), each number's range and the periods a
stage names; and the link's heartbeat and keep-alive (hal/hall_link.py)."""

import functools
import json

import pytest

from bench import hall_probe
from firmware import hall_decode, hall_message, timecontrol


@functools.lru_cache(maxsize=1)
def probe_line():
    return hall_probe.lines()[0]  # a message a clock wrote: board 12, running


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
