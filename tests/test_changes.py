"""The change counter: every operation that changes the game bumps ``Clock.changes``
or ``Claims.changes``, nothing else does, and the journal writes exactly when
their sum moved (or its period came), on the same objects for the app's life.
"""

import pytest

from firmware import claims as claims_module
from firmware import engine, timecontrol
from firmware import settings as settings_module
from sim import vclock
from sim.world import SimBoard, fresh_flash, remove_flash


def fresh(control="300"):
    clock = engine.Clock(timecontrol.parse(control))
    return clock, claims_module.Claims(clock, "g5", "appendix-g")


def bumps(counted, action):
    """How many changes ``action()`` counted on ``counted``."""
    before = counted.changes
    action()
    return counted.changes - before


def test_each_clock_operation_counts_once_and_a_refused_one_not_at_all():
    clock, _ = fresh()
    assert bumps(clock, lambda: clock.press(0, 0)) == 1  # the start: right is White
    assert bumps(clock, lambda: clock.press(0, 100)) == 0  # not his turn
    assert bumps(clock, lambda: clock.update(1000)) == 0  # time runs, nothing changes
    assert bumps(clock, lambda: clock.press(1, 2000)) == 1
    assert bumps(clock, lambda: clock.pause(3000)) == 1
    assert bumps(clock, lambda: clock.pause(3500)) == 0  # already paused
    assert bumps(clock, lambda: clock.add_time(1, 60_000, 0)) == 1
    assert bumps(clock, lambda: clock.set_moves(3)) == 1
    assert bumps(clock, lambda: clock.resume(4000)) == 1
    # left, to move from 2000 ms, used 1 s before the pause and has 299 s from the
    # resume at 4000 ms: its flag falls at 4000 + 299,000 = 303,000 ms
    assert bumps(clock, lambda: clock.update(302_999)) == 0
    assert bumps(clock, lambda: clock.update(303_000)) == 1
    assert clock.sides[0].flagged
    assert bumps(clock, lambda: clock.configure(*[timecontrol.parse("60")] * 2)) == 1
    assert clock.state == engine.SETUP and clock.sides[1].remaining_ms == 60_000


def test_finish_freezes_the_times_shown_and_counts():
    clock, _ = fresh()
    clock.press(0, 0)  # right to move from 0 ms
    clock.pause(10_000)
    assert bumps(clock, lambda: clock.finish(10_000)) == 1
    assert clock.state == engine.OVER
    assert clock.sides[1].remaining_ms == 290_000 and clock.turn_used == 0


def test_claims_count_their_changes_and_keep_the_log_across_settings():
    clock, claims = fresh()
    assert bumps(claims, lambda: claims.note(5, "lever-while-paused", 0)) == 1
    assert bumps(claims, lambda: claims.configure("g6", "2015")) == 1
    assert (claims.quickplay, claims.edition) == ("g6", "2015")
    assert claims.log == [(5, "lever-while-paused", 0)]
    with pytest.raises(ValueError):
        claims.configure("g4-increment", "older")  # no 5-second mode in the older edition
    assert (claims.quickplay, claims.edition) == ("g6", "2015")  # refused: nothing changed


@pytest.fixture
def board():
    path = fresh_flash("300")
    board = SimBoard(path)
    board.boot()
    yield board
    remove_flash(path)


def test_settings_go_in_on_the_same_objects_and_the_journal_notices(board):
    app = board.app
    clock, claims, arbiter, journal = app.clock, app.claims, app.arbiter, app.journal
    game = journal.game
    writes = journal.writes
    app.step(vclock.ticks_ms())
    assert journal.writes == writes  # a quiet step writes nothing
    fresh_settings = settings_module.Settings()
    fresh_settings.apply({"control_left": "600", "control_right": "300", "quickplay": "g5"})
    app.apply_settings(fresh_settings)
    assert (app.clock, app.claims, app.arbiter) == (clock, claims, arbiter)
    assert journal.clock is clock and journal.claims is claims
    app.step(vclock.ticks_ms())
    assert journal.writes == writes + 1 and journal.game == game + 1  # a new header
    assert clock.sides[0].remaining_ms == 600_000 and claims.quickplay == "g5"
    app.step(vclock.ticks_ms())
    assert journal.writes == writes + 1
