"""The power-cut sweep on the real littlefs (sim/power_sweep.py): its rule, its cut points,
a sample of it, and the flash model of the MicroPython lane against littlefs.

The full sweep (every byte of every program and every erase of the scripted
game, both geometries, double faults) is ``make power-sweep`` and ``python -m
bench.journal``; here a seeded sample of a short game, a few seconds.
"""

import random

import pytest

from firmware import journal
from sim import power_sweep
from sim.nor_flash import GEOMETRIES
from sim.power_sweep import SETTINGS_TUPLE, Tally, judge

RUNNING = {
    "state": "running",
    "times": (100_000, 200_000),
    "running": 0,  # the left side to move
    "white": 1,
    "moves": 3,
    "flags": (False, False, -1),
    "settings": SETTINGS_TUPLE,
}


def _back(**changes):
    back = dict(RUNNING, state="paused", running=-1)
    back.update(changes)
    return back


def test_a_running_game_comes_back_paused_with_up_to_5_s_for_the_side_to_move():
    """docs/power.md: the side to move gets back the time since the newest entry (at
    most 5 s, journal.ENTRY_MS), the other side is exact; at the bound and past it."""
    assert journal.ENTRY_MS == 5000
    assert judge(_back(times=(100_000, 200_000)), [RUNNING], SETTINGS_TUPLE) == ("ok", 0)
    assert judge(_back(times=(105_000, 200_000)), [RUNNING], SETTINGS_TUPLE) == ("ok", 5000)
    assert judge(_back(times=(105_001, 200_000)), [RUNNING], SETTINGS_TUPLE)[0] == "time"
    assert judge(_back(times=(99_999, 200_000)), [RUNNING], SETTINGS_TUPLE)[0] == "time"
    assert judge(_back(times=(100_000, 200_001)), [RUNNING], SETTINGS_TUPLE)[0] == "time"
    assert judge(_back(state="running", running=0), [RUNNING], SETTINGS_TUPLE)[0] != "ok"


def test_a_paused_or_finished_game_comes_back_exactly():
    paused = dict(RUNNING, state="paused", running=-1)
    assert judge(_back(), [paused], SETTINGS_TUPLE) == ("ok", 0)
    assert judge(_back(times=(100_001, 200_000)), [paused], SETTINGS_TUPLE)[0] == "time"
    over = dict(paused, state="over", flags=(True, False, 0))
    assert judge(dict(over), [over], SETTINGS_TUPLE) == ("ok", 0)
    assert judge(_back(flags=(True, False, 0)), [over], SETTINGS_TUPLE)[0] == "invented"


def test_a_game_back_in_setup_is_lost_and_one_back_from_setup_invented():
    setup = dict(RUNNING, state="setup", running=-1, moves=0, white=-1)
    assert judge(dict(setup), [RUNNING], SETTINGS_TUPLE) == ("lost", 0)
    assert judge(_back(), [setup], SETTINGS_TUPLE) == ("invented", 0)
    assert judge(_back(moves=2), [RUNNING], SETTINGS_TUPLE) == ("invented", 0)
    # a cut in the pass that set up a new game: the old game or the new setup
    paused = dict(RUNNING, state="paused", running=-1)
    assert judge(dict(setup), [paused, setup], SETTINGS_TUPLE) == ("ok", 0)
    assert judge(_back(), [paused, setup], SETTINGS_TUPLE) == ("ok", 0)


def test_settings_changed_or_a_boot_that_raised_fail():
    other = ("300", "300", "off", "appendix-g")
    assert judge(_back(settings=other), [RUNNING], SETTINGS_TUPLE) == ("settings", 0)
    assert judge(None, [RUNNING], SETTINGS_TUPLE) == ("raised", 0)


class _Log:
    def __init__(self, start, log):
        self.start_image = start
        self.log = [(operation, 0) for operation in log]
        self.nor = type("nor", (), {"block_bytes": 8, "seed": 3})()


def test_every_byte_and_every_erase_is_a_cut_point_and_equal_flashes_share_a_boot():
    """A program of 5 bytes over 0x0F bytes: one 0xFF, two that clear no bit, two that
    do (bytes 2 and 4); then an erase. A cut at byte k leaves bytes 0..k-1: cuts 0-2
    leave the flash as it was, 3-4 with byte 2 programmed (byte 4 is never whole
    before the program ends); the erase is one more point, its block undefined."""
    start = bytearray(b"\xff" * 8 + b"\x0f" * 8)
    program = ("program", 1, 2, bytes([0x0F, 0xFF, 0x01, 0x0F, 0x00]))
    groups = list(power_sweep.cut_points(_Log(start, [program, ("erase", 1)])))
    assert [(first, last) for _, _, first, last, _ in groups] == [(0, 2), (3, 4), (0, 0)]
    assert sum(last - first + 1 for _, _, first, last, _ in groups) == 5 + 1
    assert [number for number, *_ in groups] == [0, 1, 2]
    assert groups[0][4] == bytes(start)
    assert groups[1][4][8:] == b"\x0f\x0f\x0f\x0f\x01\x0f\x0f\x0f"
    torn = groups[2][4][8:]
    assert torn not in (b"\xff" * 8, b"\x0f\x0f\x0f\x0f\x01\x0f\x00\x0f")  # undefined


@pytest.mark.parametrize("port", sorted(GEOMETRIES))
def test_a_sample_of_the_cuts_of_a_short_game_brings_back_what_the_rules_say(port):
    """Single cuts only, seeded: the full sweep with double faults is make power-sweep."""
    recorder = power_sweep.reference(port, power_sweep.SHORT_SCRIPT)
    tally = Tally()
    groups = power_sweep.sweep(recorder, tally, 12, random.Random(32))
    assert groups > 100 and tally.boots == 12 and tally.points >= 12
    assert tally.kinds["ok"] == tally.points, tally.examples


def test_the_flash_model_and_littlefs_bring_back_the_same_after_a_cut():
    """sim.flash.Flash (the MicroPython lane's filesystem) and the real littlefs, cut
    between the same two changes of the firmware (six of them; all 1,155 are python -m
    sim.power_sweep --agree: the ring of 3600+30, 67 blocks, prepared before the
    start, takes the first 1,150), come back in the same state, and again after the
    game played on and a second cut."""
    rows = power_sweep.agreement(limits=[0, 17, 600, 1150, 1153, 1154])
    states = set()
    for limit, model, real in rows:
        assert model == real, limit
        states.add(model[0]["state"])
    assert states == {"setup", "paused"}  # both a game and none came back
    # (on the journal before issue 32's fixes both lose the game after limits 61 and 90;
    # the whole comparison, --agree, found 15 of 157 limits where only the model lost it
    # and finds none since: docs/power.md, "The flash model of the MicroPython lane",
    # which tests/test_manual_facts.py checks against the whole run)
