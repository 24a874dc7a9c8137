"""The clock's files read at boot, and the error codes a file it cannot use shows.

A file that cannot be used never stops the clock: its defaults stay in force,
the file is renamed ``NAME.bad`` for inspection (the next save writes a good
one), and the display shows a code for 3 s at boot:

- ``Err1`` settings, ``Err2`` the user slots, ``Err3`` the game journal: the
  file is empty, truncated, random bytes, not the shape the clock writes, or
  holds a value the clock cannot use;
- ``vEr1``, ``vEr2``, ``vEr3``: the same file was written by a newer version
  of the firmware (its ``version`` is above ``FORMAT_VERSION``).

A missing file is no error: the defaults are what a new clock has.
"""

import json

from micropython import const

from firmware.files import FORMAT_VERSION

SETTINGS = const(1)
USER_SLOTS = const(2)
JOURNAL = const(3)

BAD = "Err"
NEWER = "vEr"


def code(kind, number):
    """The 4-character display code: ``Err1``, ``vEr3``..."""
    return "%s%d" % (kind, number)


class Unusable(Exception):
    """A file the clock cannot use: ``kind`` is ``BAD`` or ``NEWER``; ``why`` says what."""

    def __init__(self, kind, why):
        super().__init__(why)
        self.kind = kind
        self.why = why


def check_version(data):
    """Raise Unusable unless ``data`` is a JSON object of this firmware's format.

    A document without ``version`` was written before versions were kept and
    counts as version 1.
    """
    if not isinstance(data, dict):
        raise Unusable(BAD, "not a JSON object")
    version = data.get("version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise Unusable(BAD, "version %r is not a version number" % (version,))
    if version > FORMAT_VERSION:
        raise Unusable(NEWER, "written by a newer firmware (version %d)" % version)


_DEPTH = const(16)  # the clock's documents nest 2 deep; deeper is no document of the clock
# What the reader expects next.
_VALUE = const(0)
_FIRST_VALUE = const(1)  # a value or "]", right after "["
_KEY = const(2)
_FIRST_KEY = const(3)  # a key or "}", right after "{"
_COLON = const(4)
_NEXT = const(5)  # "," or the container's close, after a value


def _string(data, at):
    """The index after the string that starts at ``at``: printable ASCII and escapes."""
    size = len(data)
    at += 1
    while at < size:
        char = data[at]
        if char == 0x22:
            return at + 1
        if char == 0x5C:
            at += 1
            if at >= size or data[at] not in b'"\\/bfnrtu':
                break
            if data[at] == 0x75:
                for digit in data[at + 1 : at + 5]:
                    if digit not in b"0123456789abcdefABCDEF":
                        raise ValueError("bad \\u escape at byte %d" % at)
                at += 4
        elif char < 0x20 or char > 0x7E:
            raise ValueError("byte 0x%02x in a string at byte %d" % (char, at))
        at += 1
    raise ValueError("a string not closed, or a bad escape, at byte %d" % at)


def _number(data, at):
    """The index after the number that starts at ``at`` (JSON's grammar, no NaN)."""
    start = at
    size = len(data)
    if at < size and data[at] == 0x2D:
        at += 1
    digits = at
    while at < size and 0x30 <= data[at] <= 0x39:
        at += 1
    if at == digits or (data[digits] == 0x30 and at - digits > 1):
        raise ValueError("no JSON value at byte %d" % start)
    for marks in (b".", b"eE"):
        if at < size and data[at] in marks:
            at += 1
            if marks == b"eE" and at < size and data[at] in b"+-":
                at += 1
            digits = at
            while at < size and 0x30 <= data[at] <= 0x39:
                at += 1
            if at == digits:
                raise ValueError("a number cut short at byte %d" % at)
    return at


def check_json(data):
    """Raise ValueError unless ``data`` (bytes) is one strict JSON document (RFC 8259)
    of ASCII text, nested at most 16 deep. MicroPython's own reader takes more
    (trailing commas, missing commas, leading zeros): this check makes every
    lane read a file alike, and deep nesting is refused before any recursion."""
    size = len(data)
    stack = []  # the open containers' first bytes
    at = 0
    want = _VALUE
    while True:
        while at < size and data[at] in b" \t\n\r":
            at += 1
        if at >= size:
            break
        char = data[at]
        if want == _NEXT:
            if not stack:
                raise ValueError("more after the document at byte %d" % at)
            if char == 0x2C:
                want = _KEY if stack[-1] == 0x7B else _VALUE
            elif char == stack[-1] + 2:  # "[" + 2 is "]", "{" + 2 is "}"
                stack.pop()
            else:
                raise ValueError("expected , or a close at byte %d" % at)
            at += 1
            continue
        if want == _COLON:
            if char != 0x3A:
                raise ValueError("expected : at byte %d" % at)
            at += 1
            want = _VALUE
            continue
        if (want == _FIRST_VALUE or want == _FIRST_KEY) and char == stack[-1] + 2:
            stack.pop()
            at += 1
            want = _NEXT
            continue
        if want == _KEY or want == _FIRST_KEY:
            if char != 0x22:
                raise ValueError("expected a key at byte %d" % at)
            at = _string(data, at)
            want = _COLON
            continue
        if char == 0x5B or char == 0x7B:
            if len(stack) >= _DEPTH:
                raise ValueError("nested more than %d deep" % _DEPTH)
            stack.append(char)
            at += 1
            want = _FIRST_VALUE if char == 0x5B else _FIRST_KEY
            continue
        if char == 0x22:
            at = _string(data, at)
        elif char in b"tfn":
            for word in (b"true", b"false", b"null"):
                if data[at : at + len(word)] == word:
                    at += len(word)
                    break
            else:
                raise ValueError("no JSON value at byte %d" % at)
        else:
            at = _number(data, at)
        want = _NEXT
    if want != _NEXT or stack:
        raise ValueError("not a whole JSON document")


def read(storage, name):
    """The JSON document ``name`` decoded, None if there is no such file; ValueError
    if it is not one (``check_json``). A file holding ``null`` is there, and no
    document: Unusable, never taken for a missing file."""
    data = storage.read_bytes(name)
    if data is None:
        return None
    check_json(data)
    document = json.loads(data.decode("utf-8"))
    if document is None:
        raise Unusable(BAD, "not a JSON object")
    return document


def load(storage, name, apply):
    """Read ``name`` and hand the decoded object to ``apply(data)``.

    Returns None if the file is missing or was used, else the ``Unusable``
    problem, after renaming the file ``name.bad``. ``apply`` raises
    ValueError (or any other error) for content it cannot use, and must
    change nothing in that case.
    """
    try:
        data = read(storage, name)
        if data is None:
            return None
        check_version(data)
        apply(data)
        return None
    except Unusable as problem:
        failure = problem
    except Exception as error:  # never a crash: anything wrong in the file is a bad file
        failure = Unusable(BAD, "%s: %s" % (type(error).__name__, error))
    try:
        storage.set_aside(name)
    except OSError:
        pass  # the flash refuses the rename: the defaults still hold, the code still shows
    return failure
