"""Reading a hall message back, bounded and every field checked (docs/hall.md).

The view and the tests use it; a clock only writes messages
(``firmware.hall_message.encode``) and never loads this. Pure, and runs on
MicroPython too.

A message is one flat JSON object of about 300 bytes. ``decode`` refuses a
payload over ``MAX_BYTES`` (counted in bytes) before reading a character of
it, then reads the object itself with ``firmware.flat_json``: UTF-8 checked
by the project, only JSON's escapes, one level deep and without recursion; a
value is a string, a whole number, ``true``, ``false`` or ``null``, never a
float, ``NaN``, an array or an object; a key named twice is refused. Every
lane refuses the same bytes, and counts a text's length in code points. Every number must lie in
the range the clock can hold, every text in its fixed set, and only the
known keys are kept, so what the view serves back is always the clock's own
vocabulary.
"""

from micropython import const

from firmware.claims import QUICKPLAY
from firmware.flat_json import check_utf8, code_points, read_object
from firmware.hall_message import MAX_BOARD, MAX_PUSH_ID, PUSH, REASONS, SIDES, STATES, VERSION

MAX_BYTES = const(1024)  # a message is about 300 bytes
MAX_MS = const(359_999_999)  # 99:59:59.999, the most a clock shows
MAX_MOVES = const(9999)  # the move counter's four digits
MAX_SEQ = const(0x3FFFFFFF)  # the largest small integer on a 32-bit MicroPython
MAX_PERIOD = const(9)  # timecontrol.MAX_PERIODS
MAX_BYO = const(999)  # timecontrol.MAX_MOVES: byo-yomi periods, Canadian moves
CLAIM_STATES = ("open", "postponed", "recorded")
RESULTS = ("none", "draw")
_DIGITS = "0123456789"  # of a period's count
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
            and 1 <= len(count) <= len(str(MAX_BYO))
            and all(c in _DIGITS for c in count)
            and (count == "0" or count[0] != "0")
            and int(count) <= MAX_BYO
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
    """The message ``payload`` (bytes, or text as its UTF-8) as a dict of its known
    keys; ValueError if it is not one. Every lane refuses the same payloads: the size
    counted in bytes, the UTF-8 and the escapes checked here, lengths in code points."""
    if len(payload) > MAX_BYTES:  # a text's characters are never more than its bytes
        raise ValueError("a message of over %d bytes" % MAX_BYTES)
    if isinstance(payload, str):
        try:
            payload = payload.encode("utf-8")
        except UnicodeError:  # CPython: a text holding a surrogate alone
            raise ValueError("a text that is not Unicode")
        if len(payload) > MAX_BYTES:
            raise ValueError("a message of over %d bytes" % MAX_BYTES)
    check_utf8(payload)
    data = read_object(payload)
    version = data.get("v")
    if version not in (1, VERSION) or isinstance(version, bool):
        raise ValueError("a message version not 1..%d" % VERSION)
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
    if push_id is not None and (not isinstance(push_id, str) or code_points(push_id) > MAX_PUSH_ID):
        raise ValueError("push_id must be text of at most %d characters, or null" % MAX_PUSH_ID)
    message["push_id"] = push_id
    if version >= 2:
        message["quickplay"] = _one_of(data, "quickplay", QUICKPLAY)
        message["battery"] = _one_of(data, "battery", BATTERY)
    else:  # a clock of the first version says neither
        message["quickplay"] = "off"
        message["battery"] = "none"
    return message
