"""One strict reading of every text, the same on both lanes (``sim.readings``).

Time controls with Unicode spaces, settings pushes and flash files in JSON's
variants (trailing commas, leading zeros, NaN, byte-order marks, escapes,
long strings): CPython and MicroPython must decide every one alike, and
decide it as the strict reading says: JSON that is not strict JSON is
refused, and only ASCII white space around a control is no part of it.
"""

import os

from sim import readings
from tests.scripting import ROOT, run_once

SEED = 23
COUNT = 1500  # about 2 s a lane

LAX_JSON = (b",}", b"007", b"NaN", b"Infinity", b"'id'", b"//", b"\xef\xbb\xbf", b'\xc2\xa0"')
LAX_JSON += (
    b"[{",
    b"[[[[[[[[[[[[[[[[[",
    b'"quickplay": "off"}',
)  # the last: a comma short


def _micropython_lines():
    """The lane's lines, run once in the test run for both tests (``run_once``)."""
    runner = os.path.join(ROOT, "tools", "mpy", "run.mjs")
    status, stdout, stderr = run_once(
        ["node", runner, "sim.readings", str(SEED), str(COUNT)], timeout=300
    )
    assert status == 0 and stderr == "", stderr[-2000:]
    return tuple(stdout.splitlines())


def test_both_lanes_read_every_text_alike_and_strictly():
    lines = []
    cases = []
    readings.run(SEED, COUNT, lines.append, cases)
    written = []
    readings.round_trips(written.append)
    escapes = []
    readings.surrogates(escapes.append)
    hall = []
    readings.hall_readings(SEED, readings.HALL_COUNT, hall.append)
    assert list(_micropython_lines()) == lines + written + escapes + hall
    # RFC 8259: a pair of escapes is one character (U+1F600); a surrogate alone is no
    # character; "\\ud83d" is a backslash and the text "ud83d"
    assert [line.rsplit(": ", 1)[1] for line in escapes] == [
        "1f600",
        "1f600 78",
        "refused",
        "refused",
        "refused",
        "5c 75 64 38 33 64",
        "e9 10000",
    ]
    # what the clock writes, it reads back the same, whatever the text (a hall
    # file's Wi-Fi name with accents, kept when the board's number changes)
    assert len(written) == len(readings.WRITTEN)
    assert all(line.endswith(": kept") for line in written), written
    seen = {}
    for kind, data, outcome in cases:
        lax = any(mark in data for mark in LAX_JSON) or data == b"null"
        text = data.decode("utf-8")
        if kind == "control":
            bare = text.strip(" \t\r\n")
            if any(ord(char) > 0x7E or ord(char) < 0x20 for char in bare):
                assert outcome == "refused", (text, outcome)
                seen["non-ASCII control refused"] = True
            elif bare != text:
                assert outcome == readings._control(bare), (text, outcome)
                seen["ASCII space around a control"] = True
        elif kind == "push":
            if lax:
                assert outcome.startswith("invalid"), (data, outcome)
                seen["lax push refused"] = True
            elif outcome.startswith("applied"):
                seen["push applied"] = True
        elif lax:
            assert "set aside" in outcome and ("Err" in outcome or "vEr" in outcome), (
                data,
                outcome,
            )
            seen["lax %s set aside" % kind] = True
        elif "\\u" in text and " set aside" not in outcome:
            seen["escaped text read"] = True
    assert sorted(seen) == sorted(
        [
            "non-ASCII control refused",
            "ASCII space around a control",
            "lax push refused",
            "push applied",
            "lax settings.json set aside",
            "lax slots.json set aside",
            "lax hall.json set aside",
            "escaped text read",
        ]
    )


def test_a_unicode_space_around_a_control_is_refused_on_every_reading(tmp_path):
    # A no-break space escaped in a settings file: CPython's strip() took it, the
    # board's did not; now neither does, and both show Err1 with the defaults.
    folder = str(tmp_path)
    data = b'{"control_left": "\\u00a0300+3"}'
    assert readings._file(folder, "settings.json", data) == 'Err1 "5400+30" set aside'
    assert readings._control(" 300+3\t") == '"300+3" ((0, 300000, 1, 3000),)'
    for text in ("\xa0300", "300\u3000", "\u2003300", "300\x85", "300\x1c", "\ufeff300"):
        assert readings._control(text) == "refused"


# What the hall must decide for each of the inputs, from RFC 3629 (UTF-8),
# RFC 8259 (JSON's escapes) and docs/hall.md (1 KiB, a push id of 64 characters).
HALL_SPLITS = {
    "invalid UTF-8": "refused",
    "encoded surrogates": "refused",
    "overlong slash": "refused",
    "past U+10FFFF": "refused",
    "cut short": "refused",
    "x escape": "refused",
    "33 pairs": "ok %s 33" % ("\\ud83d\\ude00" * 33).join('""'),
    "64 mixed": "ok %s 64" % ("\\ud83d\\ude00" * 64).join('""'),
    "65 mixed": "refused",
    "64 raw": "ok %s 64" % ("\\ud83d\\ude00" * 64).join('""'),
    "65 raw": "refused",
    "high alone": "refused",
    "low alone": "refused",
    "key twice": "refused",
    "pair key twice": "refused",
    "MAX_BYTES": "ok null",
    "MAX_BYTES + 1": "refused",
}


def test_the_hall_reads_a_clocks_message_alike_on_both_lanes():
    # The split inputs: CPython and MicroPython decided the old reading differently
    # (an encoded surrogate, a \x escape, a 33-pair push id, a key twice through
    # a pair); now both lanes print the lines compared above, and they are these.
    expected = [
        "hall %s %s: %s" % (name.replace(" ", "-"), readings._hex(data), HALL_SPLITS[name])
        for name, data in readings.hall_splits()
    ]
    assert sorted(name for name, _ in readings.hall_splits()) == sorted(HALL_SPLITS)
    assert [line for line in _micropython_lines() if line.startswith("hall ")][:17] == expected
    cases = []
    readings.hall_readings(SEED, readings.HALL_COUNT, lambda line: None, cases)
    seen = set()
    for data, good, bad, in_push_id, outcome in cases:
        # every good piece is one code point; a bad one refuses the message
        if bad is not None:
            assert outcome == "refused", (data, outcome)
            seen.add("bad")
        elif in_push_id:
            assert outcome.startswith("ok") == (good <= 64 and len(data) <= 1024), data
            assert outcome == "refused" or outcome.endswith(" %d" % good)
            seen.add("push id %s" % ("ok" if good <= 64 else "too long"))
        else:
            assert outcome == 'ok "id" 2', (data, outcome)
            seen.add("key")
    assert seen == {"bad", "push id ok", "push id too long", "key"}
