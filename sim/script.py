"""Clock scripts: reading the scenario language of SCENARIOS.md.

``parse(text)`` returns a ``Script`` or raises ``ScriptError`` naming the
line and what is wrong; nothing is run for a malformed script.
"""

from firmware import claims, timecontrol
from firmware.inputs import NAMES as KEY_NAMES

QUICKPLAY = ("off", "g4-increment", "g4-delay", "g5", "g6")
EDITIONS = ("appendix-g", "2015", "older")
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
_MAX_BOUNCE_MS = 50


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


def parse_seconds(text):
    """``S[.fff]`` seconds as integer milliseconds; ValueError if it is not one."""
    if text.count(".") > 1 or not text:
        raise ValueError("bad number %r" % text)
    whole, _, fraction = text.partition(".")
    if not whole.isdigit() or (fraction and not fraction.isdigit()) or len(fraction) > 3:
        raise ValueError("%r is not seconds with at most 3 decimals" % text)
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
        total += int(part) * scale
        scale *= 60
    if len(parts) > 1 and parse_seconds(parts[-1]) >= 60_000:
        raise ValueError("%r: seconds must be under 60" % text)
    return total


def split_words(line, number):
    """Split on spaces, keeping double-quoted values whole (quotes removed)."""
    words = []
    current = ""
    quoted = False
    started = False
    for char in line:
        if char == '"':
            quoted = not quoted
            started = True
        elif char in " \t" and not quoted:
            if started:
                words.append(current)
            current = ""
            started = False
        else:
            current += char
            started = True
    if quoted:
        raise ScriptError(number, "unclosed double quote")
    if started:
        words.append(current)
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
        script.control_left = sides["left"]
        script.control_right = sides["right"]
    elif keyword == "quickplay":
        if len(arguments) != 1 or arguments[0] not in QUICKPLAY:
            raise ScriptError(number, "quickplay must be one of " + ", ".join(QUICKPLAY))
        script.quickplay = arguments[0]
        script.setting_line = number
    elif keyword == "edition":
        if len(arguments) != 1 or arguments[0] not in EDITIONS:
            raise ScriptError(number, "edition must be one of " + ", ".join(EDITIONS))
        script.edition = arguments[0]
        script.setting_line = number
    elif keyword == "bounce":
        if len(arguments) != 1 or not arguments[0].isdigit():
            raise ScriptError(number, "expected: bounce MS (whole milliseconds)")
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
    if action in ("press", "unplug", "plug"):
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
            return action, [arguments[0], parse_seconds(arguments[1])]
        except ValueError as error:
            raise ScriptError(number, "hold: %s" % error)
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
        return action, [arguments[0], -amount if arguments[1][0] == "-" else amount]
    if action == "setmoves":
        with_time = arguments[1:] == ["time"]
        if len(arguments) != (2 if with_time else 1) or not arguments[0].isdigit():
            raise ScriptError(number, "expected: setmoves N or setmoves N time")
        return action, [int(arguments[0])] + (["time"] if with_time else [])
    if action == "power":
        if arguments not in (["off"], ["on"]):
            raise ScriptError(number, "expected: power off|on")
        return action, arguments
    raise ScriptError(number, "unknown action %r" % action)


def parse(text):
    """Read a whole clock script; raise ScriptError at the first problem."""
    script = Script()
    last_time = 0
    timed = False
    powered = True
    for number, raw in enumerate(text.split("\n"), 1):
        words = split_words(_strip_comment(raw), number)
        if not words:
            continue
        if words[0] != "at":
            if timed:
                raise ScriptError(number, "header statement %r after the first 'at'" % words[0])
            _header(script, words, number)
            continue
        timed = True
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
        script.statements.append((number, time_ms, action, arguments))
    if script.control_left is None:
        raise ScriptError(0, "no control statement: the script must set a time control")
    try:
        claims.check_setting(script.quickplay, script.edition)
    except ValueError as error:
        raise ScriptError(script.setting_line, "event setting: %s" % error)
    return script
