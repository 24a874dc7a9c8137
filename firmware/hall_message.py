"""The hall message: one board's state as the hall view needs it (docs/hall.md).

``encode`` writes the clock's state as one line of compact JSON, with the
keys always in the same order, so the bytes are the same on a board and on
the host; ``firmware.hall_decode`` reads it back (the hall's side: a clock
never loads it). Pure: the time is passed in, nothing is read from a clock.
"""

import json

from micropython import const

from firmware import engine

VERSION = const(2)  # 2: adds quickplay and battery
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
    '"claim":"%s","result":"%s","push":"%s","push_id":%s,"quickplay":"%s","battery":"%s"}'
)


def _side(index):
    return SIDES[index] if index >= 0 else "none"


def _bool(value):
    return "true" if value else "false"


def battery_name(battery):
    """``low``, ``ok``, or ``none`` for a board that cannot sense its battery."""
    if battery.is_low():
        return "low"
    return "none" if battery.next_reading() is None else "ok"


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
            claims.quickplay,
            battery_name(app.hardware.battery),
        )
    ).encode("utf-8")


def board_topic(prefix, board):
    """The topic a board publishes its state on: ``PREFIX/board/N``."""
    return "%s/board/%d" % (prefix, board)


def settings_topic(prefix):
    """The topic the chief arbiter publishes the event's settings on."""
    return prefix + "/settings"
