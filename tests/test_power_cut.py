"""Power cuts at any instant: settings never lost, the game back within the journal's bound.

- A property over random games cut at random instants: after the power
  comes back the settings are the same, the game is paused with the same
  moves, the side not to move shows exactly its time at the cut, and the
  side to move at most ``journal.ENTRY_MS`` (5 s) more than it had (the
  time since the newest entry), never less.
- Writes cut part-way, byte by byte: settings.json written through a new
  file and a rename, and each journal slot written in place, always read
  back as the old or the new version, never as an error.
"""

import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware import files, journal, settings_file
from hal.storage import Storage
from sim import vclock
from sim.flash import PowerCut
from sim.runner import Game
from sim.script import parse
from sim.world import SimBoard, fresh_flash, remove_flash

ACTIONS = st.sampled_from(["press left", "press right", "pause", "resume"])
GAMES = st.lists(
    st.tuples(st.integers(min_value=20, max_value=15_000), ACTIONS), min_size=0, max_size=25
)
CONTROLS = st.sampled_from(["3600", "3600+10", "40/3600:1800", "3600d5", "3600b5"])


def stored_settings(folder):
    with open(os.path.join(folder, files.SETTINGS), "rb") as handle:
        return handle.read()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(CONTROLS, GAMES, st.integers(min_value=0, max_value=20_000), st.booleans())
def test_a_cut_at_any_instant_loses_at_most_the_journal_period(control, steps, cut_after, start):
    game = Game(parse("control %s\nquickplay off\n" % control))
    try:
        stored = stored_settings(game.flash)
        now = 0
        if start:
            game.act("press", ["right"])
        for gap, action in steps:
            now += gap
            game.run_to(now)
            words = action.split()
            game.act(words[0], words[1:])
        game.run_to(now + cut_after)
        truth = dict(game.values(settle=False))  # the board has run up to this instant
        running = truth["running"]
        game.act("power", ["off"])
        game.run_to(now + cut_after + 1000)
        game.act("power", ["on"])
        back = dict(game.values())
        assert stored_settings(game.flash) == stored
        assert game.board.app.settings.control_left == control
        if truth["state"] == "setup":
            assert back["state"] == "setup"
            assert (back["left"], back["right"]) == (truth["left"], truth["right"])
            return
        assert back["state"] == "paused" and back["running"] == "none"
        for name in ("moves", "white", "left_stage", "right_stage", "flag", "first_flag"):
            assert back[name] == truth[name], name
        if running == "none":  # paused at the cut: nothing lost
            assert (back["left"], back["right"]) == (truth["left"], truth["right"])
        else:
            other = "right" if running == "left" else "left"
            assert back[other] == truth[other]
            lost = back[running] - truth[running]
            assert 0 <= lost <= journal.ENTRY_MS
    finally:
        game.close()


def test_the_bound_is_reached_just_before_an_entry():
    """The worst cut: 1 ms before the next entry (4.98 s after the last): 4.979 s lost."""
    game = Game(parse("control 300\n"))
    try:
        game.act("press", ["right"])
        game.run_to(10_000)
        game.act("press", ["left"])  # right to move, entry at 10 s
        game.run_to(10_000 + 4 * 4_980 + 4_979)
        truth = dict(game.values(settle=False))
        game.act("power", ["off"])
        game.act("power", ["on"])
        back = dict(game.values())
        assert back["right"] - truth["right"] == 4_979
        assert back["left"] == truth["left"] == 290_000
    finally:
        game.close()


# --- writes cut part-way ---------------------------------------------------


def test_settings_survive_a_cut_at_every_byte_of_their_write():
    old = {"control_left": "300+3", "control_right": "300+3"}
    new = {"control_left": "900+10", "control_right": "600+5", "quickplay": "off"}
    size = len(json.dumps(dict(new, version=1)))
    seen = set()
    for budget in range(size + 3):  # every byte, then the rename, then none
        folder = fresh_flash(old["control_left"])
        board = SimBoard(folder)
        try:
            board.flash.cut_after(budget)
            try:
                Storage(folder, board.flash).write_json(files.SETTINGS, new)
                cut = False
            except PowerCut:
                cut = True
            board.flash.power_on()
            loaded = settings_file.load(Storage(folder, board.flash))
            assert loaded.error_code is None, (budget, loaded.error)
            assert loaded.control_left in ("300+3", "900+10")
            if loaded.control_left == "900+10":
                assert loaded.control_right == "600+5"
            else:
                assert cut
            seen.add(loaded.control_left)
        finally:
            remove_flash(folder)
    assert seen == {"300+3", "900+10"}  # both outcomes happened


def test_a_journal_entry_cut_at_every_byte_restores_the_old_or_the_new_state():
    outcomes = set()
    for budget in range(journal.RECORD_SIZE + 1):
        folder = fresh_flash("300+3")
        board = SimBoard(folder)
        try:
            board.boot()
            board.press("lever_right")
            board.run_due(10_000)  # entries at 0 and 4.98 s: left to move
            board.run_due(12_000)
            board.flash.cut_after(budget)
            board.press("lever_left")  # the entry of this move is cut after ``budget`` bytes
            board.run_due(12_100)
            assert not board.powered
            vclock.set_now(13_000)
            board.power_on()
            clock = board.app.clock
            assert board.display_text() == "rE5t|rE5t"
            assert clock.state == 2  # paused
            left = clock.shown_ms(0, 0)
            if clock.moves() == 1:  # the new entry: left's move of 12 s, right to move
                assert clock.mover == 1 and left == 303_000 - 12_000 + 3_000
                outcomes.add("new")
            else:  # the old entry, 9.96 s into left's first turn
                assert clock.moves() == 0 and clock.mover == 0 and left == 303_000 - 9_960
                outcomes.add("old")
        finally:
            remove_flash(folder)
    assert outcomes == {"old", "new"}


def test_a_flash_that_refuses_writes_never_changes_the_timing():
    def play(refuse):
        game = Game(parse("control 300+3\n"))
        try:
            game.act("press", ["right"])
            game.run_to(7_250)
            if refuse:
                game.board.flash.powered = False  # every write and flush now fails (EIO)
            game.act("press", ["left"])
            game.run_to(30_000)
            game.act("pause", [])
            game.run_to(31_000)
            game.act("resume", [])
            game.run_to(40_120)
            game.act("press", ["right"])
            game.run_to(45_000)
            values = dict(game.values())
            return values, game.board.app.journal.failures
        finally:
            game.close()

    clean, clean_failures = play(False)
    faulty, failures = play(True)
    assert clean == faulty and clean_failures == 0
    assert failures >= 5  # the moves, the pause, the resume and the periodic entries
    # worked out: left 303 - 7.25 + 3 = 298.75, then from 40.12: 298.75 - 4.88 = 293.87
    assert faulty["left"] == 293_870
    # right 303 - 22.75 - 9.12 + 3 = 274.13
    assert faulty["right"] == 274_130
