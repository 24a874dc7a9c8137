"""Reading a hall message back, bounded and every field checked (docs/hall.md).

The view and the tests use it; a clock only writes messages
(``firmware.hall_message.encode``) and never loads this. Pure, and runs on
MicroPython too.

A message is one flat JSON object of about 300 bytes. ``decode`` refuses a
payload over ``MAX_BYTES`` before reading a character of it, then reads the
object itself, one level deep and without recursion: a value is a string, a
whole number, ``true``, ``false`` or ``null``, never a float, ``NaN``, an
array or an object; a key named twice is refused. Every number must lie in
the range the clock can hold, every text in its fixed set, and only the
known keys are kept, so what the view serves back is always the clock's own
vocabulary.
"""

import json

from micropython import const

from firmware.claims import QUICKPLAY
from firmware.hall_message import MAX_BOARD, MAX_PUSH_ID, PUSH, REASONS, SIDES, STATES, VERSION

MAX_BYTES = const(1024)  # a message is about 300 bytes
MAX_MS = const(359_999_999)  # 99:59:59.999, the most a clock shows
MAX_MOVES = const(9999)  # the move counter's four digits
MAX_SEQ = const(0x3FFFFFFF)  # the largest small integer on a 32-bit MicroPython
MAX_PERIOD = const(9)  # timecontrol.MAX_PERIODS
MAX_BYO = const(999)  # timecontrol.MAX_MOVES: byo-yomi periods, Canadian moves
_MAX_DIGITS = const(10)
CLAIM_STATES = ("open", "postponed", "recorded")
RESULTS = ("none", "draw")
BATTERY = ("ok", "low", "none")  # version 2: none is a clock without a battery sense

_INTS = (("seq", MAX_SEQ), ("left_ms", MAX_MS), ("right_ms", MAX_MS), ("moves", MAX_MOVES))
_CHOICES = (
    ("reason", REASONS),
    ("state", STATES),
    ("push", PUSH),
    ("to_move", SIDES),
    ("white", SIDES),
    ("first_flag", SIDES),
    ("result", RESULTS),
)
_SPACE = " \t\r\n"
_DIGITS = "0123456789"


def _skip_space(text, at):
    while at < len(text) and text[at] in _SPACE:
        at += 1
    return at


def _string(text, at):
    """The JSON string starting at ``at`` and the index after it."""
    end = at + 1
    while end < len(text) and text[end] != '"':
        if text[end] == "\\":
            end += 1
        elif text[end] < " ":
            raise ValueError("a control character in a text")
        end += 1
    if end >= len(text):
        raise ValueError("a text without its closing quote")
    return json.loads(text[at : end + 1]), end + 1


def _number(text, at):
    end = at
    while end < len(text) and text[end] in _DIGITS:
        end += 1
    if end < len(text) and text[end] in ".eE":
        raise ValueError("a hall message holds whole numbers only")
    if end - at > _MAX_DIGITS or (text[at] == "0" and end - at > 1):
        raise ValueError("a number of the wrong form: %s" % text[at:end][:12])
    return int(text[at:end]), end


def _value(text, at):
    if at >= len(text):
        raise ValueError("a message that stops short")
    first = text[at]
    if first == '"':
        return _string(text, at)
    if first in _DIGITS:
        return _number(text, at)
    for word, value in (("true", True), ("false", False), ("null", None)):
        if text.startswith(word, at):
            return value, at + len(word)
    raise ValueError("a value that is not text, a whole number >= 0, true, false or null")


def read_object(text):
    """The flat JSON object ``text`` as a dict (one level, no key twice); ValueError else."""
    at = _skip_space(text, 0)
    if not text.startswith("{", at):
        raise ValueError("a hall message is a JSON object")
    data = {}
    at = _skip_space(text, at + 1)
    if text.startswith("}", at):
        at += 1
    else:
        while True:
            if not text.startswith('"', at):
                raise ValueError("a key must be a text")
            key, at = _string(text, at)
            at = _skip_space(text, at)
            if not text.startswith(":", at):
                raise ValueError("a key without its value")
            value, at = _value(text, _skip_space(text, at + 1))
            if key in data:
                raise ValueError("key %r twice" % key[:20])
            data[key] = value
            at = _skip_space(text, at)
            if text.startswith(",", at):
                at = _skip_space(text, at + 1)
            elif text.startswith("}", at):
                at += 1
                break
            else:
                raise ValueError("a message that is not one flat JSON object")
    if _skip_space(text, at) != len(text):
        raise ValueError("something after the message")
    return data


def _whole(data, name, high, low=0):
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError("%s must be a whole number %d..%d" % (name, low, high))
    return value


def _one_of(data, name, choices):
    value = data.get(name)
    if not isinstance(value, str) or value not in choices:
        raise ValueError("%s is not one of %s" % (name, ", ".join(choices)))
    return value


def _stage(data, name):
    value = data.get(name)
    if isinstance(value, str):
        if len(value) == 1 and "1" <= value <= str(MAX_PERIOD):
            return value
        count = value[3:]
        if (
            value[:3] in ("byo", "can")
            and 1 <= len(count) <= 3
            and all(c in _DIGITS for c in count)
            and (count == "0" or count[0] != "0")
        ):
            return value
    raise ValueError("%s is not a period (1..%d, byoN, canN)" % (name, MAX_PERIOD))


def _claim(data):
    value = data.get("claim")
    if value == "none":
        return value
    if isinstance(value, str):
        state, _, side = value.partition("-")
        if state in CLAIM_STATES and side in ("left", "right"):
            return value
    raise ValueError("claim is not none or open/postponed/recorded-left/right")


def decode(payload):
    """The message ``payload`` (bytes or text) as a dict of its known keys; ValueError
    if it is not one."""
    if len(payload) > MAX_BYTES:
        raise ValueError("a message of %d bytes (at most %d)" % (len(payload), MAX_BYTES))
    if isinstance(payload, bytes):
        try:
            payload = payload.decode("utf-8")
        except UnicodeError:
            raise ValueError("a message that is not UTF-8")
    data = read_object(payload)
    version = data.get("v")
    if version not in (1, VERSION) or isinstance(version, bool):
        raise ValueError("message version %r, not 1..%d" % (version, VERSION))
    message = {"v": version, "board": _whole(data, "board", MAX_BOARD, 1)}
    for name, high in _INTS:
        message[name] = _whole(data, name, high)
    for name in ("flag_left", "flag_right"):
        value = data.get(name)
        if value is not True and value is not False:
            raise ValueError("%s must be true or false" % name)
        message[name] = value
    for name, choices in _CHOICES:
        message[name] = _one_of(data, name, choices)
    message["left_stage"] = _stage(data, "left_stage")
    message["right_stage"] = _stage(data, "right_stage")
    message["claim"] = _claim(data)
    push_id = data.get("push_id")
    if push_id is not None and (not isinstance(push_id, str) or len(push_id) > MAX_PUSH_ID):
        raise ValueError("push_id must be text of at most %d characters, or null" % MAX_PUSH_ID)
    message["push_id"] = push_id
    if version >= 2:
        message["quickplay"] = _one_of(data, "quickplay", QUICKPLAY)
        message["battery"] = _one_of(data, "battery", BATTERY)
    else:  # a clock of the first version says neither
        message["quickplay"] = "off"
        message["battery"] = "none"
    return message
