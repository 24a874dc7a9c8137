"""Reading a hall message back, every field checked (docs/hall.md): the hall's side.

The view and the tests use it; a clock only writes messages
(``firmware.hall_message.encode``) and never loads this. Pure, and runs on
MicroPython too.
"""

import json

from firmware.hall_message import MAX_BOARD, PUSH, REASONS, SIDES, STATES, VERSION


def _want(data, name, kind):
    value = data.get(name)
    if kind is int:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError("%s must be a whole number >= 0, got %r" % (name, value))
    elif kind is bool:
        if value is not True and value is not False:
            raise ValueError("%s must be true or false, got %r" % (name, value))
    elif not isinstance(value, str):
        raise ValueError("%s must be text, got %r" % (name, value))
    return value


def _one_of(data, name, choices):
    value = _want(data, name, str)
    if value not in choices:
        raise ValueError("%s %r is not one of %s" % (name, value, ", ".join(choices)))
    return value


def decode(payload):
    """The message ``payload`` (bytes or text) as a dict; ValueError if it is not one."""
    if isinstance(payload, bytes):
        payload = payload.decode("utf-8")
    data = json.loads(payload)
    if not isinstance(data, dict):
        raise ValueError("a hall message is a JSON object")
    if data.get("v") != VERSION:
        raise ValueError("message version %r, not %d" % (data.get("v"), VERSION))
    board = _want(data, "board", int)
    if board < 1 or board > MAX_BOARD:
        raise ValueError("board %d is not 1..%d" % (board, MAX_BOARD))
    for name in ("seq", "left_ms", "right_ms", "moves"):
        _want(data, name, int)
    for name in ("flag_left", "flag_right"):
        _want(data, name, bool)
    for name in ("left_stage", "right_stage", "claim", "result"):
        _want(data, name, str)
    _one_of(data, "reason", REASONS)
    _one_of(data, "state", STATES)
    _one_of(data, "push", PUSH)
    for name in ("to_move", "white", "first_flag"):
        _one_of(data, name, SIDES)
    push_id = data.get("push_id")
    if push_id is not None and not isinstance(push_id, str):
        raise ValueError("push_id must be text or null, got %r" % (push_id,))
    return data
