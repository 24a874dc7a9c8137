"""Every value the parser accepts survives a power cut exactly: the journal's fields
are at least as wide as what a script or the menus can reach.

Bounds (docs/spec/scripts.md, "Limits"; sim.script): 9 periods, 999 moves a period,
999 byo-yomi periods or Canadian moves, 9:59:59 at the start and in one
correction, 99:59:59.999 after corrections, the move counter set to 9999 and
at most 10,000 timed statements (so 19,999 moves, and times up to
9:59:59 + 10,000 x 60 s of increments), 24 hours of script. The script
``tests/scenarios/power/extremes.clock`` takes a game through a cut with
them; here every field of a record goes to its bound and back.
"""

import pytest

from firmware import claims as claims_module
from firmware import engine, journal, timecontrol
from firmware.boot import journal_read
from sim import script as script_module
from tests import records
from tests.scripting import fields, run_text

NINE = "999/35999:" * 8 + "35999+60"
MOST_MOVES = script_module.MAX_MOVES + script_module.MAX_STATEMENTS  # 19,999
# The most time a side can have: 9:59:59 at the start plus 60 s for each move.
MOST_MS = timecontrol.MAX_START_MS + script_module.MAX_STATEMENTS * 60_000
MOST_TURN_MS = script_module.MAX_SCRIPT_MS


def round_trip(left, right, set_up):
    """Encode a game set up by ``set_up(clock, claims)``, decode it on fresh objects."""
    controls = (timecontrol.parse(left), timecontrol.parse(right))
    clock = engine.Clock(*controls)
    claims = claims_module.Claims(clock, "g6", "appendix-g")
    clock.press(1, 0)  # left is White
    set_up(clock, claims)
    buf = bytearray(journal.RECORD_SIZE)
    records.encode(buf, 7, 0x7FFFFFFE, clock, claims, clock.turn_used, 65_535)
    assert journal_read.valid(buf)
    assert journal_read.game_id(buf) == 0x7FFFFFFE and journal_read.log_count(buf) == 65_535
    back = engine.Clock(timecontrol.parse(left), timecontrol.parse(right))
    back_claims = claims_module.Claims(back, "g6", "appendix-g")
    journal_read.decode(buf, back, back_claims)
    return clock, claims, back, back_claims


def side_fields(side):
    return (
        side.remaining_ms,
        side.period,
        side.moves,
        side.flagged,
        side.can_flag,
        side.final,
        side.in_byo,
        side.byo_left,
        side.block_ms,
    )


def assert_same(clock, back):
    assert back.state == engine.PAUSED
    assert (back.mover, back.white, back.first_flag, back.turn_used) == (
        clock.mover,
        clock.white,
        clock.first_flag,
        clock.turn_used,
    )
    for index in (0, 1):
        assert side_fields(back.sides[index]) == side_fields(clock.sides[index])


def test_periods_moves_and_times_at_their_bounds():
    def set_up(clock, claims):
        clock.state = engine.PAUSED
        clock.turn_used = MOST_TURN_MS
        for side in clock.sides:
            side.period = 8  # the ninth
            side.moves = MOST_MOVES
            side.remaining_ms = MOST_MS
        clock.sides[1].remaining_ms = 0
        clock.sides[1].flagged = True
        clock.first_flag = 1

    clock, _, back, _ = round_trip(NINE, NINE, set_up)
    assert_same(clock, back)
    assert back.moves() == 19_999 and back.sides[0].remaining_ms == 636_000_000 - 1_000


@pytest.mark.parametrize("control", ["35999j35999x999", "35999c999/35999"])
def test_byo_yomi_at_its_bounds(control):
    def set_up(clock, claims):
        clock.state = engine.PAUSED
        for side in clock.sides:
            side.in_byo = True
            side.remaining_ms = 0
            side.byo_left = 999
            side.block_ms = 35_999_000

    clock, _, back, _ = round_trip(control, control, set_up)
    assert_same(clock, back)
    assert back.stage(0, 0) == ("byo999" if "j" in control else "can999")


def test_a_g6_record_at_its_bounds():
    def set_up(clock, claims):
        clock.state = engine.PAUSED
        clock.sides[0].moves = MOST_MOVES
        clock.sides[0].remaining_ms = MOST_MS
        clock.sides[1].remaining_ms = 100_000
        clock.mover = 1
        claims.open(0)

    clock, claims, back, back_claims = round_trip("5400", "5400", set_up)
    assert back_claims.state == "recorded" and back_claims.claimant == 1
    for key in ("moves", "left_ms", "right_ms", "claimant"):
        assert back_claims.record[key] == claims.record[key]
    assert back_claims.record["left_ms"] == MOST_MS


def test_a_correction_beyond_what_the_display_shows_is_refused_on_the_clock():
    clock = engine.Clock(timecontrol.parse("35999"))
    claims = claims_module.Claims(clock, "off", "appendix-g")
    clock.press(1, 0)
    clock.pause(0)
    # 9:59:59 + 9 x 9:59:59 = 99:59:50; one more 9 s is 99:59:59, then 1 ms is too much
    for _ in range(9):
        assert claims.add_time(0, 35_999_000, 0) is None
    assert claims.add_time(0, 9_000, 0) is None
    assert clock.shown_ms(0, 0) == 359_999_000
    assert claims.add_time(0, 1_000, 0) == "bad-time"
    assert claims.add_time(0, 999, 0) is None  # 99:59:59.999, the most the display shows
    assert claims.add_time(0, -35_999_000, 0) is None  # taking time off always can


def test_the_scenario_at_the_extremes_comes_back_from_a_cut():
    with open("tests/scenarios/power/extremes.clock") as handle:
        status, lines = run_text(handle.read(), "power/extremes.clock")
    assert status == 0, lines
    end = fields(lines[-1].split(": end: ")[1])
    assert end["moves"] == "100" and end["left_stage"] == "9" and end["right_stage"] == "byo996"


def test_the_checksum_is_fletcher_16_at_every_length_a_record_has():
    # Fletcher-16 (RFC 1146's checksum family): two sums modulo 255 over the bytes.
    # The published vectors give sum2 << 8 | sum1; the journal stores sum1 << 8 | sum2.
    checksum = journal.checksum
    for text, published in ((b"abcde", 0xC8F0), (b"abcdef", 0x2057), (b"abcdefgh", 0x0627)):
        assert checksum(text, len(text)) == (published & 0xFF) << 8 | published >> 8
    # The largest sums a record can give (0xFF is 0 modulo 255): every byte 0xFE.
    full = bytes([0xFE]) * journal.RECORD_SIZE
    for count in (journal.RECORD_SIZE - 1, journal.RECORD_SIZE):
        first = second = 0
        for byte in full[:count]:
            first = (first + byte) % 255
            second = (second + first) % 255
        assert checksum(full, count) == first << 8 | second
