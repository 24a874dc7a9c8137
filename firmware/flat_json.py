"""One flat JSON object read from UTF-8 bytes, the same on every lane (docs/hall.md).

``read_object`` reads an object one level deep, without recursion, whose
values are texts, whole numbers >= 0, ``true``, ``false`` or ``null``; a key
named twice is refused. The bytes' UTF-8 is checked here (``check_utf8``,
RFC 3629), and a text's escapes are decoded here, JSON's only, a surrogate
pair as one character and a surrogate alone refused: CPython and MicroPython
differ on each of these (MicroPython's decoder takes an encoded surrogate,
its ``json`` makes two characters of a pair), so neither interpreter's
reading is used. ``code_points`` counts a text's length alike on every lane.
Errors name a byte's place, never the bytes read. Pure; runs on MicroPython.
"""

from micropython import const

_MAX_DIGITS = const(10)  # a hall message's numbers are below 2**30
_SPACE = b" \t\r\n"  # JSON's white space, and no other
# JSON's escapes and the character each stands for; \u is read apart
_ESCAPES = {0x22: '"', 0x5C: "\\", 0x2F: "/", 0x62: "\b", 0x66: "\f", 0x6E: "\n", 0x72: "\r"}
_ESCAPES[0x74] = "\t"


def check_utf8(data):
    """Raise ValueError unless the bytes ``data`` are UTF-8 as RFC 3629 defines it: no
    overlong form, no encoded surrogate (U+D800..U+DFFF), nothing past U+10FFFF, no
    sequence cut short. The interpreters' own decoders differ here (MicroPython's
    takes an encoded surrogate), so the project checks it itself."""
    size = len(data)
    at = 0
    while at < size:
        lead = data[at]
        if lead < 0x80:
            at += 1
            continue
        if 0xC2 <= lead <= 0xDF:
            more, low, high = 1, 0x80, 0xBF
        elif lead == 0xE0:
            more, low, high = 2, 0xA0, 0xBF  # not overlong
        elif lead == 0xED:
            more, low, high = 2, 0x80, 0x9F  # not a surrogate
        elif 0xE1 <= lead <= 0xEF:
            more, low, high = 2, 0x80, 0xBF
        elif lead == 0xF0:
            more, low, high = 3, 0x90, 0xBF  # not overlong
        elif 0xF1 <= lead <= 0xF3:
            more, low, high = 3, 0x80, 0xBF
        elif lead == 0xF4:
            more, low, high = 3, 0x80, 0x8F  # not past U+10FFFF
        else:
            raise ValueError("not UTF-8 at byte %d" % at)
        if at + more >= size or not low <= data[at + 1] <= high:
            raise ValueError("not UTF-8 at byte %d" % at)
        for follow in range(at + 2, at + more + 1):
            if data[follow] & 0xC0 != 0x80:
                raise ValueError("not UTF-8 at byte %d" % at)
        at += more + 1


def code_points(text):
    """How many Unicode code points ``text`` holds, counted from its UTF-8 (a
    character outside the first 65,536 is one, on every lane)."""
    count = 0
    for byte in text.encode("utf-8"):
        if byte & 0xC0 != 0x80:
            count += 1
    return count


def _byte(data, at):
    return data[at] if at < len(data) else -1


def _skip_space(data, at):
    while at < len(data) and data[at] in _SPACE:
        at += 1
    return at


def _hex4(data, at):
    """The four hex digits of a \\u escape at ``at``, as a number."""
    if at + 4 > len(data):
        raise ValueError("a \\u escape cut short at byte %d" % at)
    value = 0
    for index in range(at, at + 4):
        byte = data[index]
        if 0x30 <= byte <= 0x39:
            digit = byte - 0x30
        elif 0x61 <= byte | 0x20 <= 0x66:
            digit = (byte | 0x20) - 0x57
        else:
            raise ValueError("a \\u escape without four hex digits at byte %d" % at)
        value = value * 16 + digit
    return value


def _escape_u(data, at):
    """The character of the \\u escape at ``at`` (a surrogate pair is one) and the
    index after it; a surrogate alone is refused (no lane can hold it alike)."""
    code = _hex4(data, at + 2)
    at += 6
    if 0xDC00 <= code <= 0xDFFF:
        raise ValueError("a low surrogate alone at byte %d" % (at - 6))
    if 0xD800 <= code <= 0xDBFF:
        if _byte(data, at) != 0x5C or _byte(data, at + 1) != 0x75:
            raise ValueError("a high surrogate alone at byte %d" % (at - 6))
        low = _hex4(data, at + 2)
        if not 0xDC00 <= low <= 0xDFFF:
            raise ValueError("a high surrogate alone at byte %d" % (at - 6))
        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        at += 6
    return chr(code), at


def _string(data, at):
    """The JSON string starting at ``at`` (its bytes checked UTF-8) and the index after
    it: only JSON's escapes, decoded here rather than by the interpreter."""
    pieces = []
    start = end = at + 1
    size = len(data)
    while True:
        if end >= size:
            raise ValueError("a text without its closing quote")
        byte = data[end]
        if byte == 0x22:
            break
        if byte < 0x20:
            raise ValueError("a control character in a text at byte %d" % end)
        if byte != 0x5C:
            end += 1
            continue
        if end > start:
            pieces.append(data[start:end].decode("utf-8"))
        escape = _byte(data, end + 1)
        if escape == 0x75:
            char, end = _escape_u(data, end)
        elif escape in _ESCAPES:
            char = _ESCAPES[escape]
            end += 2
        else:
            raise ValueError("an escape JSON does not have at byte %d" % end)
        pieces.append(char)
        start = end
    pieces.append(data[start:end].decode("utf-8"))
    return "".join(pieces), end + 1


def _number(data, at):
    end = at
    value = 0
    while end < len(data) and 0x30 <= data[end] <= 0x39:
        if end - at == _MAX_DIGITS:
            raise ValueError("a number of more than %d digits at byte %d" % (_MAX_DIGITS, at))
        value = value * 10 + data[end] - 0x30
        end += 1
    if _byte(data, end) in b".eE":
        raise ValueError("a hall message holds whole numbers only")
    if data[at] == 0x30 and end - at > 1:
        raise ValueError("a number with a leading zero at byte %d" % at)
    return value, end


def _value(data, at):
    first = _byte(data, at)
    if first == 0x22:
        return _string(data, at)
    if 0x30 <= first <= 0x39:
        return _number(data, at)
    for word, value in ((b"true", True), (b"false", False), (b"null", None)):
        if data[at : at + len(word)] == word:
            return value, at + len(word)
    if first < 0:
        raise ValueError("a message that stops short")
    raise ValueError("a value that is not text, a whole number >= 0, true, false or null")


def read_object(data):
    """The flat JSON object ``data`` (UTF-8 bytes, checked by ``check_utf8``, or text)
    as a dict (one level, no key twice); ValueError else."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    at = _skip_space(data, 0)
    if _byte(data, at) != 0x7B:
        raise ValueError("a hall message is a JSON object")
    result = {}
    at = _skip_space(data, at + 1)
    if _byte(data, at) == 0x7D:
        at += 1
    else:
        while True:
            if _byte(data, at) != 0x22:
                raise ValueError("a key must be a text (byte %d)" % at)
            key, at = _string(data, at)
            at = _skip_space(data, at)
            if _byte(data, at) != 0x3A:
                raise ValueError("a key without its value (byte %d)" % at)
            value, at = _value(data, _skip_space(data, at + 1))
            if key in result:
                raise ValueError("a key twice (byte %d)" % at)
            result[key] = value
            at = _skip_space(data, at)
            if _byte(data, at) == 0x2C:
                at = _skip_space(data, at + 1)
            elif _byte(data, at) == 0x7D:
                at += 1
                break
            else:
                raise ValueError("a message that is not one flat JSON object (byte %d)" % at)
    if _skip_space(data, at) != len(data):
        raise ValueError("something after the message (byte %d)" % at)
    return result
