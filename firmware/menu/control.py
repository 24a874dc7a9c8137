"""The custom time-control builder of the setup menu: a control entered field by field.

A control is built as a list of fields, each shown on the two displays: the
left one names the field (``t  1`` the time of period 1, ``no 1`` its move
count, ``Ad 1`` what each move adds), the right one shows its value with the
digit being edited blinking. ``plus``/``minus`` change that digit (they wrap
round), ``set`` moves to the next digit and, after the last one, to the next
field; ``play`` takes the field as it stands and moves on. The left lever
goes back one field; a long press of ``minus`` abandons the builder.

One builder class per timing method, each with its fields (docs/menus.md):

- periods: per period its time (minutes and seconds), its move count (0 =
  the last period) and what a move adds (``-`` nothing, ``F`` Fischer
  increment, ``d`` simple delay, ``b`` Bronstein delay, with seconds). A
  move count opens the next period, whose ``Ad`` starts as the one before.
- hourglass: its time.
- Japanese byo-yomi: main time, period time, number of periods.
- Canadian byo-yomi: main time, moves per block, block time.

``text()`` gives the control in the syntax of ``timecontrol.parse``, which
the menu checks before anything changes. The builder runs only in the setup
state, never during a game, and may allocate.
"""

from micropython import const

from firmware import frames
from firmware.input_codes import KEY_MINUS, KEY_PLAY, KEY_PLUS, KEY_SET, LEVER_LEFT

MAX_PERIODS = const(5)
_BLINK_MS = const(500)

# Field types: digits of a time (MMMSS), of a count, and what a move adds.
_TIME = const(0)
_MOVES = const(1)
_COUNT = const(2)
_ADD = const(3)

ADD_MODES = ("-", "F", "d", "b")  # none, Fischer, simple delay, Bronstein
_ADD_SYNTAX = ("", "+", "d", "b")

# Per field type: the largest value of each digit, and where the cursor starts.
_DIGIT_LIMITS = {
    _TIME: (9, 9, 9, 5, 9),
    _MOVES: (9, 9, 9),
    _COUNT: (9, 9),
    _ADD: (3, 6, 9),  # the mode, then the seconds (over 60 s is refused by parse)
}
_CURSOR_START = {_TIME: 1, _MOVES: 1, _COUNT: 1, _ADD: 0}


class Field:
    """One field: its type, the label on the left display and its digits."""

    def __init__(self, kind, label, digits=None):
        self.kind = kind
        self.label = label
        limits = _DIGIT_LIMITS[kind]
        self.digits = list(digits) if digits is not None else [0] * len(limits)
        self.cursor = _CURSOR_START[kind]

    def value(self):
        """The number the digits make; a time in seconds; (mode, seconds) for ``_ADD``."""
        digits = self.digits
        if self.kind == _TIME:
            minutes = digits[0] * 100 + digits[1] * 10 + digits[2]
            return minutes * 60 + digits[3] * 10 + digits[4]
        if self.kind == _ADD:
            return digits[0], digits[1] * 10 + digits[2]
        number = 0
        for digit in digits:
            number = number * 10 + digit
        return number

    def step(self, delta):
        limit = _DIGIT_LIMITS[self.kind][self.cursor]
        self.digits[self.cursor] = (self.digits[self.cursor] + delta) % (limit + 1)

    def text(self, blink_dark):
        """The right display's four characters and its decimal points (a bit per digit)."""
        digits = self.digits
        cursor = self.cursor
        points = 0
        if self.kind == _TIME:
            if cursor <= 2:  # the minutes, ``MMM`` in digits 2-4
                shown = [" ", str(digits[0]), str(digits[1]), str(digits[2])]
                place = cursor + 1
                if digits[3] or digits[4]:
                    points = 8  # seconds too: the point after digit 4
            else:  # ``MM.SS``, the clock's own reading, with the seconds
                shown = [str(digits[1]), str(digits[2]), str(digits[3]), str(digits[4])]
                place = cursor - 1
                points = 2
        elif self.kind == _ADD:
            shown = [ADD_MODES[digits[0]], " ", str(digits[1]), str(digits[2])]
            place = 0 if cursor == 0 else cursor + 1
        else:
            shown = [" "] * (4 - len(digits)) + [str(digit) for digit in digits]
            place = 4 - len(digits) + cursor
        if blink_dark:
            shown[place] = " "
        return "".join(shown), points


class Builder:
    """The fields of one control being built, and the key handling on them; a
    subclass per timing method names its fields and writes its control."""

    def __init__(self):
        self.fields = []
        self.index = 0
        self.add_fields()
        self.done = False  # every field accepted: ``text()`` is ready
        self.cancelled = False

    def field(self):
        return self.fields[self.index]

    def on_key(self, key):
        """A short press, or a lever, while the builder is up."""
        field = self.field()
        if key == KEY_PLUS:
            field.step(1)
        elif key == KEY_MINUS:
            field.step(-1)
        elif key == KEY_SET:
            if field.cursor < len(field.digits) - 1:
                field.cursor += 1
            else:
                self._next()
        elif key == KEY_PLAY:
            self._next()
        elif key == LEVER_LEFT and self.index > 0:
            self.index -= 1

    def on_long_press(self, key):
        if key == KEY_MINUS:
            self.cancelled = True

    def _next(self):
        """Accept the field shown; open the next one, or finish."""
        field = self.field()
        field.cursor = _CURSOR_START[field.kind]
        if self.accepted(field):
            return
        if self.index == len(self.fields) - 1:
            self.done = True
            return
        self.index += 1

    def accepted(self, field):
        """What accepting ``field`` does besides moving on; True if it decided
        where the builder goes (the periods' count of moves)."""
        return False

    def values(self):
        """Every field's value, in order (the byo-yomi's and the hourglass's text)."""
        return tuple(field.value() for field in self.fields)

    def draw(self, frame, side, elapsed_ms):
        """Side 0: the field's label; side 1: its value, the cursor digit blinking."""
        field = self.field()
        if side == 0:
            frames.render_text(frame, field.label)
            return
        text, points = field.text(elapsed_ms % (2 * _BLINK_MS) >= _BLINK_MS)
        frames.render_text(frame, text)
        digit = 0
        while digit < 4:
            if points & (1 << digit):
                frame[digit] |= frames.DOT
            digit += 1


class PeriodsBuilder(Builder):
    """Periods: per period its time, its move count (0: the last) and what a move adds."""

    def add_fields(self):
        self._add_period(1, None)

    def _add_period(self, number, before):
        self.fields.append(Field(_TIME, "t  %d" % number))
        self.fields.append(Field(_MOVES, "no %d" % number))
        add = Field(_ADD, "Ad %d" % number, before.digits if before is not None else None)
        self.fields.append(add)

    def accepted(self, field):
        if field.kind != _ADD:
            return False
        moves = self.fields[self.index - 1].value()
        last = self.index == len(self.fields) - 1
        if moves > 0 and last and len(self.fields) // 3 < MAX_PERIODS:
            self._add_period(len(self.fields) // 3 + 1, field)
        elif moves == 0 or last:
            del self.fields[self.index + 1 :]  # a count of 0 ends the control here
            self.done = True
            return True
        self.index += 1
        return True

    def text(self):
        """The control built, in the syntax of ``timecontrol.parse`` (not yet checked)."""
        fields = self.fields
        parts = []
        index = 0
        while index + 2 < len(fields):
            seconds = fields[index].value()
            moves = fields[index + 1].value()
            mode, bonus = fields[index + 2].value()
            part = "%d/%d" % (moves, seconds) if moves else "%d" % seconds
            if mode:
                part += "%s%d" % (_ADD_SYNTAX[mode], bonus)
            parts.append(part)
            index += 3
            if not moves:
                break
        return ":".join(parts)


class HourglassBuilder(Builder):
    """The hourglass: its time."""

    def add_fields(self):
        self.fields.append(Field(_TIME, "HG t"))

    def text(self):
        return "*%d" % self.values()


class JapaneseBuilder(Builder):
    """Japanese byo-yomi: main time, period time, number of periods."""

    def add_fields(self):
        self.fields.append(Field(_TIME, "t  1"))
        self.fields.append(Field(_TIME, "PEr"))
        self.fields.append(Field(_COUNT, "n"))

    def text(self):
        return "%dj%dx%d" % self.values()


class CanadianBuilder(Builder):
    """Canadian byo-yomi: main time, moves per block, block time."""

    def add_fields(self):
        self.fields.append(Field(_TIME, "t  1"))
        self.fields.append(Field(_MOVES, "no"))
        self.fields.append(Field(_TIME, "bL"))

    def text(self):
        return "%dc%d/%d" % self.values()
