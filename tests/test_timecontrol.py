"""Time-control syntax: what each form means, and every refusal named."""

import pytest

from firmware import timecontrol as tc


@pytest.mark.parametrize(
    "text, kind, periods, start",
    [
        ("5400", tc.STAGES, ((0, 5_400_000, tc.NONE, 0),), 5_400_000),
        ("300+3", tc.STAGES, ((0, 300_000, tc.FISCHER, 3000),), 303_000),
        ("5400d5", tc.STAGES, ((0, 5_400_000, tc.DELAY, 5000),), 5_400_000),
        ("5400b10", tc.STAGES, ((0, 5_400_000, tc.BRONSTEIN, 10_000),), 5_400_000),
        (
            "40/5400+30:1800+30",
            tc.STAGES,
            ((40, 5_400_000, tc.FISCHER, 30_000), (0, 1_800_000, tc.FISCHER, 30_000)),
            5_430_000,
        ),
        ("*60", tc.HOURGLASS, ((0, 60_000, tc.NONE, 0),), 60_000),
        ("0+5", tc.STAGES, ((0, 0, tc.FISCHER, 5000),), 5000),
    ],
)
def test_forms(text, kind, periods, start):
    control = tc.parse(text)
    assert control.kind == kind
    assert control.periods == periods
    assert control.start_ms() == start


def test_byo_yomi_forms():
    japanese = tc.parse("3600j30x5")
    assert (japanese.kind, japanese.start_ms(), japanese.byo_ms, japanese.byo_count) == (
        tc.JAPANESE,
        3_600_000,
        30_000,
        5,
    )
    canadian = tc.parse("3600c20/300")
    assert (canadian.kind, canadian.start_ms(), canadian.byo_ms, canadian.byo_count) == (
        tc.CANADIAN,
        3_600_000,
        300_000,
        20,
    )


def test_period_of_move_and_cumulative_counts():
    control = tc.parse("40/5400:20/3600:900")
    assert control.cumulative == (40, 60, 60)
    assert [control.period_of_move(k) for k in (1, 40, 41, 60, 61, 200)] == [0, 0, 1, 1, 2, 2]


@pytest.mark.parametrize(
    "text, words",
    [
        ("0", "no time at the start"),
        ("0b5", "no time at the start"),
        ("0d5", "no time at the start"),
        ("0/60:30", "move count of 0"),
        ("60:30", "follows a period without a move count"),
        ("40/5400", "last period has a move count"),
        ("36000", "more than 9:59:59"),
        ("35999+1", "more than 9:59:59"),
        ("300+61", "over 60 s"),
        ("300d61", "over 60 s"),
        ("40/5400:*60", "cannot be mixed"),
        ("40/5400:3600j30x5", "cannot be mixed"),
        ("1.5", "unexpected character"),
        ("5 min", "unexpected character"),
        ("", "empty"),
        ("300+", "missing increment"),
        ("*0", "no time at the start"),
        ("60j0x5", "at least one period"),
        ("60c0/300", "at least 1 move"),
    ],
)
def test_refusals_name_the_problem(text, words):
    with pytest.raises(ValueError) as error:
        tc.parse(text)
    assert words in str(error.value)


def test_describe_ms():
    assert tc.describe_ms(0) == "0:00:00.000"
    assert tc.describe_ms(5_430_001) == "1:30:30.001"
