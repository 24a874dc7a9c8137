"""A display that stops answering never changes the timing, and comes back by itself."""

from tests.scripting import fields, run_text

GAME = """control 300+3
at 0 press right
at 7.25 press left
at 9.5 {fault}
at 12 press right
at 15.125 press left
at 20 {repair}
at 20 show
at 21 show
at 31.5 press right
at 31.5 show
"""


def states(text):
    status, lines = run_text(text)
    assert status == 0, lines
    return [fields(line.split(": end: ")[-1]) for line in lines]


def test_unplugged_display_leaves_the_timing_identical():
    clean = states(GAME.format(fault="expect state=running", repair="expect state=running"))
    faulty = states(GAME.format(fault="unplug left", repair="plug left"))
    strip = ("display",)
    assert [{k: v for k, v in s.items() if k not in strip} for s in faulty] == [
        {k: v for k, v in s.items() if k not in strip} for s in clean
    ]
    # worked out from the rules: left 5:03 - 7.25 + 3 - 3.125 + 3 = 4:58.625
    assert faulty[-1]["left"] == "0:04:58.625"


def test_display_recovers_after_it_answers_again():
    faulty = {s["at"]: s for s in states(GAME.format(fault="unplug left", repair="plug left"))}
    # at 21 s right has run 5.875 s since 15.125: 5:01.25 - 5.875 = 4:55.375, mark lit
    assert faulty["21.000"]["right"] == "0:04:55.375"
    assert faulty["21.000"]["display"] == " 4.59| 4.56."
    # at 31.5 right pressed: left 4:58.625 runs, e = 0, mark dark
    assert faulty["31.500"]["display"] == " 4.59| 4.48"


def test_unplugged_display_keeps_its_last_picture_in_the_chip():
    text = "control 300+3\nat 0 press right\nat 7.25 press left\nat 9.5 unplug left\n"
    text += "at 12 press right\nat 14 show\nat 14 plug left\nat 14.02 show\n"
    shown = [s for s in states(text) if s["at"] in ("14.000", "14.020")]
    # left runs from 12 with 4:58.75: at 14 it is 4:56.75 (" 4.57", mark dark at e = 2 s);
    # the unplugged chip still holds the frame of 9.5 s, when left stood at 4:58.75.
    # Plugged in again, it is drawn at the next pass of the main loop (the 20 ms tick).
    assert shown[0]["left"] == "0:04:56.750"
    assert shown[0]["display"].split("|")[0] == " 4.59"
    assert shown[1]["display"].split("|")[0] == " 4.57"
