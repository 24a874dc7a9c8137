"""Reading the facts a manual states, for the tests that compare them with their source.

A fact is found in its document by a precise pattern, never by a line number, so
the text round it may change freely: ``Fact(document, pattern, expected)``, where
``pattern`` matches exactly once and its groups are compared, in order, with the
strings ``expected()`` gives from the code, the board files, the Makefile or the
case's model. A fact reworded so that its pattern no longer finds it fails as
"not found", so no check is skipped silently. tests/test_manual_facts.py and
tests/test_manual_case_facts.py hold the facts; each is checked as it stands
(``check``) and with each of its values made wrong (``wrongs_missed``).
"""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent


class Fact:
    def __init__(self, document, pattern, expected, name=None):
        self.document = document
        self.pattern = pattern
        self.expected = expected
        self.name = name or "%s: %s" % (document, pattern[:40])

    def __repr__(self):
        return self.name

    def stated(self, text=None):
        """The groups the document states, or AssertionError naming what is missing."""
        if text is None:
            text = self.source_text()
        found = list(re.finditer(self.pattern, text, re.M))
        assert len(found) == 1, "%s: %d matches of %r (want one)" % (
            self.document,
            len(found),
            self.pattern,
        )
        return found[0].groups()

    def source_text(self):
        return (ROOT / self.document).read_text()

    def wrong_texts(self, text=None):
        """The document with one stated value made wrong, for each value of the fact
        where it is stated: its last digit or letter changed (so the pattern still
        finds it)."""
        if text is None:
            text = self.source_text()
        for match in re.finditer(self.pattern, text, re.M):
            for group in range(1, len(match.groups()) + 1):
                start, end = match.span(group)
                value = text[start:end]
                at = max(i for i, char in enumerate(value) if char.isalnum())
                changed = value[:at] + _other(value[at]) + value[at + 1 :]
                yield text[:start] + changed + text[end:]

    def wrongs_missed(self, text=None):
        """The stated values (numbered in the document's order) that the check does not
        catch when each alone is made wrong: [] where every one is caught. A fact whose
        pattern captures no value checks nothing, and fails."""
        wrongs = list(self.wrong_texts(text))
        assert wrongs, "%s captures no value" % self.name
        return [number for number, wrong in enumerate(wrongs) if not caught(self, wrong)]

    def check(self, text=None):
        """[] if the document states what the source gives, else one line."""
        stated = self.stated(text)
        want = tuple(str(value) for value in self.expected())
        if stated == want:
            return []
        return ["%s states %s; the source gives %s" % (self.name, stated, want)]


class Every(Fact):
    """A fact stated at every match of its pattern (one or more), each the same."""

    def stated(self, text=None):
        if text is None:
            text = self.source_text()
        found = [match.groups() for match in re.finditer(self.pattern, text, re.M)]
        assert found, "%s: no match of %r" % (self.document, self.pattern)
        return found

    def check(self, text=None):
        want = tuple(str(value) for value in self.expected())
        wrong = [groups for groups in self.stated(text) if groups != want]
        return ["%s states %s; the source gives %s" % (self.name, g, want) for g in wrong]


def _other(char):
    """Another character of the same kind: 5 for 4, b for a."""
    if char.isdigit():
        return str((int(char) + 1) % 10)
    return "a" if char.lower() == "z" else chr(ord(char) + 1)


def caught(fact, text):
    """Whether ``fact`` fails on ``text`` (a wrong value, or the fact not found)."""
    try:
        return fact.check(text) != []
    except AssertionError:
        return True


def table_row(document, first_cell, columns):
    """The pattern of a Markdown table row whose first cell is ``first_cell`` (literal),
    with ``columns`` cells captured after it (the cells in between skipped)."""
    skip = r"(?:[^|\n]*\|)*?"
    cells = r" ([^|\n]*?) \|" * columns
    return r"^\| %s \|%s%s$" % (re.escape(first_cell), skip, cells)


def makefile_targets():
    """The Makefile's rule names (``sim``, ``case-tools``), not its pattern rules."""
    text = (ROOT / "Makefile").read_text()
    return set(re.findall(r"^([A-Za-z][\w-]*)\s*:(?!=)", text, re.M))


def makefile_prerequisites(target):
    """The prerequisites of ``target``'s rule, as written."""
    text = (ROOT / "Makefile").read_text()
    match = re.search(r"^%s\s*:(?!=)(.*)$" % re.escape(target), text, re.M)
    return match.group(1).split()


COUNTS = {
    "an": 1,
    "a": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "eight": 8,
    "ten": 10,
    "twelve": 12,
    "sixteen": 16,
}
# "two M2 x 6 each" (one per display or lever: each of two), "four M3 x 6"
_SCREWS = re.compile(r"\b(%s)\s+(M\d)\s+x\s+(\d+)( each)?" % "|".join(COUNTS))
_INSERTS = re.compile(r"\b(%s)\s+(M\d)\s+inserts?\b" % "|".join(COUNTS))


def fixings(text):
    """{("screw", "M2", 5): count, ("insert", "M2", None): count} named in ``text``."""
    out = {}
    for count, size, length, each in _SCREWS.findall(text):
        key = ("screw", size, int(length))
        out[key] = out.get(key, 0) + COUNTS[count] * (2 if each else 1)
    for count, size in _INSERTS.findall(text):
        key = ("insert", size, None)
        out[key] = out.get(key, 0) + COUNTS[count]
    return out


def assembly_steps(text):
    """{step: its text} of the numbered steps of build.md's "Putting it together":
    ``1. **Front.** ...`` gives ``front``."""
    part = text.split("### Putting it together", 1)[1].split("\n### ", 1)[0]
    steps = re.split(r"^\d+\. \*\*(\w+)\.\*\*", part, flags=re.M)[1:]
    return {steps[i].lower(): steps[i + 1] for i in range(0, len(steps), 2)}
