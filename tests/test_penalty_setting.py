"""The quick penalty's amounts per class: the settings file's penalty_s and menu item PEn."""

import pytest

from firmware import claims, engine, settings
from firmware.menu import items as menu_items


def test_the_default_is_the_current_laws():
    fresh = settings.Settings()
    assert fresh.penalty_ms is None  # the edition's default, appendix-g: the current Laws
    assert "penalty_s" not in fresh.to_dict()
    assert menu_items.value_text(fresh, "PEn") == "d211"


# Expected from the Laws: the current Laws (A.3, B.3) 2, 1, 1 minutes; the 2015 and
# older texts' rapid Article 15.3 applies the standard articles to rapid: 2, 2, 1.
@pytest.mark.parametrize(
    "edition, control, minutes",
    [
        ("appendix-g", "5400", 2),
        ("appendix-g", "1800", 1),
        ("appendix-g", "300", 1),
        ("2015", "5400", 2),
        ("2015", "1800", 2),
        ("2015", "300", 1),
        ("older", "1800", 2),
        ("older", "600", 1),
    ],
)
def test_the_default_follows_the_edition(edition, control, minutes):
    chosen = settings.Settings()
    chosen.apply({"control_left": control, "edition": edition})
    box = claims.Claims(engine.Clock(*chosen.controls()), "off", edition, chosen.penalty_ms)
    assert box.penalty() == minutes * 60_000


def test_changing_the_edition_changes_the_default_not_an_amount_set_by_hand():
    default = settings.Settings()
    default.apply({"control_left": "1800"})
    data = default.to_dict()
    data["edition"] = "2015"
    default.apply(data)
    assert menu_items.value_text(default, "PEn") == "d221"
    box = claims.Claims(engine.Clock(*default.controls()), "off", "2015", default.penalty_ms)
    assert box.penalty() == 120_000
    by_hand = settings.Settings()
    by_hand.apply({"control_left": "1800", "penalty_s": menu_items.penalty_file(1)})  # 2 1 1
    data = by_hand.to_dict()
    data["edition"] = "2015"
    by_hand.apply(data)
    assert by_hand.penalty_ms == (120_000, 60_000, 60_000)
    assert menu_items.value_text(by_hand, "PEn") == " 211"
    back = settings.Settings()
    back.apply(dict(data, penalty_s=menu_items.penalty_file(0)))  # the menu's d: default again
    assert back.penalty_ms is None and "penalty_s" not in back.to_dict()


def test_the_file_sets_any_whole_seconds_per_class():
    chosen = settings.Settings()
    chosen.apply({"penalty_s": {"standard": 180, "rapid": 90, "blitz": 30}})
    assert chosen.penalty_ms == (180_000, 90_000, 30_000)
    assert menu_items.value_text(chosen, "PEn") == "----"  # not one of the menu's choices
    again = settings.Settings()
    again.apply(chosen.to_dict())
    assert again.penalty_ms == chosen.penalty_ms


@pytest.mark.parametrize(
    "penalty, message",
    [
        ([120, 60, 60], "an object"),
        ({"standard": 120, "rapid": 60}, "blitz must be whole seconds"),
        ({"standard": 120, "rapid": 60.5, "blitz": 60}, "rapid must be whole seconds"),
        ({"standard": True, "rapid": 60, "blitz": 60}, "standard must be whole seconds"),
        ({"standard": 0, "rapid": 60, "blitz": 60}, "is not 1 to 600"),
        ({"standard": 601, "rapid": 60, "blitz": 60}, "is not 1 to 600"),
        ({"standard": 120, "rapid": 60, "blitz": 60, "bullet": 30}, "no class 'bullet'"),
    ],
)
def test_a_bad_amount_is_refused_and_changes_nothing(penalty, message):
    kept = settings.Settings()
    kept.apply({"control_left": "900", "quickplay": "g5"})
    before = kept.to_dict()
    with pytest.raises(ValueError, match=message):
        kept.apply({"control_left": "300", "penalty_s": penalty})
    assert kept.to_dict() == before


def test_every_menu_choice_round_trips_through_the_file():
    for choice in range(1, len(menu_items.PENALTY_CHOICES)):
        chosen = settings.Settings()
        chosen.apply({"penalty_s": menu_items.penalty_file(choice)})
        assert menu_items.penalty_choice(chosen) == choice
        minutes = menu_items.PENALTY_CHOICES[choice]
        assert chosen.penalty_ms == tuple(m * 60_000 for m in minutes)
    assert len(claims.CLASSES) == 3
