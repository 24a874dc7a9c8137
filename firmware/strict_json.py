"""The one strict reading of JSON text: files, event-log lines, the hall's pushes.

``loads(data)`` checks that ``data`` (bytes, or text as its UTF-8) is one
strict JSON document (RFC 8259) of ASCII text, escapes allowed, nested at
most 16 deep, and only then decodes it; ValueError otherwise. The
interpreters' own readers differ: MicroPython's takes trailing and missing
commas and leading zeros, CPython's takes NaN and Infinity. Through this
check every lane reads a text alike, and deep nesting is refused before any
recursion. Loaded where text is first read (boot, the setup menus, a push).
"""

import json

from micropython import const

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


def check(data):
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


def _hex4(data, at):
    return int(bytes(data[at : at + 4]), 16)  # four hex digits, checked by _string


def _pairs_joined(data):
    """``data`` (a checked document) with each surrogate pair escape, as the clock
    writes a character past U+FFFF (``hal.storage``), put as the character's UTF-8:
    MicroPython's ``json`` made two surrogates of a pair where CPython's made one
    character, so neither reads the pair. A surrogate escape alone is refused."""
    if b"\\ud" not in data and b"\\uD" not in data:
        return data  # the usual document: nothing to join, nothing allocated
    out = bytearray()
    start = at = 0
    inside = False
    while at < len(data):
        char = data[at]
        if char == 0x22:
            inside = not inside
        elif inside and char == 0x5C:
            if data[at + 1] != 0x75:
                at += 2  # another escape: kept as it is
                continue
            code = _hex4(data, at + 2)
            if 0xDC00 <= code <= 0xDFFF:
                raise ValueError("a low surrogate alone at byte %d" % at)
            if 0xD800 <= code <= 0xDBFF:
                low = _hex4(data, at + 8) if data[at + 6 : at + 8] == b"\\u" else 0
                if not 0xDC00 <= low <= 0xDFFF:
                    raise ValueError("a high surrogate alone at byte %d" % at)
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                out += data[start:at]
                out += bytes(
                    (
                        0xF0 | code >> 18,
                        0x80 | (code >> 12) & 0x3F,
                        0x80 | (code >> 6) & 0x3F,
                        0x80 | code & 0x3F,
                    )
                )
                at += 12
                start = at
                continue
            at += 6
            continue
        at += 1
    return bytes(out + data[start:])


def loads(data):
    """The JSON document ``data`` (bytes or text) decoded; ValueError if it is not one.
    A character past U+FFFF, escaped as a surrogate pair, is one character on every
    lane; a surrogate escape alone is refused."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    check(data)
    return json.loads(_pairs_joined(data).decode("utf-8"))
