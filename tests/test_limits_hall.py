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


def test_a_message_one_byte_over_is_refused_before_it_is_read():
    payload = padded(hall_decode.MAX_BYTES + 1)
    with pytest.raises(ValueError, match="1025 bytes"):
        hall_decode.decode(payload)
    with pytest.raises(ValueError, match="1025 bytes"):
        hall_decode.decode(payload.decode())  # as text, the same count
