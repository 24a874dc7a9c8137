"""One reading of a script's text on both lanes (docs/spec/scripts.md, "The text of a script").

UTF-8 with an optional byte-order mark, LF or CRLF line ends, ASCII in the
statements: such a script runs the same on CPython and inside MicroPython.
Anything else is exit 2 with ``file:N:`` and what is wrong, never a
traceback, with the same words on both lanes.
"""

import pytest

from tests.scripting import run_on_both_lanes, run_text

GOOD = b"control 300\nat 0 press right\nat 12.5 press left\nat 12.5 expect left=4:47.5 moves=1\n"
# 300 s, left White: 12.5 s of left's time gone when it moves (no increment)

# The same script in the encodings a text editor may save it in.
SAME = {
    "lf": GOOD,
    "crlf": GOOD.replace(b"\n", b"\r\n"),
    "bom": b"\xef\xbb\xbf" + GOOD,
    "bom-crlf": b"\xef\xbb\xbf" + GOOD.replace(b"\n", b"\r\n"),
    "no-final-newline": GOOD.rstrip(b"\n"),
    "comment-in-other-scripts": GOOD + "# Zeitkontrolle: 5 Minuten, ٣ ² é ✓\n".encode(),
    "tab-separated": GOOD.replace(b"at 0 press", b"at\t0\tpress"),
}

# (name, bytes, line, words): the line and the message both lanes print.
BAD = [
    ("arabic-indic digit", "control 300\nat ٣ show\n".encode(), 2, "U+0663"),
    ("superscript in setmoves", "control 300\nat 1 setmoves ²\n".encode(), 2, "U+00B2"),
    ("superscript in a time", "control 300\nat 1² show\n".encode(), 2, "U+00B2"),
    ("fullwidth digit in control", "control ３00\n".encode(), 1, "U+FF13"),
    ("arabic-indic in expect", "control 300\nat 0 expect moves=٠\n".encode(), 2, "U+0660"),
    ("bom inside a statement", "control 300\nat 1 \ufeffshow\n".encode(), 2, "U+FEFF"),
    ("latin-1 byte", b"control 300\n# caf\xe9\nat 1 show\n", 2, "0xe9 0x0a are not UTF-8"),
    ("lone continuation byte", b"control 300\nat 1 show \x80\n", 2, "0x80 is not UTF-8"),
    ("overlong slash", b"control 300\n\xc0\xaf\n", 2, "0xc0 is not UTF-8"),
    ("surrogate", b"control 300\n# \xed\xa0\x80\n", 2, "0xed 0xa0 are not UTF-8"),
    ("beyond U+10FFFF", b"control 300\n# \xf4\x90\x80\x80\n", 2, "0xf4 0x90 are not UTF-8"),
    ("cut short at the end", b"control 300\n# \xe2\x82", 2, "cuts short"),
    ("nul byte", b"control 300\nat 1 show\x00\n", 2, "control character 0x00"),
    ("escape in a comment", b"control 300\n# \x1b[31m\n", 2, "control character 0x1b"),
    ("lone carriage return", b"control 300\rat 1 show\n", 1, "control character 0x0d"),
    ("carriage return at the end", b"control 300\nat 1 show\r", 2, "control character 0x0d"),
    ("delete", b"control 300\nat 1 show\x7f\n", 2, "control character 0x7f"),
    ("form feed", b"control 300\n\x0c\nat 1 show\n", 2, "control character 0x0c"),
]


def _status(data):
    status, lines = run_text(data, "text.clock")
    return status, lines


@pytest.mark.parametrize("name", sorted(SAME))
def test_every_saving_of_a_script_runs_alike(name):
    status, lines = _status(SAME[name])
    assert status == 0, lines
    reference = _status(GOOD)[1]
    assert lines == reference


@pytest.mark.parametrize("name, data, line, words", BAD, ids=[case[0] for case in BAD])
def test_text_that_breaks_the_rules_is_exit_2_naming_the_line(name, data, line, words):
    status, lines = _status(data)
    assert status == 2
    assert len(lines) == 1
    assert lines[0].startswith("text.clock:%d: " % line), lines
    assert words in lines[0]


def test_text_given_as_a_string_reads_as_its_utf8_bytes():
    assert _status(GOOD.decode()) == _status(GOOD)
    assert _status("control 300\nat ٣ show\n")[1] == _status(BAD[0][1])[1]


def test_both_lanes_read_every_case_alike(tmp_path):
    scripts = [("same-%s.clock" % name.replace(" ", "-"), SAME[name]) for name in sorted(SAME)]
    scripts += [("bad-%02d.clock" % index, data) for index, (_, data, _, _) in enumerate(BAD)]
    status, lines = run_on_both_lanes(tmp_path, scripts)
    assert status == 2
    ends = [line for line in lines if ": end: " in line]
    assert len(ends) == len(SAME)
    refusals = [line for line in lines if ".clock:" in line and ": end: " not in line]
    assert len(refusals) == len(BAD)
    for line, (_, _, number, words) in zip(refusals, BAD, strict=True):
        assert ".clock:%d: " % number in line and words in line
