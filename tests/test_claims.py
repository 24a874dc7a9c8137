"""Quickplay-finish claims (docs/spec/rules.md): every path of every edition and setting.

Most games here are played the same way by ``left_to_move``: right's press at
0 starts left (White); left's move 1 takes 10 s, right's move 1 takes 10 s,
then left thinks from 20 s until the clock is paused. With ``900`` that
leaves right 890 s and left 890 s - (pause - 20 s): a pause at 800 s shows
left 1:50.000.
"""

import json

import pytest

from firmware import claims, engine
from firmware import timecontrol as tc

LEFT, RIGHT = 0, 1
PAUSE = 800_000  # left shows 110_000, right 890_000 with "900"


def left_to_move(quickplay="g5", edition="appendix-g", control="900", pause_at=PAUSE, right=None):
    clock = engine.Clock(tc.parse(control), tc.parse(right) if right else None)
    clock.press(RIGHT, 0)
    clock.press(LEFT, 10_000)
    clock.press(RIGHT, 20_000)
    assert clock.pause(pause_at)
    return clock, claims.Claims(clock, quickplay, edition)


def right_to_move(quickplay, edition="appendix-g", pause_at=PAUSE):
    """Right thinks from 10 s with 900 s: a pause at 800 s shows right 1:50.000."""
    clock = engine.Clock(tc.parse("900"))
    clock.press(RIGHT, 0)
    clock.press(LEFT, 10_000)
    assert clock.pause(pause_at)
    return clock, claims.Claims(clock, quickplay, edition)


def shown(clock, now=PAUSE):
    return clock.shown_ms(LEFT, now), clock.shown_ms(RIGHT, now)


def snapshot(clock, box):
    sides = tuple(
        (s.remaining_ms, s.period, s.control, s.flagged, s.moves, s.can_flag) for s in clock.sides
    )
    clock_part = (clock.state, clock.mover, clock.turn_used, sides)
    return clock_part + (box.state, box.claimant, box.result, box.record, list(box.log))


# --- the setting ------------------------------------------------------------


@pytest.mark.parametrize("edition", claims.EDITIONS)
@pytest.mark.parametrize("quickplay", claims.QUICKPLAY)
def test_every_setting_but_g4_under_the_older_edition_is_allowed(quickplay, edition):
    if edition == "older" and quickplay.startswith("g4"):
        with pytest.raises(ValueError, match="no 5-second mode"):
            claims.check_setting(quickplay, edition)
        with pytest.raises(ValueError, match="no 5-second mode"):
            claims.Claims(engine.Clock(tc.parse("900")), quickplay, edition)
    else:
        claims.check_setting(quickplay, edition)


@pytest.mark.parametrize(
    "quickplay, edition, message",
    [("g7", "appendix-g", "quickplay setting 'g7'"), ("g5", "2016", "edition '2016'")],
)
def test_unknown_setting_or_edition(quickplay, edition, message):
    with pytest.raises(ValueError, match=message):
        claims.check_setting(quickplay, edition)


# --- the class of a game, per edition ------------------------------------------------
# appendix-g (A.1, B.1): blitz up to 10 min, rapid over 10 and under 60.
# 2015 and older (Article 15.1): blitz under 15 min, rapid from 15 to under 60.


@pytest.mark.parametrize(
    "text, appendix_g, article_15, total_ms",
    [
        ("300", "blitz", "blitz", 300_000),
        ("600", "blitz", "blitz", 600_000),  # 10 min: "10 minutes or less" is blitz
        ("601", "rapid", "blitz", 601_000),  # just over 10 min
        ("720", "rapid", "blitz", 720_000),  # 12 min: rapid only by A.1
        ("899", "rapid", "blitz", 899_000),
        ("900", "rapid", "rapid", 900_000),  # at least 15 min
        ("3599", "rapid", "rapid", 3_599_000),
        ("3600", "standard", "standard", 3_600_000),  # 60 min is no longer rapid
        ("300+3", "blitz", "blitz", 480_000),  # 300 + 60 x 3
        ("300+5", "blitz", "blitz", 600_000),  # 300 + 60 x 5 = 10 min
        ("480+3", "rapid", "blitz", 660_000),  # 480 + 60 x 3 = 11 min
        ("600+5", "rapid", "rapid", 900_000),  # 600 + 60 x 5
        ("2700+30", "standard", "standard", 4_500_000),
        ("5400+30", "standard", "standard", 7_200_000),
        ("600d5", "blitz", "blitz", 600_000),  # a delay gives no time
        ("600b5", "blitz", "blitz", 600_000),
        ("40/5400:1800", "standard", "standard", 7_200_000),  # period 2 starts at move 41
        ("60/600:1800", "blitz", "blitz", 600_000),  # period 2 starts at move 61
        ("59/600:1800", "rapid", "rapid", 2_400_000),  # period 2 starts at move 60
        ("40/600+10:300+5", "rapid", "rapid", 1_400_000),  # 600 + 40 x 10 + 300 + 20 x 5
        ("600j30x5", "rapid", "rapid", 2_400_000),  # 600 + 60 x 30
        ("600c20/300", "rapid", "rapid", 1_500_000),  # 600 + 3 blocks of 300
        ("*600", "blitz", "blitz", 600_000),
    ],
)
def test_classify_by_edition(text, appendix_g, article_15, total_ms):
    control = tc.parse(text)
    assert claims.game_ms(control) == total_ms
    assert claims.classify(control, "appendix-g") == appendix_g
    assert claims.classify(control, "2015") == article_15
    assert claims.classify(control, "older") == article_15


@pytest.mark.parametrize("edition, code", [("appendix-g", None), ("2015", "blitz")])
def test_a_12_minute_game_is_rapid_only_under_appendix_g(edition, code):
    # 720 s; left is paused at 640 s: 720 - 10 - (640 - 20) = 90 s left
    clock, box = left_to_move("g5", edition, control="720", pause_at=640_000)
    assert clock.shown_ms(LEFT, 640_000) == 90_000
    assert box.open(640_000) == code


# --- refusals: nothing changes ---------------------------------------------------


@pytest.mark.parametrize(
    "control, pause_at, right, code",
    [
        ("900", 790_000, None, "time-2min"),  # 2:00.000 exactly
        ("900", 20_000, None, "time-2min"),
        ("300", 200_000, None, "blitz"),  # 1:50 left, but blitz
        ("5400+30", 5_360_000, None, "has-bonus"),  # 5_450_000 at 20 s: 1:50 left
        ("1800d5", 1_710_000, None, "has-bonus"),  # 1_795_000, delay 5 s: 1:50 left
        ("1800b5", 1_705_000, None, "has-bonus"),  # 1_795_000: 1:50 left
        ("1800", 1_700_000, "1800+10", "has-bonus"),  # the opponent's control counts too
        ("40/1800:900", 1_700_000, None, "not-last-period"),  # 1:50 left before move 40
        ("*1800", 1_700_000, None, "special-control"),
        ("1800j30x5", 1_700_000, None, "special-control"),
        ("1800c20/300", 1_700_000, None, "special-control"),
    ],
)
def test_claim_refused(control, pause_at, right, code):
    clock, box = left_to_move("g5", control=control, pause_at=pause_at, right=right)
    before = snapshot(clock, box)
    assert box.open(pause_at) == code
    assert snapshot(clock, box) == before
    assert box.field() == "none" and box.log == []


def test_one_millisecond_under_two_minutes_is_accepted():
    clock, box = left_to_move("g5", pause_at=790_001)
    assert clock.shown_ms(LEFT, 790_001) == 119_999
    assert box.open(790_001) is None
    assert box.state == "open" and box.claimant == LEFT and box.field() == "open-left"
    assert box.log == [(790_001, "claim", "left")]
    assert clock.state == engine.PAUSED


def test_claim_in_the_last_period():
    # 1/1800:900: after move 1 left has 1_790_000 + 900_000 = 2_690_000
    clock, box = left_to_move("g5", control="1/1800:900", pause_at=2_600_000)
    assert clock.shown_ms(LEFT, 2_600_000) == 110_000
    assert box.open(2_600_000) is None


@pytest.mark.parametrize("edition", claims.EDITIONS)
def test_quickplay_off(edition):
    clock, box = left_to_move("off", edition)
    before = snapshot(clock, box)
    assert box.open(PAUSE) == "quickplay-off"
    assert box.decide("draw", PAUSE) == "quickplay-off"
    assert snapshot(clock, box) == before


def test_claim_while_running_or_before_the_start():
    clock, box = left_to_move("g5")
    clock.resume(PAUSE)
    assert box.open(PAUSE + 1000) == "not-paused"
    fresh = claims.Claims(engine.Clock(tc.parse("900")), "g5", "appendix-g")
    assert fresh.open(0) == "no-game"
    assert box.log == [] and fresh.log == []


def test_claim_after_the_flag():
    clock, box = left_to_move("g5")
    clock.resume(900_000)  # 110 s left: the flag falls at 1_010_000, the clock goes on
    clock.pause(1_015_000)
    assert clock.sides[LEFT].flagged and clock.state == engine.PAUSED
    assert box.open(1_015_000) == "flag-fallen"
    assert box.state == "none"


def test_claim_after_the_opponents_flag():
    clock = engine.Clock(tc.parse("900"))
    clock.press(RIGHT, 0)
    clock.press(LEFT, 790_000)  # left 110_000
    clock.press(RIGHT, 1_700_000)  # right's flag fell at 1_690_000
    clock.pause(1_705_000)
    box = claims.Claims(clock, "g5", "appendix-g")
    assert clock.shown_ms(LEFT, 1_705_000) == 105_000
    assert box.open(1_705_000) == "opponent-flag"


def test_second_claim_while_one_is_open():
    clock, box = left_to_move("g5")
    assert box.open(PAUSE) is None
    assert box.open(PAUSE + 1) == "claim-open"
    assert len(box.log) == 1


# --- G.4, appendix-g edition ---------------------------------------------------


@pytest.mark.parametrize("quickplay", ["g4-increment", "g4-delay"])
def test_g4_draw(quickplay):
    clock, box = left_to_move(quickplay)
    assert box.open(PAUSE) is None
    assert box.decide("draw", PAUSE + 500) is None
    assert box.result == "draw" and box.state == "none" and box.field() == "none"
    assert clock.state == engine.OVER and clock.running() == engine.NOBODY
    assert shown(clock, 5_000_000) == (110_000, 890_000)  # frozen for good
    assert not clock.resume(5_000_000) and not clock.press(LEFT, 5_000_000)
    assert box.open(5_000_000) == "no-game"
    assert box.log == [(PAUSE, "claim", "left"), (PAUSE + 500, "draw", "left")]


@pytest.mark.parametrize("quickplay", ["g4-increment", "g4-delay"])
def test_g4_refuse_changes_nothing_and_the_player_may_claim_again(quickplay):
    clock, box = left_to_move(quickplay)
    assert box.open(PAUSE) is None
    before = snapshot(clock, box)[:4]
    assert box.decide("refuse", PAUSE) is None
    assert snapshot(clock, box)[:4] == before
    assert box.state == "none" and box.result == "none" and shown(clock) == (110_000, 890_000)
    assert box.open(PAUSE + 1) is None


def test_g4_grant_with_increment():
    clock, box = left_to_move("g4-increment")
    assert box.open(PAUSE) is None
    assert box.decide("grant", PAUSE + 1000) is None
    assert box.state == "none" and box.result == "none"
    assert clock.state == engine.PAUSED and clock.mover == LEFT and clock.turn_used == 0
    for side in clock.sides:  # the game's own control stays; the mode is added over it
        assert side.control.text == "900" and side.period == 0
        assert side.period_mode() == tc.FISCHER and side.period_bonus_ms() == 5000
    assert shown(clock) == (115_000, 1_010_000)  # claimant +5 s at once, opponent +2:00
    assert clock.sides[RIGHT].remaining_ms == 1_010_000
    clock.resume(900_000)
    assert clock.shown_ms(LEFT, 910_000) == 105_000
    clock.press(LEFT, 910_000)
    assert clock.sides[LEFT].remaining_ms == 110_000  # 115 - 10 + 5
    assert clock.shown_ms(RIGHT, 915_000) == 1_005_000
    clock.press(RIGHT, 920_000)
    assert clock.sides[RIGHT].remaining_ms == 1_005_000  # 1010 - 10 + 5
    assert clock.moves() == 2 and clock.stage(LEFT, 920_000) == "1"
    clock.pause(920_000)
    assert box.open(920_000) == "has-bonus"  # the game now has an increment
    assert box.log == [
        (PAUSE, "claim", "left"),
        (PAUSE + 1000, "grant", "left"),
        (PAUSE + 1000, "add", "right 120000"),
        (PAUSE + 1000, "mode", "0+5"),
    ]


def test_g4_grant_with_delay_gives_the_move_in_progress_a_fresh_delay():
    clock, box = left_to_move("g4-delay")
    assert clock.turn_used == 780_000
    assert box.open(PAUSE) is None
    assert box.decide("grant", PAUSE) is None
    for side in clock.sides:
        assert side.control.text == "900" and side.period == 0
        assert side.period_mode() == tc.DELAY and side.period_bonus_ms() == 5000
    assert clock.turn_used == 0 and clock.sides[LEFT].remaining_ms == 110_000
    assert shown(clock) == (110_000, 1_010_000)
    clock.resume(900_000)
    assert clock.shown_ms(LEFT, 904_999) == 110_000 and clock.in_delay(904_999)
    assert clock.shown_ms(LEFT, 905_000) == 110_000 and not clock.in_delay(905_000)
    assert clock.shown_ms(LEFT, 906_000) == 109_000
    clock.press(LEFT, 906_000)
    assert clock.sides[LEFT].remaining_ms == 109_000
    assert clock.shown_ms(RIGHT, 911_000) == 1_010_000  # the opponent's delay too
    assert clock.shown_ms(RIGHT, 913_000) == 1_008_000


def test_g4_delay_flag_after_grant_freezes_the_clock():
    clock, box = left_to_move("g4-delay")
    box.open(PAUSE)
    box.decide("grant", PAUSE)
    clock.resume(900_000)
    clock.update(1_015_000)  # 5 s delay + 110 s
    assert clock.state == engine.OVER and clock.first_flag == LEFT
    assert shown(clock, 1_020_000) == (0, 1_010_000)


@pytest.mark.parametrize("outcome", ["postpone", "postpone+2", "reject", "nonsense"])
def test_g4_outcomes_of_g5_are_refused(outcome):
    clock, box = left_to_move("g4-increment")
    box.open(PAUSE)
    before = snapshot(clock, box)
    assert box.decide(outcome, PAUSE) == "bad-outcome"
    assert snapshot(clock, box) == before and box.state == "open"


# --- 2015 edition, 10.4: the claim alone is granted --------------------------------


def test_2015_g4_increment_is_granted_at_once():
    clock, box = left_to_move("g4-increment", "2015")
    assert box.open(PAUSE) is None
    assert box.state == "none" and box.claimant == engine.NOBODY and box.field() == "none"
    assert box.result == "none" and clock.state == engine.PAUSED and clock.mover == LEFT
    assert shown(clock) == (115_000, 1_010_000)
    assert [s.period_mode() for s in clock.sides] == [tc.FISCHER, tc.FISCHER]
    assert box.log == [
        (PAUSE, "claim", "left"),
        (PAUSE, "grant", "left"),
        (PAUSE, "add", "right 120000"),
        (PAUSE, "mode", "0+5"),
    ]
    assert box.decide("draw", PAUSE) == "no-claim"


def test_2015_g4_delay_is_granted_at_once():
    clock, box = left_to_move("g4-delay", "2015")
    assert box.open(PAUSE) is None
    assert box.state == "none" and clock.turn_used == 0
    assert shown(clock) == (110_000, 1_010_000)
    assert [s.period_mode() for s in clock.sides] == [tc.DELAY, tc.DELAY]
    clock.resume(900_000)
    assert clock.shown_ms(LEFT, 905_000) == 110_000
    assert clock.shown_ms(LEFT, 907_000) == 108_000


# --- G.5, 2015 10.5, older 10.2 ---------------------------------------------------


@pytest.mark.parametrize("edition", claims.EDITIONS)
def test_g5_draw(edition):
    clock, box = left_to_move("g5", edition)
    assert box.open(PAUSE) is None
    assert box.decide("draw", PAUSE) is None
    assert box.result == "draw" and clock.state == engine.OVER and box.field() == "none"
    assert shown(clock, 2_000_000) == (110_000, 890_000)


@pytest.mark.parametrize("edition", claims.EDITIONS)
def test_g5_postpone(edition):
    clock, box = left_to_move("g5", edition)
    box.open(PAUSE)
    assert box.decide("postpone", PAUSE) is None
    assert box.state == "postponed" and box.field() == "postponed-left"
    assert box.claimant == LEFT and box.result == "none"
    assert clock.state == engine.PAUSED and clock.mover == LEFT
    assert shown(clock) == (110_000, 890_000)


@pytest.mark.parametrize("edition", claims.EDITIONS)
def test_g5_postpone_with_two_minutes(edition):
    clock, box = left_to_move("g5", edition)
    box.open(PAUSE)
    assert box.decide("postpone+2", PAUSE) is None
    assert box.field() == "postponed-left" and shown(clock) == (110_000, 1_010_000)
    assert clock.state == engine.PAUSED and clock.mover == LEFT


@pytest.mark.parametrize("edition", claims.EDITIONS)
def test_g5_reject_twice_gives_the_opponent_four_minutes(edition):
    clock, box = left_to_move("g5", edition)
    assert box.open(PAUSE) is None
    assert box.decide("reject", PAUSE + 1) is None
    assert box.state == "none" and shown(clock) == (110_000, 1_010_000)
    assert clock.state == engine.PAUSED and clock.mover == LEFT
    assert box.open(PAUSE + 2) is None
    assert box.decide("reject", PAUSE + 3) is None
    assert shown(clock) == (110_000, 1_130_000)  # 890 + 2 x 120
    assert [entry[1] for entry in box.log] == ["claim", "reject", "add"] * 2


@pytest.mark.parametrize("outcome", ["grant", "refuse", "postpone+3"])
def test_g5_outcomes_of_g4_are_refused(outcome):
    clock, box = left_to_move("g5")
    box.open(PAUSE)
    before = snapshot(clock, box)
    assert box.decide(outcome, PAUSE) == "bad-outcome"
    assert snapshot(clock, box) == before


def test_postponed_claim_stays_marked_after_the_flag_then_drawn():
    clock, box = left_to_move("g5")
    box.open(PAUSE)
    box.decide("postpone", PAUSE)
    clock.resume(900_000)
    clock.update(1_010_000)  # 110 s after resuming
    assert clock.sides[LEFT].flagged and clock.first_flag == LEFT
    assert clock.state == engine.RUNNING  # no increment: the clock goes on
    assert box.field() == "postponed-left"
    assert box.decide("draw", 1_020_000) == "not-paused"
    clock.pause(1_020_000)
    assert box.decide("postpone", 1_020_000) == "bad-outcome"
    assert box.decide("draw", 1_020_000) is None
    assert box.result == "draw" and clock.state == engine.OVER
    assert shown(clock, 1_030_000) == (0, 890_000)


def test_postponed_claim_rejected_after_the_flag():
    clock, box = left_to_move("g5")
    box.open(PAUSE)
    box.decide("postpone", PAUSE)
    clock.resume(900_000)
    clock.pause(1_020_000)  # left's flag fell at 1_010_000
    assert box.decide("reject", 1_020_000) is None
    assert box.state == "none" and box.result == "none"
    assert shown(clock, 1_020_000) == (0, 1_010_000)


def test_postponed_claim_rejected_after_the_opponents_flag_adds_nothing():
    clock, box = left_to_move("g5")
    box.open(PAUSE)
    box.decide("postpone", PAUSE)
    clock.resume(900_000)
    clock.press(LEFT, 901_000)  # left 109_000; right 890_000 from 901 s
    clock.pause(1_800_000)  # right's flag fell at 1_791_000
    assert box.decide("reject", 1_800_000) is None
    assert box.state == "none" and shown(clock, 1_800_000) == (109_000, 0)
    assert [entry[1] for entry in box.log] == ["claim", "postpone", "reject"]


def test_new_claim_while_one_is_postponed_is_refused():
    clock, box = left_to_move("g5")
    box.open(PAUSE)
    box.decide("postpone", PAUSE)
    clock.resume(900_000)
    clock.press(LEFT, 901_000)  # left 109_000
    clock.press(RIGHT, 902_000)
    clock.pause(903_000)
    assert clock.shown_ms(LEFT, 903_000) == 108_000
    assert box.open(903_000) == "claim-postponed"
    assert box.field() == "postponed-left"


def test_ruling_needs_the_clock_paused_but_not_the_claimant_to_move():
    clock, box = left_to_move("g5")
    assert box.decide("draw", PAUSE) == "no-claim"
    box.open(PAUSE)
    clock.resume(900_000)
    assert box.decide("reject", 901_000) == "not-paused"
    clock.press(LEFT, 902_000)  # play went on with the claim open: left 108_000
    clock.pause(903_000)  # right used 1 s: 889_000
    assert box.field() == "open-left"
    assert box.decide("reject", 903_000) is None  # still decidable: right +2:00
    assert box.state == "none" and shown(clock, 903_000) == (108_000, 1_009_000)
    assert box.decide("close", 903_000) == "no-claim"


# --- the claim's life cycle (docs/arbiter.md) -------------------------------------------


def test_postpone_with_two_minutes_then_reject_gives_the_two_minutes_once():
    clock, box = left_to_move("g5")
    box.open(PAUSE)
    assert box.decide("postpone+2", PAUSE) is None
    assert shown(clock) == (110_000, 1_010_000) and box.awarded  # 890 + 120
    assert box.decide("reject", PAUSE + 1) is None  # the final "not upheld"
    assert shown(clock) == (110_000, 1_010_000)  # nothing more: once per claim
    assert box.state == "none" and not box.awarded
    assert [entry[1] for entry in box.log] == ["claim", "postpone+2", "add", "reject"]


def test_postpone_without_time_then_reject_gives_the_two_minutes():
    clock, box = left_to_move("g5")
    box.open(PAUSE)
    box.decide("postpone", PAUSE)
    assert box.decide("reject", PAUSE + 1) is None
    assert shown(clock) == (110_000, 1_010_000)  # 890 + 120, given at the reject


@pytest.mark.parametrize("state", ["open", "postponed", "postponed+2"])
def test_close_ends_any_claim_without_an_award(state):
    clock, box = left_to_move("g5")
    box.open(PAUSE)
    if state != "open":
        box.decide("postpone+2" if state.endswith("+2") else "postpone", PAUSE)
    right_before = clock.shown_ms(RIGHT, PAUSE)
    assert box.decide("close", PAUSE + 1) is None
    assert box.state == "none" and box.result == "none" and box.claimant == engine.NOBODY
    assert clock.shown_ms(RIGHT, PAUSE) == right_before and clock.state == engine.PAUSED
    assert box.log[-1] == (PAUSE + 1, "close", "left")
    assert box.open(PAUSE + 2) is None  # the player may claim again


@pytest.mark.parametrize("quickplay", ["g4-increment", "g4-delay"])
def test_close_a_g4_claim(quickplay):
    clock, box = left_to_move(quickplay)
    box.open(PAUSE)
    assert box.decide("close", PAUSE) is None
    assert box.state == "none" and shown(clock) == (110_000, 890_000)
    assert clock.sides[LEFT].period_mode() == tc.NONE


def test_open_claim_stays_decidable_after_play_went_on_and_a_flag():
    clock, box = left_to_move("g5")
    box.open(PAUSE)  # left 110_000; the arbiter leaves the ruling for later
    clock.resume(900_000)
    clock.press(LEFT, 910_000)  # left 100_000
    clock.press(RIGHT, 920_000)  # right 880_000
    clock.update(1_020_000)  # left's flag falls at 920 + 100 = 1_020 s
    clock.pause(1_025_000)
    assert clock.sides[LEFT].flagged and box.field() == "open-left"
    assert box.refusal(1_025_000) == "claim-open"  # the claimant is to move again
    assert box.decide("grant", 1_025_000) == "bad-outcome"  # a G.5 claim
    assert box.decide("draw", 1_025_000) is None
    assert box.result == "draw" and clock.state == engine.OVER


def test_the_other_player_claims_in_turn_and_the_earlier_claim_is_closed():
    clock, box = left_to_move("g5")
    box.open(PAUSE)
    box.decide("postpone+2", PAUSE)  # right 890 + 120 = 1010
    clock.resume(900_000)
    clock.press(LEFT, 905_000)  # left 105_000; right thinks from 905 s
    clock.pause(1_800_000)  # right 1_010_000 - 895_000 = 115_000
    assert clock.shown_ms(RIGHT, 1_800_000) == 115_000
    assert box.refusal(1_800_000) is None  # left's pending claim does not stop right
    assert box.open(1_800_000) is None
    assert box.field() == "open-right" and not box.awarded
    assert [entry[1:] for entry in box.log[-2:]] == [("close", "left"), ("claim", "right")]
    assert box.decide("reject", 1_800_001) is None  # left gets the two minutes of right's claim
    assert shown(clock, 1_800_001) == (225_000, 115_000)  # 105 + 120


def test_the_other_player_cannot_claim_in_turn_with_two_minutes():
    clock, box = left_to_move("g5")
    box.open(PAUSE)
    clock.resume(900_000)
    clock.press(LEFT, 905_000)
    clock.pause(906_000)  # right 889_000
    assert box.open(906_000) == "time-2min"
    assert box.field() == "open-left"  # unchanged


def test_g4_grant_keeps_every_period_still_to_come():
    # right: 10/300:600, at move 5; left: 900, claims with 1:50 in its only period
    clock = engine.Clock(tc.parse("900"), tc.parse("10/300:600"))
    clock.press(RIGHT, 0)  # left (White) thinks from 0
    for move in range(5):  # each side's move takes 1 s
        clock.press(LEFT, 2000 * move + 1000)
        clock.press(RIGHT, 2000 * move + 2000)
    # left: 900 - 5 = 895 s at 10 s; right: 300 - 5 = 295 s
    clock.pause(795_000)  # left 895 - 785 = 110 s
    box = claims.Claims(clock, "g4-increment", "appendix-g")
    assert box.open(795_000) is None and box.decide("grant", 795_000) is None
    # left 110 + 5 (the move in progress in the new mode), right 295 + 120 = 415
    assert shown(clock, 795_000) == (115_000, 415_000)
    clock.resume(800_000)
    clock.press(LEFT, 801_000)  # left 115 - 1 + 5 = 119
    for move in range(4):  # right's moves 6-9, 1 s each, +5 s: 415 + 4 x 4 = 431
        clock.press(RIGHT, 802_000 + 2000 * move)
        clock.press(LEFT, 803_000 + 2000 * move)
    assert clock.sides[RIGHT].remaining_ms == 431_000 and clock.sides[RIGHT].moves == 9
    clock.press(RIGHT, 810_000)  # move 10, 1 s: 431 - 1 + 600 (period 2) + 5 = 1035
    assert clock.sides[RIGHT].remaining_ms == 1_035_000
    assert clock.stage(RIGHT, 810_000) == "2"
    assert clock.sides[RIGHT].period_mode() == tc.FISCHER


@pytest.mark.parametrize(
    "control, edition, kind, default_ms, event_ms",
    [
        ("5400", "appendix-g", "standard", 120_000, 180_000),
        ("1500", "appendix-g", "rapid", 60_000, 90_000),
        ("720", "appendix-g", "rapid", 60_000, 90_000),  # rapid by A.1
        ("720", "2015", "blitz", 60_000, 30_000),  # blitz by Article 15.1
        ("300", "older", "blitz", 60_000, 30_000),
    ],
)
def test_penalty_by_the_games_own_class(control, edition, kind, default_ms, event_ms):
    box = claims.Claims(engine.Clock(tc.parse(control)), "g5", edition)
    assert box.game_class() == kind and box.penalty() == default_ms
    event = claims.Claims(engine.Clock(tc.parse(control)), "g5", edition, (180_000, 90_000, 30_000))
    assert event.penalty() == event_ms


# One class for the game (A.1, B.1 "for each player"): the higher of the two sides'.
@pytest.mark.parametrize(
    "left, right, edition, kind, penalty_ms, claim",
    [
        ("2/900:300", "3600", "appendix-g", "standard", 120_000, None),  # 20 + 5 vs 60
        ("1200", "3600", "appendix-g", "standard", 120_000, True),
        ("600", "1200", "appendix-g", "rapid", 60_000, True),  # blitz vs rapid: rapid
        ("600", "1200", "2015", "rapid", 120_000, True),
        ("300", "600", "appendix-g", "blitz", 60_000, False),  # both blitz
        ("600", "840", "2015", "blitz", 60_000, False),  # both under 15 (15.1)
    ],
)
def test_one_class_for_the_game_the_higher_sides(left, right, edition, kind, penalty_ms, claim):
    for controls in ((left, right), (right, left)):
        clock = engine.Clock(tc.parse(controls[0]), tc.parse(controls[1]))
        box = claims.Claims(clock, "g5", edition)
        assert box.game_class() == kind
        assert box.penalty() == penalty_ms
        if claim is None:
            continue
        clock.press(RIGHT, 0)  # left is White
        clock.pause(1000)
        clock.add_time(LEFT, 100_000 - clock.shown_ms(LEFT, 1000), 1000)  # under two minutes
        refused = box.refusal(1000)
        assert (refused is None) == claim, refused
        assert claim or refused == "blitz"


def test_penalty_after_a_grant_still_judges_the_game():
    clock, box = left_to_move("g4-increment", control="5400", pause_at=5_300_000)
    assert box.open(5_300_000) is None and box.decide("grant", 5_300_000) is None
    assert box.game_class() == "standard" and box.penalty() == 120_000


# --- G.6, older Article 11 ----------------------------------------------------------


@pytest.mark.parametrize("edition", claims.EDITIONS)
def test_g6_records_the_claim_and_ends_the_game(edition):
    clock, box = left_to_move("g6", edition)
    assert box.open(PAUSE) is None
    assert box.state == "recorded" and box.field() == "recorded-left" and box.claimant == LEFT
    assert box.result == "none" and clock.state == engine.OVER
    assert box.record == {
        "claimant": "left",
        "left_ms": 110_000,
        "right_ms": 890_000,
        "moves": 1,
        "control_left": "900",
        "control_right": "900",
        "edition": edition,
        "setting": "g6",
    }
    assert json.loads(json.dumps(box.record)) == box.record
    assert shown(clock, 9_000_000) == (110_000, 890_000)  # frozen for good
    assert not clock.resume(9_000_000) and not clock.press(LEFT, 9_000_000)
    assert clock.running() == engine.NOBODY
    assert box.decide("draw", 9_000_000) == "no-arbiter"
    assert box.open(9_000_000) == "no-game"
    assert box.log == [(PAUSE, "claim", "left"), (PAUSE, "record", "left")]


def test_g6_claim_by_right():
    clock, box = right_to_move("g6", "older")
    assert clock.shown_ms(RIGHT, PAUSE) == 110_000
    assert box.open(PAUSE) is None
    assert box.field() == "recorded-right"
    assert box.record["claimant"] == "right" and box.record["moves"] == 1
    assert (box.record["left_ms"], box.record["right_ms"]) == (890_000, 110_000)


def test_g6_refusals_are_those_of_every_setting():
    clock, box = left_to_move("g6", pause_at=790_000)
    assert box.open(790_000) == "time-2min"
    assert box.state == "none" and clock.state == engine.PAUSED


def test_claim_by_right_is_marked_right():
    clock, box = right_to_move("g5")
    assert box.open(PAUSE) is None and box.field() == "open-right"
    assert box.decide("reject", PAUSE) is None
    assert shown(clock) == (1_010_000, 110_000)


# --- adding time ---------------------------------------------------------------------


def test_add_time_moves_the_shown_time_of_either_side():
    clock = engine.Clock(tc.parse("900"))
    box = claims.Claims(clock, "off", "appendix-g")
    clock.press(RIGHT, 0)  # left runs from 0
    assert box.add_time(LEFT, 120_000) is None
    assert box.add_time(RIGHT, 60_000, 5000) is None
    assert shown(clock, 10_000) == (1_010_000, 960_000)
    assert box.log == [(5000, "add", "right 60000")]
    clock.pause(10_000)
    assert box.add_time(LEFT, -10_000) is None
    assert shown(clock, 99_999) == (1_000_000, 960_000)
    assert box.add_time(LEFT, -1_000_001) == "bad-time"
    assert shown(clock, 0) == (1_000_000, 960_000)


def test_add_time_in_the_delay_and_the_hourglass():
    clock = engine.Clock(tc.parse("60d5"))
    box = claims.Claims(clock, "off", "appendix-g")
    clock.press(RIGHT, 0)
    assert box.add_time(LEFT, 1000) is None
    assert clock.shown_ms(LEFT, 3000) == 61_000  # inside the delay
    assert clock.shown_ms(LEFT, 8000) == 58_000  # 3 s past it
    glass = engine.Clock(tc.parse("*60"))
    box = claims.Claims(glass, "off", "appendix-g")
    glass.press(RIGHT, 0)
    assert box.add_time(RIGHT, 5000) is None and box.add_time(LEFT, 5000) is None
    assert shown(glass, 10_000) == (55_000, 75_000)


def test_add_time_after_the_flag_clears_it_and_the_log_keeps_it():
    clock, box = left_to_move("g5")
    clock.resume(900_000)
    clock.pause(1_015_000)  # left's flag fell at 1_010_000
    assert box.add_time(LEFT, -1, 1_015_000) == "bad-time"
    assert box.add_time(LEFT, 120_000, 1_015_000) is None
    side = clock.sides[LEFT]
    assert not side.flagged and side.can_flag and clock.first_flag == engine.NOBODY
    assert clock.shown_ms(LEFT, 1_015_000) == 120_000  # from zero: the turn's use is spent
    clock.resume(1_020_000)
    assert clock.shown_ms(LEFT, 1_030_000) == 110_000
    assert [entry[1] for entry in box.log] == ["flag-cleared", "add"]


def test_a_correction_to_zero_is_a_fallen_flag():
    clock, box = left_to_move("g5")  # left 110_000, right 890_000, left to move
    assert box.add_time(RIGHT, -890_000, PAUSE) is None
    assert clock.sides[RIGHT].flagged and clock.first_flag == RIGHT
    assert shown(clock) == (110_000, 0)
    assert box.open(PAUSE) == "opponent-flag"
    assert box.add_time(LEFT, -110_000, PAUSE) is None
    assert clock.sides[LEFT].flagged and clock.first_flag == RIGHT
    assert box.open(PAUSE) == "flag-fallen"
    assert [entry[1] for entry in box.log] == ["add", "flag", "add", "flag"]


# Corrections and penalties in byo-yomi (6.10.2, 7.5.5 apply to every control):
# main time while the side is in it; in byo-yomi the period or block it is in,
# the periods to come keeping their length.


def byo_game(text, think_ms):
    """Left (White) to move, paused after thinking ``think_ms``."""
    clock = engine.Clock(tc.parse(text))
    box = claims.Claims(clock, "off", "appendix-g")
    clock.press(RIGHT, 0)
    clock.pause(think_ms)
    return clock, box


def test_a_penalty_in_japanese_main_time_goes_to_the_main_time():
    clock, box = byo_game("3600j30x3", 100_000)  # left 3600 - 100 = 3500
    assert box.add_time(LEFT, box.penalty(), 100_000) is None  # standard: +2:00
    assert clock.shown_ms(LEFT, 100_000) == 3_620_000 and clock.stage(LEFT, 100_000) == "1"
    assert box.add_time(RIGHT, -600_000, 100_000) is None  # right 3600 - 600
    assert clock.shown_ms(RIGHT, 100_000) == 3_000_000
    clock.resume(200_000)
    clock.press(LEFT, 3_820_000)  # 3620 s used up exactly: into the periods, all 3 kept
    assert clock.stage(LEFT, 3_820_000) == "byo3" and clock.shown_ms(LEFT, 3_820_000) == 30_000


def test_a_penalty_in_a_japanese_period_lengthens_that_period_only():
    clock, box = byo_game("60j30x3", 70_000)  # 60 s main, then 10 s into period 1
    assert clock.shown_ms(LEFT, 70_000) == 20_000 and clock.stage(LEFT, 70_000) == "byo3"
    assert box.add_time(LEFT, 60_000, 70_000) is None  # this period: 20 + 60 = 80 s
    assert clock.shown_ms(LEFT, 70_000) == 80_000 and clock.stage(LEFT, 70_000) == "byo3"
    clock.resume(100_000)
    assert clock.shown_ms(LEFT, 150_000) == 30_000  # 80 - 50
    clock.press(LEFT, 150_000)  # within the period: kept, and the next is 30 s again
    assert clock.shown_ms(LEFT, 150_000) == 30_000 and clock.stage(LEFT, 150_000) == "byo3"
    clock.press(RIGHT, 151_000)
    assert clock.shown_ms(LEFT, 171_000) == 10_000  # 30 - 20
    assert clock.shown_ms(LEFT, 191_000) == 20_000 and clock.stage(LEFT, 191_000) == "byo2"


def test_a_correction_past_the_japanese_period_uses_up_periods_only_as_play_does():
    clock, box = byo_game("60j30x3", 70_000)
    assert box.add_time(LEFT, -15_000, 70_000) is None  # period 1: 20 - 15 = 5 s
    clock.resume(80_000)
    assert clock.shown_ms(LEFT, 84_000) == 1_000
    assert clock.shown_ms(LEFT, 86_000) == 29_000 and clock.stage(LEFT, 86_000) == "byo2"


def test_a_correction_to_zero_in_a_period_is_a_fallen_flag():
    clock, box = byo_game("60j30x3", 70_000)
    assert box.add_time(LEFT, -20_000, 70_000) is None
    assert clock.sides[LEFT].flagged and clock.first_flag == LEFT
    assert clock.shown_ms(LEFT, 70_000) == 0
    assert box.add_time(LEFT, 45_000, 70_000) is None  # the flag cleared, a last period
    assert not clock.sides[LEFT].flagged and clock.shown_ms(LEFT, 70_000) == 45_000
    clock.resume(70_000)
    clock.update(114_999)
    assert not clock.sides[LEFT].flagged
    clock.update(115_000)  # 45 s later
    assert clock.sides[LEFT].flagged


def test_main_time_brought_to_zero_starts_the_byo_yomi_no_flag():
    clock, box = byo_game("600j30x3", 100_000)  # left 500 s of main time
    assert box.add_time(LEFT, -500_000, 100_000) is None
    assert not clock.sides[LEFT].flagged
    assert clock.shown_ms(LEFT, 100_000) == 30_000 and clock.stage(LEFT, 100_000) == "byo3"


def test_a_penalty_in_a_canadian_block_goes_to_the_block():
    clock, box = byo_game("60c10/300", 100_000)  # main 60, then 40 s into the block
    assert clock.shown_ms(LEFT, 100_000) == 260_000 and clock.stage(LEFT, 100_000) == "can10"
    assert box.add_time(LEFT, 120_000, 100_000) is None  # the block: 260 + 120
    assert clock.shown_ms(LEFT, 100_000) == 380_000 and clock.stage(LEFT, 100_000) == "can10"
    clock.resume(100_000)
    clock.press(LEFT, 180_000)  # 380 - 80 = 300, 9 moves left in the block
    assert clock.shown_ms(LEFT, 180_000) == 300_000 and clock.stage(LEFT, 180_000) == "can9"


def test_a_penalty_in_canadian_main_time_goes_to_the_main_time():
    clock, box = byo_game("600c10/300", 100_000)  # left 500 s of main time
    assert box.add_time(RIGHT, 60_000, 100_000) is None
    assert box.add_time(LEFT, 60_000, 100_000) is None
    assert clock.shown_ms(LEFT, 100_000) == 560_000 and clock.shown_ms(RIGHT, 100_000) == 660_000
    clock.resume(100_000)
    assert clock.shown_ms(LEFT, 660_000) == 300_000 and clock.stage(LEFT, 660_000) == "can10"
