"""The game's class is the higher of the two sides' by the rank ``claims.CLASSES``
gives them (A.1, B.1 "for each player"), never by how the names sort."""

from firmware import claims, engine, timecontrol


def game_class(left, right):
    clock = engine.Clock(timecontrol.parse(left), timecontrol.parse(right))
    return claims.Claims(clock, "g5", "appendix-g").game_class()


def test_the_higher_class_of_the_two_sides():
    # appendix G: 10 min blitz, 25 min rapid, 90 min standard (A.1, B.1)
    assert game_class("600", "1500") == "rapid"
    assert game_class("1500", "600") == "rapid"
    assert game_class("5400", "600") == "standard"
    assert game_class("600", "600") == "blitz"


def test_the_rank_is_the_order_of_classes_not_of_the_names(monkeypatch):
    # names whose alphabetical order is the rank's reverse: max() would pick "c"
    monkeypatch.setattr(claims, "CLASSES", ("a", "b", "c"))
    names = {"600": "c", "1500": "a"}
    monkeypatch.setattr(claims, "classify", lambda control, edition: names[control.text])
    assert game_class("600", "1500") == "a"
    assert game_class("1500", "600") == "a"


def test_a_canadian_block_only_begun_in_the_first_60_moves_counts_whole():
    # A.1: the time for 60 moves; Canadian: main time and a block for every M moves
    # begun (docs/spec/rules.md): 60 moves are 3 blocks of 20, 2 of 21 and 18 of a
    # third (3 begun), 2 blocks of 30
    def minutes(text):
        return claims.game_ms(timecontrol.parse(text)) / 60_000

    assert minutes("1200c20/900") == 20 + 3 * 15
    assert minutes("1200c21/900") == 20 + 3 * 15
    assert minutes("1200c30/900") == 20 + 2 * 15
    # 65 min: standard, where the two whole blocks alone (50 min) would make it rapid
    assert game_class("1200c21/900", "1200c21/900") == "standard"
