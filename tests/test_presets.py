"""The built-in presets: well-formed, displayable, and the required controls exact."""

import pytest

from firmware import engine
from firmware import timecontrol as tc
from firmware.menu import presets

# What a 7-segment digit can show (S has the pattern of 5).
DISPLAYABLE = set("0123456789 -AbCdEFGHIJLnoPqrStUvy")

# name -> (left, right), exactly as required.
REQUIRED = {
    "FIDE standard": ("40/5400+30:1800+30", "40/5400+30:1800+30"),
    "90+30": ("5400+30", "5400+30"),
    "120/40 + 60": ("40/7200:3600", "40/7200:3600"),
    "60+30": ("3600+30", "3600+30"),
    "25+10": ("1500+10", "1500+10"),
    "15+10": ("900+10", "900+10"),
    "10+5": ("600+5", "600+5"),
    "10+0": ("600", "600"),
    "15+0": ("900", "900"),
    "20+0": ("1200", "1200"),
    "30+0": ("1800", "1800"),
    "45+15": ("2700+15", "2700+15"),
    "5+3": ("300+3", "300+3"),
    "3+2": ("180+2", "180+2"),
    "5+0": ("300", "300"),
    "3+0": ("180", "180"),
    "1+0": ("60", "60"),
    "2+1": ("120+1", "120+1"),
    "G/90;d5": ("5400d5", "5400d5"),
    "G/60;d5": ("3600d5", "3600d5"),
    "G/30;d5": ("1800d5", "1800d5"),
    "G/25;d5": ("1500d5", "1500d5"),
    "G/5;d3": ("300d3", "300d3"),
    "Bronstein 90/30": ("5400b30", "5400b30"),
    "40/120;d5 SD/30;d5": ("40/7200d5:1800d5", "40/7200d5:1800d5"),
    "Armageddon +2": ("300+2", "240+2"),
    "Armageddon +2 from move 61": ("60/300:0+2", "60/240:0+2"),
    "hourglass 1": ("*60", "*60"),
    "hourglass 3": ("*180", "*180"),
    "byo-yomi 60 min": ("3600j30x5", "3600j30x5"),
    "byo-yomi 10 min": ("600j30x3", "600j30x3"),
    "Canadian": ("1800c20/300", "1800c20/300"),
}

# Article 15.1 by hand: base + 60 x increment, in minutes; delays give nothing.
CATEGORIES = {
    "900+10": "rapid",  # 15 + 60 x 10 s = 25 min
    "300+3": "blitz",  # 5 + 3 = 8 min
    "600+5": "rapid",  # 10 + 5 = 15 min, the lowest rapid
    "5400+30": "standard",  # 90 + 30 = 120 min
    "180+2": "blitz",  # 3 + 2 = 5 min
    "600": "blitz",  # 10 min
    "3600": "standard",  # 60 min, the lowest standard
    "2700+15": "standard",  # 45 + 15 = 60 min
    "1500+10": "rapid",  # 25 + 10 = 35 min
    "900": "rapid",  # 15 min
    "1800d5": "rapid",  # 30 min
    "600d5": "blitz",  # 10 min
    "40/5400+30:1800+30": "standard",  # 90 + 30 + 60 x 30 s = 150 min
    "300+2": "blitz",  # 5 + 2 = 7 min
    "60/300:0+2": "blitz",  # 5 min: the increment starts after move 60
    "*180": "blitz",  # 3 min
    "600j30x3": "rapid",  # 10 + 60 x 30 s = 40 min
    "1800c20/300": "rapid",  # 30 + 3 blocks of 5 min = 45 min
}


def by_controls(left, right):
    found = [p for p in presets.PRESETS if p[2] == left and p[3] == right]
    assert len(found) == 1, "%s vs %s: %d presets" % (left, right, len(found))
    return found[0]


def numbers():
    return range(1, presets.count() + 1)


def test_at_least_thirty():
    assert presets.count() >= 30
    assert presets.count() == len(presets.PRESETS)


def test_numbered_from_one_without_gaps():
    assert [p[0] for p in presets.PRESETS] == list(numbers())
    for number in numbers():
        assert presets.get(number)[0] == number


def test_every_preset_parses_on_both_sides():
    for number, _name, left, right in presets.PRESETS:
        parsed = presets.controls(number)
        assert parsed[0].text == left and parsed[1].text == right
        assert tc.parse(left).start_ms() > 0 and tc.parse(right).start_ms() > 0


def test_names_fit_the_display():
    names = [p[1] for p in presets.PRESETS]
    assert len(set(names)) == len(names), "duplicate names"
    for name in names:
        assert isinstance(name, str) and 0 < len(name) <= 4, repr(name)
        assert name.strip(), "blank name"
        assert set(name) <= DISPLAYABLE, "%r: %s" % (name, sorted(set(name) - DISPLAYABLE))


@pytest.mark.parametrize("what", sorted(REQUIRED))
def test_required_preset_present(what):
    left, right = REQUIRED[what]
    number = by_controls(left, right)[0]
    assert presets.controls(number)[0].text == left


def test_exact_strings_of_named_presets():
    assert by_controls("40/5400+30:1800+30", "40/5400+30:1800+30")[1] == "F 90"
    assert by_controls("5400+30", "5400+30")[1] == "9030"
    assert by_controls("900+10", "900+10")[1] == "1510"
    assert by_controls("600+5", "600+5")[1] == "10 5"
    assert by_controls("300+3", "300+3")[1] == " 5 3"
    assert by_controls("180+2", "180+2")[1] == " 3 2"
    assert by_controls("300", "300")[1] == " 5 0"
    assert by_controls("60", "60")[1] == " 1 0"
    assert by_controls("5400d5", "5400d5")[1] == "90d5"
    assert by_controls("3600d5", "3600d5")[1] == "60d5"
    assert by_controls("1800d5", "1800d5")[1] == "30d5"
    assert by_controls("300d3", "300d3")[1] == " 5d3"
    assert by_controls("300+2", "240+2")[1] == "Ar 2"
    assert by_controls("60/300:0+2", "60/240:0+2")[1] == "Ar61"
    assert by_controls("*60", "*60")[1] == "HG 1"
    assert by_controls("*180", "*180")[1] == "HG 3"
    assert by_controls("3600j30x5", "3600j30x5")[1] == "J 60"
    assert by_controls("600j30x3", "600j30x3")[1] == "J 10"


def test_armageddon_left_has_five_minutes():
    for name in ("Ar 2", "Ar61"):
        number = [p[0] for p in presets.PRESETS if p[1] == name][0]
        left, right = presets.controls(number)
        assert left.periods[0][1] == 300_000 and right.periods[0][1] == 240_000


def test_armageddon_increment_starts_with_move_61():
    number = by_controls("60/300:0+2", "60/240:0+2")[0]
    clock = engine.Clock(*presets.controls(number))
    now = 0
    clock.press(1, now)  # Black starts the left clock: left is White
    assert clock.white == 0
    for move in range(1, 62):
        now += 1000
        clock.press(0, now)  # White's move, 1 s
        if move < 60:
            assert clock.shown_ms(0, now) == 300_000 - move * 1000  # no increment yet
        now += 1000
        clock.press(1, now)  # Black's reply, 1 s
    # 61 moves of 1 s each; +2 s before move 61 (given as move 60 ends) and before move 62
    assert clock.shown_ms(0, now) == 300_000 - 61_000 + 2 * 2000
    assert clock.shown_ms(1, now) == 240_000 - 61_000 + 2 * 2000


@pytest.mark.parametrize("text", sorted(CATEGORIES))
def test_category_by_hand(text):
    number = [p[0] for p in presets.PRESETS if p[2] == text][0]
    assert presets.category(number) == CATEGORIES[text]


def test_every_category_is_one_of_three():
    for number in numbers():
        assert presets.category(number) in ("blitz", "rapid", "standard")


@pytest.mark.parametrize("bad", [0, -1, "N+1", "1", None, 1.0])
def test_unknown_number_is_refused(bad):
    if bad == "N+1":
        bad = presets.count() + 1
    with pytest.raises(ValueError, match="no preset .*numbered 1 to %d" % presets.count()):
        presets.get(bad)
    with pytest.raises(ValueError):
        presets.controls(bad)
    with pytest.raises(ValueError):
        presets.category(bad)
