"""The hall message: one board's state as the hall view needs it (docs/hall.md).

``encode`` writes the clock's state as one line of compact JSON, with the
keys always in the same order, so the bytes are the same on a board and on
the host; ``decode`` reads it back and checks every field. Pure: the time
is passed in, nothing is read from a clock.
"""

import json

from micropython import const

from firmware import engine

VERSION = const(1)
SIDES = ("left", "right", "none")
STATES = ("setup", "running", "paused", "over", "claim")
# Why a message was sent (docs/hall.md): boot, a new connection, a change, the heartbeat.
REASONS = ("boot", "reconnect", "change", "heartbeat")
# What became of the arbiter's last settings push.
PUSH = ("none", "applied", "refused", "invalid")
MAX_BOARD = const(9999)

_FORMAT = (
    '{"v":%d,"board":%d,"seq":%d,"reason":"%s","state":"%s","left_ms":%d,'
    '"right_ms":%d,"to_move":"%s","white":"%s","moves":%d,"left_stage":"%s",'
    '"right_stage":"%s","flag_left":%s,"flag_right":%s,"first_flag":"%s",'
    '"claim":"%s","result":"%s","push":"%s","push_id":%s}'
)


def _side(index):
    return SIDES[index] if index >= 0 else "none"


def _bool(value):
    return "true" if value else "false"


def state_name(app):
    """``setup``, ``running``, ``paused``, ``over``, or ``claim`` while a claim is open."""
    clock = app.clock
    if app.claims.state == "open" and clock.state == engine.PAUSED:
        return "claim"
    return engine.STATE_NAMES[clock.state]


def encode(app, now, board, seq, reason, push="none", push_id=None):
    """The message for ``app`` at tick ``now`` as bytes (UTF-8 JSON, one line)."""
    clock = app.clock
    claims = app.claims
    sides = clock.sides
    return (
        _FORMAT
        % (
            VERSION,
            board,
            seq,
            reason,
            state_name(app),
            clock.shown_ms(0, now),
            clock.shown_ms(1, now),
            _side(clock.mover),
            _side(clock.white),
            clock.moves(),
            clock.stage(0, now),
            clock.stage(1, now),
            _bool(sides[0].flagged),
            _bool(sides[1].flagged),
            _side(clock.first_flag),
            claims.field(),
            claims.result,
            push,
            "null" if push_id is None else json.dumps(push_id),
        )
    ).encode("utf-8")


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


def board_topic(prefix, board):
    """The topic a board publishes its state on: ``PREFIX/board/N``."""
    return "%s/board/%d" % (prefix, board)


def settings_topic(prefix):
    """The topic the chief arbiter publishes the event's settings on."""
    return prefix + "/settings"
