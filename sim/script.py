"""Clock scripts: reading the scenario language of docs/spec/scripts.md.

``parse(source)`` returns a ``Script`` or raises ``ScriptError`` naming the
line and what is wrong; nothing is run for a malformed script. ``source`` is
the file's bytes (or text), read the same way on CPython and inside
MicroPython: UTF-8 (a byte-order mark allowed), lines ending in LF or CRLF,
no other control character than a tab, statements in ASCII (comments may
hold any character).

Limits (docs/spec/scripts.md, "Limits"): what the clock cannot hold or show, and
what would make a script run for more than seconds, is refused here.
"""

from firmware import arbiter, claims, timecontrol
from firmware.input_codes import NAMES as KEY_NAMES

SIDES = ("left", "right")
OUTCOMES = ("draw", "grant", "refuse", "postpone", "postpone+2", "reject", "close")
FIELDS = (
    "at",
    "state",
    "left",
    "right",
    "running",
    "white",
    "moves",
    "left_stage",
    "right_stage",
    "flag",
    "first_flag",
    "claim",
    "result",
    "display",
)
TIME_FIELDS = ("at", "left", "right")
# Statements of the contract that this firmware does not carry out yet.
NOT_YET = ()
# What needs the firmware running: refused while the power is off.
NEEDS_POWER = ("pause", "resume", "claim", "decide", "add", "setmoves")
# The arbiter's statements: key sequences whose time is left out of script time.
ARBITER = ("claim", "decide", "add", "setmoves")
_MAX_BOUNCE_MS = 50

# Limits: every well-formed script ends within seconds on both lanes. The board
# sleeps over the ticks its clock rests at, so virtual time is cheap: 24 hours,
# any game the clock can play, take seconds; each timed statement costs more.
MAX_BYTES = 1_000_000  # a script file
MAX_LINE_BYTES = 1000  # a line, its line end aside
MAX_STATEMENTS = 10_000  # timed statements: moves and event-log entries stay in 16 bits
MAX_SCRIPT_MS = 86_400_000  # virtual time (24 h), the arbiter's key sequences included
MAX_HOLD_MS = 60_000  # a key held down
MAX_ADD_MS = timecontrol.MAX_START_MS  # a time correction: 9:59:59
MAX_MOVES = 9999  # the move counter's four digits
# The runner's key presses (sim.runner): a press every 0.4 s, a long press 2.1 s
# then the same 0.32 s gap; an arbiter statement is counted with 5 presses more
# than its sequence needs at most, for the confirmations a statement may add.
KEY_STEP_MS = 400
LONG_STEP_MS = 2420
_SPARE_PRESSES = 5
_MAX_DIGITS = 9  # a number in a script: larger ones are refused before they are read


class ScriptError(Exception):
    def __init__(self, line, message):
        super().__init__(message)
        self.line = line
        self.message = message


class Script:
    def __init__(self):
        self.control_left = None
        self.control_right = None
        self.quickplay = "off"
        self.edition = "appendix-g"
        self.bounce_ms = 3
        self.near_wrap = False
        self.setting_line = 0
        self.statements = []  # (line, time_ms, action, arguments)


def _text_error(data):
    """``(offset, what)`` of the first byte that breaks the text rules, or None.

    Strict UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF),
    and no control character but a tab, a line feed, and a carriage return
    right before a line feed.
    """
    size = len(data)
    index = 0
    while index < size:
        byte = data[index]
        if byte < 0x80:
            if byte < 0x20 or byte == 0x7F:
                if byte == 0x0D and index + 1 < size and data[index + 1] == 0x0A:
                    index += 2
                    continue
                if byte != 0x09 and byte != 0x0A:
                    return index, "control character 0x%02x" % byte
            index += 1
            continue
        low = 0x80
        high = 0xBF
        if 0xC2 <= byte <= 0xDF:
            count = 1
        elif 0xE0 <= byte <= 0xEF:
            count = 2
            if byte == 0xE0:
                low = 0xA0
            elif byte == 0xED:
                high = 0x9F
        elif 0xF0 <= byte <= 0xF4:
            count = 3
            if byte == 0xF0:
                low = 0x90
            elif byte == 0xF4:
                high = 0x8F
        else:
            return index, "byte 0x%02x is not UTF-8" % byte
        if index + count >= size:
            return index, "byte 0x%02x begins a UTF-8 character the file cuts short" % byte
        follow = 1
        while follow <= count:
            next_byte = data[index + follow]
            if next_byte < low or next_byte > high:
                return index, "bytes 0x%02x 0x%02x are not UTF-8" % (byte, next_byte)
            low = 0x80
            high = 0xBF
            follow += 1
        index += count + 1
    return None


def _line_at(data, offset):
    return data[:offset].count(b"\n") + 1


def script_lines(source):
    """The lines of a script (bytes, or text as a test writes it), without line ends.

    Raises ScriptError at the first byte that is not UTF-8 text or is a
    control character; a byte-order mark at the start is skipped.
    """
    data = source
    if isinstance(source, str):
        try:
            data = source.encode("utf-8")
        except UnicodeError:
            raise ScriptError(0, "not UTF-8 text")
    if len(data) > MAX_BYTES:
        raise ScriptError(
            _line_at(data, MAX_BYTES), "the script is longer than %d bytes" % MAX_BYTES
        )
    start = 3 if data[:3] == b"\xef\xbb\xbf" else 0
    problem = _text_error(data[start:])
    if problem is not None:
        offset, what = problem
        raise ScriptError(_line_at(data, start + offset), what)
    lines = data[start:].split(b"\n")
    for index, line in enumerate(lines):
        if line.endswith(b"\r"):
            line = line[:-1]
        if len(line) > MAX_LINE_BYTES:
            raise ScriptError(index + 1, "the line is longer than %d bytes" % MAX_LINE_BYTES)
        lines[index] = line.decode("utf-8")
    return lines


def _check_ascii(statement, number):
    """Statements are ASCII: numbers in digits 0-9 only, on both lanes alike."""
    if len(statement.encode("utf-8")) == len(statement):
        return
    for char in statement:
        if ord(char) > 0x7F:
            raise ScriptError(
                number,
                "character U+%04X in a statement: statements are ASCII, numbers digits 0-9"
                % ord(char),
            )


def parse_seconds(text):
    """``S[.fff]`` seconds as integer milliseconds; ValueError if it is not one."""
    if text.count(".") > 1 or not text:
        raise ValueError("bad number %r" % text)
    whole, _, fraction = text.partition(".")
    if not whole.isdigit() or (fraction and not fraction.isdigit()) or len(fraction) > 3:
        raise ValueError("%r is not seconds with at most 3 decimals" % text)
    if len(whole.lstrip("0")) > _MAX_DIGITS:
        raise ValueError("%r is more than a clock can hold" % text)
    return int(whole) * 1000 + int((fraction + "000")[:3])


def parse_duration(text):
    """``[[H:]M:]S[.fff]`` as integer milliseconds."""
    parts = text.split(":")
    if len(parts) > 3:
        raise ValueError("%r is not [[H:]M:]S[.fff]" % text)
    total = parse_seconds(parts[-1])
    scale = 60_000
    for part in reversed(parts[:-1]):
        if not part.isdigit():
            raise ValueError("%r is not [[H:]M:]S[.fff]" % text)
        if len(part.lstrip("0")) > _MAX_DIGITS:
            raise ValueError("%r is more than a clock can hold" % text)
        total += int(part) * scale
        scale *= 60
    if len(parts) > 1 and parse_seconds(parts[-1]) >= 60_000:
        raise ValueError("%r: seconds must be under 60" % text)
    return total


def split_words(line, number):
    """Split on spaces, keeping double-quoted values whole (quotes removed).

    Each word is cut out of the line with slices, never built a character at a
    time, so a long line reads in linear time on both lanes.
    """
    words = []
    pieces = []  # the slices of the word being read
    quoted = False
    started = False
    begin = 0  # where the current slice begins
    for index, char in enumerate(line):
        if char == '"':
            pieces.append(line[begin:index])
            begin = index + 1
            quoted = not quoted
            started = True
        elif (char == " " or char == "\t") and not quoted:
            if started:
                pieces.append(line[begin:index])
                words.append("".join(pieces))
            pieces = []
            started = False
            begin = index + 1
        else:
            started = True
    if quoted:
        raise ScriptError(number, "unclosed double quote")
    if started:
        pieces.append(line[begin:])
        words.append("".join(pieces))
    return words


def _strip_comment(line):
    quoted = False
    for index, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        elif char == "#" and not quoted:
            return line[:index]
    return line


def _control(text, number):
    try:
        timecontrol.parse(text)
    except ValueError as error:
        raise ScriptError(number, "control %r cannot be played: %s" % (text, error))
    return text


def _control_pair(left, right, number):
    try:
        timecontrol.check_pair(timecontrol.parse(left), timecontrol.parse(right))
    except ValueError as error:
        raise ScriptError(number, "controls cannot be played together: %s" % error)


def _header(script, words, number):
    keyword = words[0]
    arguments = words[1:]
    if keyword == "control":
        if len(arguments) == 1 and "=" not in arguments[0]:
            script.control_left = script.control_right = _control(arguments[0], number)
            return
        sides = {}
        for argument in arguments:
            side, _, value = argument.partition("=")
            if side not in SIDES or not value or side in sides:
                raise ScriptError(number, "expected: control TC, or control left=TC right=TC")
            sides[side] = _control(value, number)
        if len(sides) != 2:
            raise ScriptError(number, "control left=TC right=TC needs both sides")
        _control_pair(sides["left"], sides["right"], number)
        script.control_left = sides["left"]
        script.control_right = sides["right"]
    elif keyword == "quickplay":
        if len(arguments) != 1 or arguments[0] not in claims.QUICKPLAY:
            raise ScriptError(number, "quickplay must be one of " + ", ".join(claims.QUICKPLAY))
        script.quickplay = arguments[0]
        script.setting_line = number
    elif keyword == "edition":
        if len(arguments) != 1 or arguments[0] not in claims.EDITIONS:
            raise ScriptError(number, "edition must be one of " + ", ".join(claims.EDITIONS))
        script.edition = arguments[0]
        script.setting_line = number
    elif keyword == "bounce":
        if len(arguments) != 1 or not arguments[0].isdigit():
            raise ScriptError(number, "expected: bounce MS (whole milliseconds)")
        if len(arguments[0].lstrip("0")) > 2:
            raise ScriptError(number, "bounce over %d ms is not a contact" % _MAX_BOUNCE_MS)
        script.bounce_ms = int(arguments[0])
        if script.bounce_ms > _MAX_BOUNCE_MS:
            raise ScriptError(number, "bounce over %d ms is not a contact" % _MAX_BOUNCE_MS)
    elif keyword == "ticks":
        if arguments != ["near-wrap"]:
            raise ScriptError(number, "expected: ticks near-wrap")
        script.near_wrap = True
    elif keyword == "at":
        raise ScriptError(number, "internal: at in header")
    else:
        raise ScriptError(number, "unknown statement %r" % keyword)


def _expectation(word, number):
    field, sign, value = word.partition("=")
    if not sign:
        raise ScriptError(number, "expected FIELD=VALUE, got %r" % word)
    if field not in FIELDS:
        raise ScriptError(number, "unknown field %r in expect" % field)
    tolerance = None
    if "~" in value and field in TIME_FIELDS:
        value, _, tolerance_text = value.partition("~")
        try:
            tolerance = parse_seconds(tolerance_text)
        except ValueError:
            raise ScriptError(number, "bad tolerance %r" % tolerance_text)
    if field in TIME_FIELDS:
        try:
            value = parse_duration(value)
        except ValueError as error:
            raise ScriptError(number, "%s: %s" % (field, error))
    elif field == "moves" and not value.isdigit():
        raise ScriptError(number, "moves must be a whole number, got %r" % value)
    return (field, value, tolerance)


def _action(words, number):
    action = words[0]
    arguments = words[1:]
    if action in ("press", "unplug", "plug", "brownout"):
        if len(arguments) != 1 or arguments[0] not in SIDES:
            raise ScriptError(number, "expected: %s left|right" % action)
        return action, arguments
    if action in ("pause", "resume", "show", "claim"):
        if arguments:
            raise ScriptError(number, "%s takes no argument" % action)
        return action, arguments
    if action == "expect":
        if not arguments:
            raise ScriptError(number, "expect needs at least one FIELD=VALUE")
        return action, [_expectation(word, number) for word in arguments]
    if action in ("key", "hold") and arguments and arguments[0] not in KEY_NAMES:
        raise ScriptError(
            number, "no key %r; the keys are %s" % (arguments[0], ", ".join(KEY_NAMES))
        )
    if action == "key":
        if len(arguments) != 1:
            raise ScriptError(number, "expected: key NAME")
        return action, arguments
    if action == "hold":
        if len(arguments) != 2:
            raise ScriptError(number, "expected: hold NAME SECONDS")
        try:
            held = parse_seconds(arguments[1])
        except ValueError as error:
            raise ScriptError(number, "hold: %s" % error)
        if held > MAX_HOLD_MS:
            raise ScriptError(number, "hold: at most %d s" % (MAX_HOLD_MS // 1000))
        return action, [arguments[0], held]
    if action == "decide":
        if len(arguments) != 1 or arguments[0] not in OUTCOMES:
            raise ScriptError(number, "decide must be one of " + ", ".join(OUTCOMES))
        return action, arguments
    if action == "add":
        if len(arguments) != 2 or arguments[0] not in SIDES or arguments[1][:1] not in "+-":
            raise ScriptError(number, "expected: add left|right +DURATION or -DURATION")
        try:
            amount = parse_duration(arguments[1][1:])
        except ValueError as error:
            raise ScriptError(number, "add: %s" % error)
        if amount > MAX_ADD_MS:
            raise ScriptError(number, "add: at most 9:59:59 in one correction")
        return action, [arguments[0], -amount if arguments[1][0] == "-" else amount]
    if action == "setmoves":
        with_time = arguments[1:] == ["time"]
        if len(arguments) != (2 if with_time else 1) or not arguments[0].isdigit():
            raise ScriptError(number, "expected: setmoves N or setmoves N time")
        if len(arguments[0].lstrip("0")) > 4:
            raise ScriptError(number, "setmoves: the move counter shows at most %d" % MAX_MOVES)
        return action, [int(arguments[0])] + (["time"] if with_time else [])
    if action == "power":
        if arguments not in (["off"], ["on"]):
            raise ScriptError(number, "expected: power off|on")
        return action, arguments
    raise ScriptError(number, "unknown action %r" % action)


def _key_presses(action, arguments, moves_bound):
    """Short presses an arbiter statement takes at most (its long press aside)."""
    if action == "add":
        presses = 2  # the lever, then play
        left = abs(arguments[1])
        for unit in arbiter.UNITS_MS:
            presses += left // unit
            left %= unit
            if not left:
                break
            presses += 1  # set: the next unit
        return presses + _SPARE_PRESSES
    if action == "setmoves":
        # from the counter (at most moves_bound) to N, one press a move, then play
        return max(arguments[0], moves_bound) + 1 + _SPARE_PRESSES
    return 5 + _SPARE_PRESSES  # claim, decide: a postponed claim's ruling is the longest


def parse(source):
    """Read a whole clock script; raise ScriptError at the first problem."""
    script = Script()
    last_time = 0
    timed = False
    powered = True
    keys_ms = 0  # virtual time the arbiter's key sequences take at most
    moves_bound = 0  # the most the move counter can show: one move a press at most
    for number, raw in enumerate(script_lines(source), 1):
        statement = _strip_comment(raw)
        _check_ascii(statement, number)
        words = split_words(statement, number)
        if not words:
            continue
        if words[0] != "at":
            if timed:
                raise ScriptError(number, "header statement %r after the first 'at'" % words[0])
            _header(script, words, number)
            continue
        timed = True
        if len(script.statements) >= MAX_STATEMENTS:
            raise ScriptError(number, "more than %d timed statements" % MAX_STATEMENTS)
        if len(words) < 3:
            raise ScriptError(number, "expected: at T ACTION")
        try:
            time_ms = parse_seconds(words[1])
        except ValueError as error:
            raise ScriptError(number, "time: %s" % error)
        if time_ms < last_time:
            raise ScriptError(
                number,
                "time goes backwards (%s after %d.%03d)"
                % (words[1], last_time // 1000, last_time % 1000),
            )
        last_time = time_ms
        action, arguments = _action(words[2:], number)
        if action in NOT_YET:
            raise ScriptError(number, "'%s' is not supported by this firmware yet" % action)
        if action == "power":
            wanted_on = arguments[0] == "on"
            if wanted_on == powered:
                raise ScriptError(number, "the power is already %s" % arguments[0])
            powered = wanted_on
        elif action in NEEDS_POWER and not powered:
            raise ScriptError(number, "'%s' needs the clock on: the power is off" % action)
        if action == "press" or (action in ("key", "hold") and arguments[0][:6] == "lever_"):
            moves_bound += 1
        elif action in ARBITER:
            presses = _key_presses(action, arguments, moves_bound)
            keys_ms += LONG_STEP_MS + presses * KEY_STEP_MS
            if action == "setmoves":
                moves_bound = max(arguments[0], moves_bound)
        if time_ms + keys_ms > MAX_SCRIPT_MS:
            raise ScriptError(
                number,
                "the script would run %s s of virtual time (%s s of it the arbiter's key "
                "sequences); a script runs at most %d s"
                % (_seconds(time_ms + keys_ms), _seconds(keys_ms), MAX_SCRIPT_MS // 1000),
            )
        script.statements.append((number, time_ms, action, arguments))
    if script.control_left is None:
        raise ScriptError(0, "no control statement: the script must set a time control")
    try:
        claims.check_setting(script.quickplay, script.edition)
    except ValueError as error:
        raise ScriptError(script.setting_line, "event setting: %s" % error)
    return script


def _seconds(ms):
    return "%d.%03d" % (ms // 1000, ms % 1000)
