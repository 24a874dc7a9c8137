"""The hall message: one board's state as the hall view needs it (docs/hall.md).

``encode`` writes the clock's state as one line of compact JSON, with the
keys always in the same order, so the bytes are the same on a board and on
the host; ``firmware.hall_decode`` reads it back (the hall's side: a clock
never loads it). Pure: the time is passed in, nothing is read from a clock.
"""

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
MAX_PUSH_ID = const(64)  # the longest push id a board takes (firmware.hall_push)
# The longest message: the template's 249 bytes and every value at its longest (a
# number of 10 digits and a sign, a push id of MAX_PUSH_ID characters each escaped:
# 538 bytes; tests/test_hall_message.py writes it).
MESSAGE_BYTES = const(560)

# The message with a zero byte where each value goes, in order.
_TEMPLATE = (
    b'{"v":\0,"board":\0,"seq":\0,"reason":"\0","state":"\0","left_ms":\0,'
    b'"right_ms":\0,"to_move":"\0","white":"\0","moves":\0,"left_stage":"\0",'
    b'"right_stage":"\0","flag_left":\0,"flag_right":\0,"first_flag":"\0",'
    b'"claim":"\0","result":"\0","push":"\0","push_id":\0,"quickplay":"\0","battery":"\0"}'
)
# Every word a value can be, and their bytes one after the other (made once): a word
# is found by its index, so writing it reads no character of a str (a str's
# character is a new object inside MicroPython).
_WORDS = (
    "none", "left", "right", "true", "false", "null", "setup", "running", "paused",
    "over", "claim", "boot", "reconnect", "change", "heartbeat", "applied", "refused",
    "invalid", "open", "postponed", "recorded", "draw", "off", "g4-increment",
    "g4-delay", "g5", "g6", "ok", "low", "", "byo", "can", "-",
)  # fmt: skip
_WORD_BYTES = "".join(_WORDS).encode()


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


class Message:
    """The message's bytes in a buffer of its own (``buffer[:count]``): ``write``
    allocates nothing, a game's messages go out of the same buffer."""

    def __init__(self):
        self.buffer = bytearray(MESSAGE_BYTES)
        self.count = 0
        self.mark = 0  # the template is copied up to here
        self.push_id = None  # the last push id written, and its JSON text
        self.push_id_text = b"null"

    def write(self, app, now, board, seq, reason, push="none", push_id=None):
        """The message for ``app`` at tick ``now`` (UTF-8 JSON, one line); its length."""
        clock = app.clock
        claims = app.claims
        self.count = self.mark = 0
        self._put(VERSION)
        self._put(board)
        self._put(seq)
        self._put(reason)
        self._put(state_name(app))
        for index in range(2):
            self._put(clock.shown_ms(index, now))
        self._put(_side(clock.mover))
        self._put(_side(clock.white))
        self._put(clock.moves())
        for index in range(2):
            code = clock.stage_code(index, now)
            self._put(engine.STAGE_PREFIXES[code & 3])
            self._put(code >> 2, True)
        for side in clock.sides:
            self._put(_bool(side.flagged))
        self._put(_side(clock.first_flag))
        self._put(claims.state)  # claims.field()
        if claims.state != "none":
            self._put("-", True)
            self._put(_side(claims.claimant), True)
        self._put(claims.result)
        self._put(push)
        if push_id is not self.push_id:  # a new id: its text made once (a push allocates)
            self.push_id = push_id
            self.push_id_text = b"null"
            if push_id is not None:
                text = push_id.replace("\\", "\\\\").replace('"', '\\"')
                self.push_id_text = ('"' + text + '"').encode()
        self._put(self.push_id_text)
        self._put(claims.quickplay)
        self._put(battery_name(app.battery()))
        self._put(b"")  # the closing brace
        return self.count

    def _copy(self, data, start, end, stop=-1):
        """``data[start:end]`` into the buffer, up to a byte ``stop``; where it stopped."""
        buffer = self.buffer
        at = self.count
        while start < end:  # an index, not a slice: nothing allocated
            value = data[start]
            start += 1
            if value == stop:
                break
            buffer[at] = value
            at += 1
        self.count = at
        return start

    def _put(self, value, glued=False):
        """A value in the next place (the template copied up to it) or ``glued`` to the
        last: a whole number's digits (as ``%d``), bytes, or one of ``_WORDS`` (another
        word is encoded here)."""
        if not glued:
            self.mark = self._copy(_TEMPLATE, self.mark, len(_TEMPLATE), 0)
        if isinstance(value, int):
            buffer = self.buffer
            if value < 0:
                buffer[self.count] = 45  # -
                self.count += 1
                value = -value
            end = self.count
            rest = value
            while True:
                end += 1
                rest //= 10
                if not rest:
                    break
            self.count = end
            while True:
                end -= 1
                buffer[end] = 48 + value % 10
                value //= 10
                if not value:
                    break
            return
        if isinstance(value, bytes):
            self._copy(value, 0, len(value))
            return
        try:
            index = _WORDS.index(value)
        except ValueError:
            value = value.encode()
            self._copy(value, 0, len(value))
            return
        start = 0
        for earlier in range(index):
            start += len(_WORDS[earlier])
        self._copy(_WORD_BYTES, start, start + len(value))


def encode(app, now, board, seq, reason, push="none", push_id=None):
    """The message for ``app`` at tick ``now`` as new bytes (UTF-8 JSON, one line)."""
    message = Message()
    count = message.write(app, now, board, seq, reason, push, push_id)
    return bytes(message.buffer[:count])


def board_topic(prefix, board):
    """The topic a board publishes its state on: ``PREFIX/board/N``."""
    return "%s/board/%d" % (prefix, board)


def settings_topic(prefix):
    """The topic the chief arbiter publishes the event's settings on."""
    return prefix + "/settings"
