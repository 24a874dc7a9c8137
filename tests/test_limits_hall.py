"""The hall message's size limit (firmware/hall_decode.py, ``MAX_BYTES``, docs/hall.md)
at the limit and one byte past it: the tests before sent 1 MB, never 1,025 bytes,
and a decoder reading up to 1,025 went unnoticed (issue 36)."""

import json

import pytest

from bench import hall_probe
from firmware import hall_decode


def padded(size):
    """A message the clock writes, padded with JSON white space to ``size`` bytes."""
    text = hall_probe.lines()[0].encode()
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
