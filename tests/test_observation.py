"""Looking never changes the game: a clock script ends in the same state with a
``show`` before each of its timed lines (docs/spec/scripts.md, "Timed statements").

Every script of tests/scenarios and docs/pictures is so watched on CPython: the
reference lane of tests/test_scenarios.py reads the state line before each statement
(``tests.scripting.observing_player``) and must print what MicroPython prints
unwatched. Here a sample is watched inside MicroPython, with the ``show`` lines in
the script's text.
"""

import os

from tests.scripting import ROOT, run_cli
from tests.test_scenarios import PLAYABLE

# On the MicroPython lane: scripts with keys, menus, arbiter sequences and power cuts.
MPY_SAMPLE = (
    "tests/scenarios/arbiter/g5-postpone-plus2.clock",
    "tests/scenarios/arbiter/lever-while-paused.clock",
    "tests/scenarios/timing/play-key.clock",
    "tests/scenarios/menus/custom-left.clock",
    "tests/scenarios/power/claim.clock",
)


def with_shows(text):
    """``text`` with ``at T show`` before every timed line ``at T ...``."""
    lines = []
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] == "at":
            lines.append("at %s show" % words[1])
        lines.append(line)
    return "\n".join(lines) + "\n"


def end_state(lines):
    ends = [line for line in lines if ": end: " in line]
    assert len(ends) == 1, lines
    return ends[0].split(": end: ", 1)[1]


def test_shows_are_inserted_before_timed_lines_only():
    text = "control 300\n# a note\nat 0 press right\nat 1.5 pause\n"
    assert with_shows(text) == (
        "control 300\n# a note\nat 0 show\nat 0 press right\nat 1.5 show\nat 1.5 pause\n"
    )


def test_a_show_before_every_line_changes_nothing_on_micropython(tmp_path):
    names = [name for name in MPY_SAMPLE if name in PLAYABLE]
    assert len(names) >= 4
    watched = []
    for name in names:
        with open(os.path.join(ROOT, name)) as handle:
            text = handle.read()
        path = tmp_path / os.path.basename(name)
        path.write_text(with_shows(text))
        watched.append(str(path))
    # One MicroPython process plays the plain scripts, then the watched ones.
    status, out, err = run_cli(names + watched, mpy=True)
    assert status == 0, out + err
    ends = [line.split(": end: ", 1)[1] for line in out.splitlines() if ": end: " in line]
    plain, seen = ends[: len(names)], ends[len(names) :]
    assert len(plain) == len(seen) == len(names) and seen == plain
