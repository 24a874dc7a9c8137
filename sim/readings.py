"""What the clock makes of a text, printed the same way on both lanes.

Every text the clock reads goes through one strict reading: the flash files
and the event log, the arbiter's settings push, the time controls inside them
(``firmware.strict_json``, ``firmware.control_parser``). This module feeds
texts to those readers and prints one line per text, so that CPython and
MicroPython can be compared line for line::

    python -m sim.readings SEED COUNT
    node tools/mpy/run.mjs sim.readings SEED COUNT

``COUNT`` texts are made from ``SEED`` by a 32-bit xorshift generator, the same
bytes on every lane: time controls with white space and non-ASCII characters
around or inside them, settings pushes and settings, slots and hall files in
JSON's variants (trailing commas, leading zeros, NaN, escapes, raw UTF-8,
nesting, long strings). Each line is ``N KIND HEX: OUTCOME``; the outcome names
only what the clock decided (a code, a control's periods), never an
interpreter's own wording.
"""

import os

from firmware import files

CONTROLS = ("300", "300+3", "40/5400+30:1800+30", "5400d5", "60j30x5", "*60", "0", "90c5/60")
# ASCII white space, then other Unicode spaces and marks a str.strip() may take
SPACES = (" ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\xa0", "\u2003", "\u3000")
SPACES += ("\ufeff", "\u200b", "\u0663", "\uff13", "\xb2")
# JSON texts a strict reader refuses, some of which one interpreter or the other takes
VARIANTS = (
    '{"id": "p1", "control": %s,}',  # trailing comma
    '{"id": "p1", "control": %s "quickplay": "off"}',  # missing comma
    '{"id": "p1", "control": %s, "x": 007}',  # leading zeros
    '{"id": "p1", "control": %s, "x": NaN}',
    '{"id": "p1", "control": %s, "x": -Infinity}',
    "{'id': 'p1', 'control': %s}",  # single quotes
    '{"id": "p1", "control": %s} // comment',
    '\ufeff{"id": "p1", "control": %s}',  # a byte-order mark
    '{"id": "p1", "control": %s}',  # good JSON
    '{"id": "p1", "control": %s, "id": "p2"}',  # a key twice
    '{"id": "p1",\xa0"control": %s}',  # a Unicode space between tokens
    '{"id": "p\\u00e9", "control": %s}',  # an escaped non-ASCII id
    '{"id": "p1", "control": %s, "x": 1e999}',
    '[{"id": "p1", "control": %s}]',
    '{"id": "p1", "control": %s, "x": [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]}',
    '{"id": "p1", "control": %s, "x": "%s"}',  # a long string
    "null",
)


HALL_COUNT = 400  # messages read by the hall, after the split inputs


class Random:
    """xorshift32: the same numbers on every lane."""

    def __init__(self, seed):
        self.state = (seed * 2654435761 + 7) & 0xFFFFFFFF or 1

    def below(self, n):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x % n

    def pick(self, items):
        return items[self.below(len(items))]


def _escaped(text):
    """``text`` as a JSON string: non-ASCII and control characters as \\u escapes."""
    out = []
    for char in text:
        code = ord(char)
        if char == '"' or char == "\\":
            out.append("\\" + char)
        elif code < 0x20 or code > 0x7E:
            if code > 0xFFFF:
                code -= 0x10000
                out.append("\\u%04x\\u%04x" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)))
            else:
                out.append("\\u%04x" % code)
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def control_text(rng):
    """A time control, often wrapped in or broken by white space or other characters."""
    text = rng.pick(CONTROLS)
    choice = rng.below(4)
    if choice == 0:
        text = rng.pick(SPACES) + text
    elif choice == 1:
        text = text + rng.pick(SPACES)
    elif choice == 2:
        at = rng.below(len(text) + 1)
        text = text[:at] + rng.pick(SPACES) + text[at:]
    return text


def json_text(rng):
    """A settings push or file in one of JSON's variants (``VARIANTS``)."""
    control = control_text(rng)
    quoted = _escaped(control) if rng.below(2) else '"' + control + '"'  # escaped or raw
    variant = rng.pick(VARIANTS)
    if variant.count("%s") == 2:
        return variant % (quoted, "y" * (1000 + rng.below(20000)))
    if "%s" in variant:
        return variant % quoted
    return variant


def _hex(data):
    return "".join("%02x" % byte for byte in data[:24]) + ("..." if len(data) > 24 else "")


def _control(text):
    from firmware import timecontrol

    try:
        control = timecontrol.parse(text)
    except ValueError:
        return "refused"
    return "%s %r" % (_escaped(control.text), control.periods)


def _write(folder, name, data):
    with open(folder + "/" + name, "wb") as handle:
        handle.write(data)


def exists(folder, name):
    """Whether the simulated flash ``folder`` holds the file ``name``."""
    try:
        os.stat(folder + "/" + name)
    except OSError:
        return False
    return True


def _file(folder, name, data):
    """What boot makes of ``data`` as file ``name``: its code, the control, set aside."""
    from firmware import hall_settings, settings_file
    from firmware.boot import documents, resume
    from hal.storage import Files, Storage
    from sim.world import remove_flash

    remove_flash(folder, keep_folder=True)
    _write(folder, name, data)
    storage = Storage(folder, Files())
    if name == files.SETTINGS:
        settings = settings_file.load(storage)
        outcome = "%s %s" % (settings.error_code, _escaped(settings.control_left))
    elif name == files.USER_SLOTS:
        problem = documents.load(storage, name, resume.check_slots)
        outcome = "ok" if problem is None else documents.code(problem.kind, 2)
    else:
        hall, code = hall_settings.load(storage)
        outcome = "%s %s" % (code, "none" if hall is None else hall.board)
    return outcome + (" set aside" if exists(folder, name + ".bad") else "")


def _push(board, data):
    """What a clock in setup makes of the settings push ``data``: outcome, control."""
    from firmware import hall_push

    push, push_id = hall_push.take(board.app, data, "none", None)
    settings = board.app.settings
    wanted = "none" if push_id is None else _escaped(push_id)
    return "%s %s %s %s" % (
        push,
        wanted,
        _escaped(settings.control_left),
        _escaped(settings.control_right),
    )


def run(seed, count, emit, cases=None):
    """Read ``count`` texts made from ``seed``; ``emit(line)`` each outcome.
    ``cases``: a list to which each ``(kind, bytes, outcome)`` is appended."""
    from sim.world import SimBoard, fresh_flash, remove_flash

    rng = Random(seed)
    folder = fresh_flash()
    flash = fresh_flash()
    try:
        board = SimBoard(flash)
        board.boot()
        for case in range(count):
            kind = rng.pick(("control", "push", files.SETTINGS, files.USER_SLOTS, files.HALL))
            if kind == "control":
                text = control_text(rng)
                data = text.encode("utf-8")
                outcome = _control(text)
            elif kind == "push":
                data = json_text(rng).encode("utf-8")
                outcome = _push(board, data)
            else:
                text = json_text(rng)
                if kind == files.USER_SLOTS:
                    text = text.replace('"id": "p1", "control"', '"3": {"control_left"')
                    text = text.replace('"id": "p\\u00e9", "control"', '"3": {"control_left"')
                    text = text.replace("}", "}}", 1) if text.startswith("{") else text
                elif kind == files.HALL:
                    text = text.replace('"id"', '"broker": "10.0.0.1", "board": 3, "ssid"')
                else:
                    text = text.replace('"id"', '"quickplay": "off", "name"')
                    text = text.replace('"control"', '"control_left"')
                data = text.encode("utf-8")
                outcome = _file(folder, kind, data)
            emit("%d %s %s: %s" % (case, kind, _hex(data), outcome))
            if cases is not None:
                cases.append((kind, data, outcome))
    finally:
        remove_flash(folder)
        remove_flash(flash)


# Text the clock writes itself (a hall file's Wi-Fi name, kept when the board's
# number changes): accents, other scripts, a no-break space, DEL, escapes.
WRITTEN = (
    "Caf\u00e9",
    "\u0141\u00f3d\u017a hall",
    "\u30db\u30fc\u30eb",
    "a\u00a0b",
    "del\x7f",
    'q"b\\t\t',
    "\U0001f600 hall",  # past U+FFFF: written as a surrogate pair
    "a\u00e9\U0001f600",
)
# Surrogate escapes in a document, as firmware.strict_json reads them: a pair is one
# character, a surrogate alone is refused, an escaped backslash before "ud83d" is text.
SURROGATES = (
    b'{"a": "\\ud83d\\ude00"}',
    b'{"a": "\\uD83D\\uDE00x"}',
    b'{"a": "\\ud83d"}',
    b'{"a": "\\ud83dx\\ude00"}',
    b'{"a": "\\ude00\\ud83d"}',
    b'{"a": "\\\\ud83d"}',
    b'{"a": "\\u00e9\\ud800\\udc00"}',
)


def surrogates(emit):
    """Each document of ``SURROGATES`` read strictly: ``emit`` its text's code points."""
    from firmware import strict_json

    for index, data in enumerate(SURROGATES):
        try:
            text = strict_json.loads(data)["a"]
            outcome = " ".join("%x" % ord(char) for char in text)
        except ValueError:
            outcome = "refused"
        emit("surrogates %d %s: %s" % (index, _hex(data), outcome))


def round_trips(emit):
    """Each text of ``WRITTEN`` in a document the clock writes (``Storage.write_json``)
    and reads back (``Storage.read_json``): ``emit`` whether it came back the same."""
    from hal.storage import Files, Storage
    from sim.world import fresh_flash, remove_flash

    folder = fresh_flash()
    try:
        storage = Storage(folder, Files())
        for index, text in enumerate(WRITTEN):
            storage.write_json(files.HALL, {"ssid": text, "board": 3})
            try:
                back = storage.read_json(files.HALL)["ssid"]
                outcome = "kept" if back == text else "changed to %s" % _hex(back.encode("utf-8"))
            except ValueError as error:
                outcome = "refused: %s" % error
            emit("written %d %s: %s" % (index, _hex(text.encode("utf-8")), outcome))
    finally:
        remove_flash(folder)


# The hall's reading of a clock's message (firmware.hall_decode): a good message
# whose push id, or an extra key, holds the pieces on which the interpreters' own
# readers split (invalid UTF-8, encoded surrogates, \x escapes, surrogate pairs).
HALL_MESSAGE = (
    b'{"v":2,"board":12,"seq":7,"reason":"change","state":"running","left_ms":298500,'
    b'"right_ms":297000,"to_move":"left","white":"right","moves":1,"left_stage":"1",'
    b'"right_stage":"1","flag_left":false,"flag_right":false,"first_flag":"none",'
    b'"claim":"none","result":"none","push":"none","push_id":%s,"quickplay":"off",'
    b'"battery":"ok"%s}'
)
PAIR = b"\\ud83d\\ude00"  # U+1F600 as JSON's surrogate pair: one code point
SMILE = b"\xf0\x9f\x98\x80"  # the same, raw
# pieces of text every lane must read as the same characters
HALL_GOOD = (b"a", b"\\u00e9", b"\xc3\xa9", PAIR, SMILE, b"\\n", b"\\/", b'\\"', b"\\uD83D\\uDE00")
HALL_GOOD += (b"\xef\xbf\xbf", b"\\u0000", b"\x7f")
# pieces every lane must refuse: invalid UTF-8 (a byte that never starts one, an
# encoded surrogate, overlong forms, past U+10FFFF, cut short), a surrogate alone,
# escapes JSON does not have, a control character
HALL_BAD = (
    b"\xff",
    b"\xed\xa0\xbd",
    b"\xc0\xaf",
    b"\xe0\x80\xaf",
    b"\xf4\x90\x80\x80",
    b"\xe2\x82",
)
HALL_BAD += (
    b"\\ud83d",
    b"\\ude00",
    b"\\ude00\\ud83d",
    b"\\x41",
    b"\\'",
    b"\\u0g00",
    b"\\U00e9",
    b"\x01",
)


def hall_message(push_id, extra=b""):
    """``HALL_MESSAGE`` with the JSON text ``push_id`` (bytes) and ``extra`` keys."""
    return HALL_MESSAGE % (push_id, extra)


def hall_splits():
    """The issue's inputs on which the lanes split, each ``(name, bytes)``."""
    from firmware.hall_decode import MAX_BYTES

    good = hall_message(b"null")
    cases = [
        ("invalid UTF-8", hall_message(b'"p\xff"')),
        ("encoded surrogates", hall_message(b'"\xed\xa0\xbd\xed\xb8\x80"')),
        ("overlong slash", hall_message(b'"\xc0\xaf"')),
        ("past U+10FFFF", hall_message(b'"\xf4\x90\x80\x80"')),
        ("cut short", hall_message(b'"\xe2\x82"')),
        ("x escape", hall_message(b'"\\x41"')),
        ("33 pairs", hall_message(b'"' + PAIR * 33 + b'"')),
        ("64 mixed", hall_message(b'"' + PAIR * 32 + SMILE * 32 + b'"')),
        ("65 mixed", hall_message(b'"' + PAIR * 32 + SMILE * 33 + b'"')),
        ("64 raw", hall_message(b'"' + SMILE * 64 + b'"')),
        ("65 raw", hall_message(b'"' + SMILE * 65 + b'"')),
        ("high alone", hall_message(b'"\\ud83dx"')),
        ("low alone", hall_message(b'"\\ude00"')),
        ("key twice", hall_message(b"null", b',"\xc3\xa9":1,"\\u00e9":2')),
        ("pair key twice", hall_message(b"null", b',"' + PAIR + b'":1,"' + SMILE + b'":2')),
        ("MAX_BYTES", good + b" " * (MAX_BYTES - len(good))),
        ("MAX_BYTES + 1", good + b" " * (MAX_BYTES + 1 - len(good))),
    ]
    return cases


def hall_outcome(data):
    """What the hall makes of the message ``data``: its push id and length, or refused."""
    from firmware import hall_decode

    try:
        message = hall_decode.decode(data)
    except ValueError:
        return "refused"
    push_id = message["push_id"]
    if push_id is None:
        return "ok null"
    return "ok %s %d" % (_escaped(push_id), hall_decode.code_points(push_id))


def hall_readings(seed, count, emit, cases=None):
    """The split inputs, then ``count`` messages made from ``seed``: ``emit`` each
    outcome as ``hall NAME HEX: OUTCOME``. ``cases``: a list to which each random
    message's ``(bytes, good pieces, bad piece or None, in the push id, outcome)``
    is appended."""
    for name, data in hall_splits():
        emit("hall %s %s: %s" % (name.replace(" ", "-"), _hex(data), hall_outcome(data)))
    rng = Random(seed)
    for case in range(count):
        pieces = [rng.pick(HALL_GOOD) for _ in range(rng.below(72))]
        good = len(pieces)
        bad = rng.pick(HALL_BAD) if rng.below(2) else None
        if bad is not None:
            pieces.insert(rng.below(len(pieces) + 1), bad)
        text = b"".join(pieces)
        in_push_id = rng.below(4) != 0
        if in_push_id:
            data = hall_message(b'"' + text + b'"')
        else:  # in a key the view drops
            data = hall_message(b'"id"', b',"k' + text + b'":0')
        outcome = hall_outcome(data)
        emit("hall %d %s: %s" % (case, _hex(data[-48:]), outcome))
        if cases is not None:
            cases.append((data, good, bad, in_push_id, outcome))


def main(argv):
    """``SEED COUNT``: print one line per text read, then the round trips of what the
    clock writes, then the hall's readings of clocks' messages."""
    run(int(argv[0]), int(argv[1]), print)
    round_trips(print)
    surrogates(print)
    hall_readings(int(argv[0]), HALL_COUNT, print)
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
