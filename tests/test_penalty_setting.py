"""The quick penalty's amounts per class: the settings file's penalty_s and menu item PEn."""

import pytest

from firmware import claims, settings
from firmware.menu import items as menu_items


def test_the_default_is_the_current_laws():
    fresh = settings.Settings()
    assert fresh.penalty_ms == (120_000, 60_000, 60_000)
    assert fresh.to_dict()["penalty_s"] == {"standard": 120, "rapid": 60, "blitz": 60}
    assert menu_items.value_text(fresh, "PEn") == " 211"


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
    for choice in range(len(menu_items.PENALTY_CHOICES)):
        chosen = settings.Settings()
        chosen.apply({"penalty_s": menu_items.penalty_file(choice)})
        assert menu_items.penalty_choice(chosen) == choice
        minutes = menu_items.PENALTY_CHOICES[choice]
        assert chosen.penalty_ms == tuple(m * 60_000 for m in minutes)
    assert len(claims.CLASSES) == 3
