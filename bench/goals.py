"""Whether a figure meets its goal: the one judge of ``make bench``'s table, of each
bench module's own table and of docs/figures.md.

A goal is the text a row shows beside its figure. The forms judged:

- ``<= x``, ``≤ x``, ``< x``, ``>= x``, ``≥ x``, ``> x``: a number ``x`` (thousands
  separated by commas or not), perhaps a unit or a note after it (``≤ 5,000 ms``,
  ``≥ 1000×``, ``< 60 s, DGT 3000 12, 4.8``) and a label before the sign (``p99 <= 100``).
  The unit is not converted: the figure is taken to be in the goal's unit.
- a bare number, perhaps with a unit (``0``, ``0 ms``, ``2,048 B``): equal to it;
- ``yes``/``True`` and ``no``/``False``: the figure is that truth value;
- ``none``: the figure is an empty list (or text, or 0);
- ``all``: a figure written ``N of M`` with N equal to M.

Anything else (``report``, ``flat``, ``≤ the chip's heap``, ``refused, never late``)
is a description, not judged. A list figure (``[a, b]``) meets a comparison or a
number only if each of its items does.
"""

MET = "met"
MISSED = "missed"
NOT_JUDGED = None

MISS_MARK = "MISS"  # what the terminal's tables print after a figure that misses its goal

_SIGNS = (("<=", "<="), ("≤", "<="), (">=", ">="), ("≥", ">="), ("<", "<"), (">", ">"))
_TRUE = ("yes", "true")
_FALSE = ("no", "false")


def _number(text):
    """The number ``text`` begins with (``"5,000 ms"`` -> 5000), or None."""
    digits = ""
    for char in text.strip():
        if char.isdigit() or char in ".-," or (char in "+" and not digits):
            digits += char
        else:
            break
    digits = digits.replace(",", "").rstrip(".")
    try:
        return float(digits)
    except ValueError:
        return None


def parse(goal):
    """``(operator, target)`` of ``goal`` (operators ``<= < >= > ==`` with a number,
    ``is`` with a truth value, ``none``, ``all``), or None if it is not judged."""
    text = str(goal).strip()
    word = text.lower()
    if word in _TRUE:
        return ("is", True)
    if word in _FALSE:
        return ("is", False)
    if word in ("none", "all"):
        return (word, None)
    for sign, operator in _SIGNS:
        if sign in text:
            target = _number(text.split(sign, 1)[1])
            return None if target is None else (operator, target)
    target = _number(text)
    return None if target is None else ("==", target)


def _compare(operator, value, target):
    if operator == "<=":
        return value <= target
    if operator == "<":
        return value < target
    if operator == ">=":
        return value >= target
    if operator == ">":
        return value > target
    return value == target


def _as_number(value):
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        return _plain_number(value)
    return None


def _plain_number(text):
    """``text`` as a number if it is one number alone (``"1,204"``), else None."""
    try:
        return float(text.replace(",", "").strip())
    except ValueError:
        return None


def judge(value, goal):
    """``MET``, ``MISSED`` or ``NOT_JUDGED`` (None) for the figure ``value`` and ``goal``."""
    rule = parse(goal)
    if rule is None or value is None:
        return NOT_JUDGED
    operator, target = rule
    if operator == "is":
        if not isinstance(value, bool):
            return NOT_JUDGED
        return MET if value is target else MISSED
    if operator == "none":
        if isinstance(value, (list, tuple, str)):
            return MET if not value else MISSED
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return MET if value == 0 else MISSED
        return NOT_JUDGED
    if operator == "all":
        parts = str(value).split(" of ")
        if len(parts) != 2:
            return NOT_JUDGED
        caught, out_of = _plain_number(parts[0]), _plain_number(parts[1])
        if caught is None or out_of is None:
            return NOT_JUDGED
        return MET if caught == out_of else MISSED
    items = list(value) if isinstance(value, (list, tuple)) else [value]
    numbers = [_as_number(item) for item in items]
    if not numbers or any(number is None for number in numbers):
        return NOT_JUDGED
    return MET if all(_compare(operator, n, target) for n in numbers) else MISSED


def row_verdict(row):
    """The verdict on a table row ``(name, shown, goal)`` or ``(name, shown, goal,
    judged)``: ``judged`` is the figure the goal is about where ``shown`` holds more."""
    judged = row[3] if len(row) > 3 else row[1]
    return judge(judged, row[2])


def table(rows, value_width=12):
    """The lines of a terminal table: name, figure, goal, and MISS where it is missed;
    a last line counts the misses if there are any."""
    width = max((len(row[0]) for row in rows), default=0)
    lines = []
    missed = 0
    for row in rows:
        verdict = row_verdict(row)
        missed += verdict == MISSED
        line = "%-*s  %*s   goal %s" % (width, row[0], value_width, row[1], row[2])
        lines.append(line + ("   " + MISS_MARK if verdict == MISSED else ""))
    if missed == 1:
        lines.append("1 figure misses its goal (%s)" % MISS_MARK)
    elif missed:
        lines.append("%d figures miss their goal (%s)" % (missed, MISS_MARK))
    return lines


def print_table(rows, value_width=12):
    for line in table(rows, value_width):
        print(line)
