"""One strict reading of every text, the same on both lanes (``sim.readings``).

Time controls with Unicode spaces, settings pushes and flash files in JSON's
variants (trailing commas, leading zeros, NaN, byte-order marks, escapes,
long strings): CPython and MicroPython must decide every one alike, and
decide it as the strict reading says: JSON that is not strict JSON is
refused, and only ASCII white space around a control is no part of it.
"""

import os
import subprocess

from sim import readings
from tests.scripting import ROOT

SEED = 23
COUNT = 1500  # about 2 s a lane

LAX_JSON = (b",}", b"007", b"NaN", b"Infinity", b"'id'", b"//", b"\xef\xbb\xbf", b'\xc2\xa0"')
LAX_JSON += (
    b"[{",
    b"[[[[[[[[[[[[[[[[[",
    b'"quickplay": "off"}',
)  # the last: a comma short


def _micropython_lines():
    runner = os.path.join(ROOT, "tools", "mpy", "run.mjs")
    done = subprocess.run(
        ["node", runner, "sim.readings", str(SEED), str(COUNT)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr[-2000:]
    return done.stdout.splitlines()


def test_both_lanes_read_every_text_alike_and_strictly():
    lines = []
    cases = []
    readings.run(SEED, COUNT, lines.append, cases)
    written = []
    readings.round_trips(written.append)
    assert _micropython_lines() == lines + written
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
