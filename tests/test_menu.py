"""The setup menus: the control builder, the menu texts, slots and settings on flash."""

import pytest

from firmware import claims, files, frames, timecontrol
from firmware import settings as settings_module
from firmware.input_codes import KEY_MINUS, KEY_PLAY, KEY_PLUS, KEY_SET, LEVER_LEFT
from firmware.menu import control as menu_control
from firmware.menu import items as menu_items
from firmware.menu import presets
from sim import vclock
from sim.runner import LONG_HOLD_MS
from sim.world import PRESS_CONTACT_MS, SimBoard

KEY_CODES = {"set": KEY_SET, "plus": KEY_PLUS, "minus": KEY_MINUS, "play": KEY_PLAY}


def build(kind, sequence):
    """Feed ``sequence`` (key names separated by spaces) to a new builder."""
    builder = kind()
    for name in sequence.split():
        builder.on_key(LEVER_LEFT if name == "back" else KEY_CODES[name])
    return builder


# --- the control builder -------------------------------------------------


def test_fide_control_from_scratch():
    # 090 min / 040 moves / F 30, then 030 min / last period / F 30 (copied)
    builder = build(
        menu_control.PeriodsBuilder,
        "minus play plus plus plus plus play plus set plus plus plus play "
        "plus plus plus play play play",
    )
    assert builder.done
    assert builder.text() == "40/5400+30:1800+30"


def test_single_period_delay_and_bronstein():
    # 005 min (units 0 -> 5 by five plus), last period, d then 0 -> 5 s in the units
    builder = build(
        menu_control.PeriodsBuilder,
        "set plus plus plus plus plus play play plus plus set set plus plus plus plus plus play",
    )
    assert builder.text() == "300d5"
    builder = build(menu_control.PeriodsBuilder, "minus play play minus set plus play")
    assert builder.text() == "5400b10"  # b is one minus from -, 10 s in the tens


def test_time_with_seconds():
    # minutes 001, then the seconds digits: 3 and 0 -> 1:30 = 90 s
    builder = build(menu_control.PeriodsBuilder, "set plus set plus plus plus set play play")
    assert builder.text() == "90"


def test_hourglass_japanese_canadian():
    assert build(menu_control.HourglassBuilder, "set plus plus plus play").text() == "*180"
    # 060 min, period 000:30, 5 periods
    japanese = build(
        menu_control.JapaneseBuilder,
        "plus plus plus plus plus plus play set set plus plus plus play "
        "plus plus plus plus plus play",
    )
    assert japanese.done
    assert japanese.text() == "3600j30x5"
    # 030 min, 020 moves, 005 min
    canadian = build(
        menu_control.CanadianBuilder,
        "plus plus plus play plus plus play set plus plus plus plus plus play",
    )
    assert canadian.text() == "1800c20/300"


def test_left_lever_goes_back_a_field():
    builder = build(menu_control.PeriodsBuilder, "plus play back plus play play play")
    assert builder.text() == "1200"  # the time field was entered again: 020 min


def test_every_period_count_ends_at_the_limit():
    step = "plus play plus play play "  # 10 min, 1 move, nothing added
    builder = build(menu_control.PeriodsBuilder, step * menu_control.MAX_PERIODS)
    assert builder.done
    text = builder.text()
    assert text.count(":") == menu_control.MAX_PERIODS - 1
    with pytest.raises(ValueError):
        timecontrol.parse(text)  # the last period has a move count: refused, never applied


def test_long_minus_cancels():
    builder = menu_control.PeriodsBuilder()
    builder.on_long_press(KEY_MINUS)
    assert builder.cancelled and not builder.done


def test_field_views():
    field = menu_control.Field(0, "t  1", [0, 9, 0, 1, 5])
    assert field.text(False) == (" 090", 8)  # minutes; the point after digit 4: seconds too
    field.cursor = 3
    assert field.text(False) == ("9015", 2)  # MM.SS: the point after digit 2
    assert field.text(True) == ("90 5", 2)  # the cursor digit blinks dark


# --- texts ---------------------------------------------------------------


def _showable(text):
    return all(char in frames.TEXT_CHARS for char in text)


def test_every_menu_text_can_be_shown_on_seven_segments():
    texts = list(menu_items.ITEMS) + list(menu_items.QUICKPLAY_TEXT)
    texts += list(menu_items.EDITION_TEXT) + list(menu_items.CLASS_TEXT.values())
    texts += ["on", "oFF", "----", "nonE", "donE", "SEt", "Err", "FLSH", "nEU", "GAnE"]
    texts += ["t 0", "10 H", "60 S", "no", "oLd", "bYo", "LoC"]
    texts += ["t  1", "no 1", "Ad 1", "HG t", "PEr", "bL", "Ld 9", "Sv 9", "P 38"]
    texts += list(menu_control.ADD_MODES)
    for text in texts:
        assert len(text) <= 4 and _showable(text), text


def test_tables_follow_the_claim_rules_order():
    assert len(menu_items.QUICKPLAY_TEXT) == len(claims.QUICKPLAY)
    assert len(menu_items.EDITION_TEXT) == len(claims.EDITIONS)


def test_preset_groups_start_where_the_kinds_change():
    groups = menu_items.PRESET_GROUPS
    assert list(groups) == sorted(groups) and groups[0] == 1
    assert groups[-1] <= presets.count()
    assert presets.category(groups[1]) == "rapid"  # 30 min + 20 s
    assert presets.category(groups[1] - 1) == "standard"
    assert presets.category(groups[2]) == "blitz"
    assert presets.category(groups[2] - 1) == "rapid"


def test_class_and_error_texts():
    assert menu_items.class_text("40/5400+30:1800+30", "appendix-g") == "StAn"
    assert menu_items.class_text("1500+10", "appendix-g") == "rAPd"  # 25 + 10 min
    assert menu_items.class_text("840+1", "2015") == "rAPd"  # 14 + 1 min = 15: rapid
    assert menu_items.class_text("839+1", "2015") == "bLIt"  # under 15 (Article 15.1)
    assert menu_items.class_text("839+1", "appendix-g") == "rAPd"  # over 10 (A.1)
    assert menu_items.class_text("600", "appendix-g") == "bLIt"  # 10 min or less (B.1)
    assert menu_items.class_text("0", "appendix-g") == "Err"
    for text, code in (("0", "t 0"), ("300+61", "60 S"), ("36000", "10 H"), ("0/60:30", "no")):
        with pytest.raises(ValueError) as error:
            timecontrol.parse(text)
        assert menu_items.error_code(str(error.value)) == code


# --- settings ------------------------------------------------------------


def test_settings_switches_defaults_and_round_trip():
    settings = settings_module.Settings()
    assert (settings.sound, settings.warn_last10, settings.tenths, settings.locked) == (
        True,
        False,
        False,
        False,
    )
    data = settings.to_dict()
    data.update({"sound": False, "tenths": True, "locked": True, "warn_last10": True})
    again = settings_module.Settings()
    again.apply(data)
    assert again.to_dict() == data


def test_brightness_is_kept_with_the_settings_and_checked():
    settings = settings_module.Settings()
    assert settings.brightness == 2  # the default: 2/16 (docs/fide.md, (c))
    assert settings.to_dict()["brightness"] == 2
    again = settings_module.Settings()
    again.apply({"control_left": "300", "brightness": 16})
    assert again.brightness == 16 and again.to_dict()["brightness"] == 16
    again.apply({"control_left": "300"})  # a file written before the setting: the default
    assert again.brightness == 2
    before = again.to_dict()
    for bad in (0, 17, -1, "5", 2.0, True, None):
        with pytest.raises(ValueError, match="brightness"):
            again.apply({"control_left": "600", "brightness": bad})
        assert again.to_dict() == before  # all or nothing
    with pytest.raises(ValueError, match="tenths"):  # a later fault keeps the brightness
        again.apply({"control_left": "300", "brightness": 9, "tenths": "yes"})
    assert again.brightness == 2


def test_settings_refuse_a_switch_that_is_not_a_boolean_and_keep_everything():
    settings = settings_module.Settings()
    before = settings.to_dict()
    with pytest.raises(ValueError, match="tenths"):
        settings.apply({"control_left": "300", "tenths": "yes"})
    with pytest.raises(ValueError, match="older edition"):
        settings.apply({"control_left": "300", "quickplay": "g4-delay", "edition": "older"})
    assert settings.to_dict() == before


# --- on the simulated board ------------------------------------------------


class Bench:
    """A booted simulated board and a way to press its keys at 0.4 s a press."""

    def __init__(self, flash):
        self.flash = flash
        self.board = SimBoard(flash)
        self.board.boot()

    def keys(self, *names):
        for name in names:
            hold = LONG_HOLD_MS if name.startswith("hold-") else PRESS_CONTACT_MS
            self.board.press(name.replace("hold-", ""), hold)
            self.board.run_due(vclock.now_ms() + hold + 320)
        self.board.run_due(vclock.now_ms() + 400)

    def display(self):
        return self.board.display_text()


@pytest.fixture
def flash(flash_with):
    return flash_with(control="300+3")


def test_the_menu_opens_on_its_first_item_whatever_was_used_last(flash):
    bench = Bench(flash)
    bench.keys("set", "plus", "plus", "plus", "play")  # left on JAP
    assert bench.display() == " 5.03| 5.03"
    bench.keys("set")
    assert bench.display() == "PrE | 5 3"  # 300+3 is preset 16
    bench.keys("plus", "plus", "plus", "plus", "plus", "plus", "plus", "play")  # on APPG
    bench.keys("set")
    assert bench.display() == "PrE | 5 3"
    bench.keys("minus")
    assert bench.display() == "LoC |oFF "


def test_a_stored_slot_and_the_settings_survive_a_restart(flash):
    bench = Bench(flash)
    # SAvE is the seventh item; store the controls in force (300+3) in slot 2
    bench.keys("set", *(["plus"] * 6), "set", "plus", "set")
    assert bench.display() == "5v 2|donE"
    # tenths on: set ends the message, set opens the menu on PrE, tEn is 3 back
    bench.keys("set", "set", *(["minus"] * 3), "set", "plus", "set")
    assert bench.display() == "tEn |on  "
    assert bench.board.app.settings.tenths is True
    bench.board.app.hardware.stop()
    again = Bench(flash)  # boots from the same flash
    assert again.board.app.settings.tenths is True
    slots, error = menu_items.read_slots(again.board.app.hardware.storage)
    assert error is None
    assert slots == {"2": {"control_left": "300+3", "control_right": "300+3"}}


def test_an_unreadable_slot_file_loads_nothing_and_is_replaced_by_a_save(flash):
    bench = Bench(flash)  # (at boot a bad slot file is set aside: firmware.boot.resume)
    with open(flash + "/" + files.USER_SLOTS, "w") as handle:
        handle.write("{not json")
    bench.keys("set", *(["plus"] * 5), "set", "set")  # LoAd slot 1
    assert bench.display() == "Ld 1|nonE"
    assert "slots.json" in bench.board.app.menu.error
    assert bench.board.app.settings.control_left == "300+3"
    bench.keys("plus", "play", "plus", "set", "set")  # back, SAvE, slot 1
    assert bench.display() == "5v 1|donE"
    slots, error = menu_items.read_slots(bench.board.app.hardware.storage)
    assert error is None and slots["1"]["control_left"] == "300+3"


def test_the_brightness_item_dims_both_displays_and_survives_a_restart(flash):
    bench = Bench(flash)
    chips = bench.board.chips
    assert [chip.brightness for chip in chips] == [1, 1]  # 2/16: dimming command 1
    bench.keys("set", *(["plus"] * 10), "set")  # brIt is the eleventh item
    assert bench.display() == "brIt|   2"
    bench.keys("plus", "plus", "plus")
    assert bench.display() == "brIt|   5"
    assert [chip.brightness for chip in chips] == [1, 1]  # not before set
    bench.keys("set")
    assert bench.display() == "brIt|   5"
    assert [chip.brightness for chip in chips] == [4, 4]  # 5/16
    assert bench.board.app.settings.brightness == 5
    bench.board.app.hardware.stop()
    again = Bench(flash)
    assert again.board.app.settings.brightness == 5
    assert [chip.brightness for chip in again.board.chips] == [4, 4]
    again.keys("set", *(["minus"] * 6), "set", "minus", "minus", "minus", "minus", "minus")
    assert again.display() == "brIt|  16"  # 5 down to 1, then round to 16
    again.keys("set")
    assert [chip.brightness for chip in again.board.chips] == [15, 15]


def test_a_flash_that_fails_keeps_the_new_setting_in_force_and_says_so(flash):
    bench = Bench(flash)
    storage = bench.board.app.hardware.storage
    write_json = storage.write_json

    def broken(name, data):
        if name == files.SETTINGS:
            raise OSError(28, "no space")
        write_json(name, data)

    storage.write_json = broken
    bench.keys("set", "set", "plus", "set")  # preset 17: 5 min
    assert bench.display() == "Err |FL5H"
    assert bench.board.app.settings.control_left == "300"
    assert "no space" in bench.board.app.menu.error


def test_the_menu_never_opens_during_a_game(flash):
    bench = Bench(flash)
    bench.keys("lever_right")
    app = bench.board.app
    before = app.settings.to_dict()
    bench.keys("set", "set", "plus", "set", "hold-set", "hold-minus", "hold-plus")
    assert not app.menu.active()
    assert app.settings.to_dict() == before
    assert app.clock.state != 0  # still the same game


def test_apply_settings_starts_a_fresh_game_with_the_new_rules(flash):
    bench = Bench(flash)
    app = bench.board.app
    app.claims.log.append((0, "note", "kept"))
    fresh = settings_module.Settings()
    fresh.apply({"control_left": "600", "control_right": "300", "quickplay": "g5"})
    app.apply_settings(fresh)
    assert app.clock.sides[0].remaining_ms == 600_000
    assert app.clock.sides[1].remaining_ms == 300_000
    assert app.claims.quickplay == "g5"
    assert app.arbiter.claims is app.claims and app.arbiter.clock is app.clock
    assert app.claims.log[-1] == (0, "note", "kept")
    assert app.settings is fresh


def test_tenths_frame():
    frame = bytearray(frames.FRAME_SIZE)
    assert frames.render_tenths(frame, 19_700)
    assert bytes(frame[:4]) == bytes([0, frames.DIGITS[1], frames.DIGITS[9], frames.DIGITS[7]])
    assert frame[4] == 0  # no colon
    assert frames.render_tenths(frame, 9_050)  # rounded up to 9.1
    assert bytes(frame[:4]) == bytes([0, 0, frames.DIGITS[9], frames.DIGITS[1]])
    assert not frames.render_tenths(frame, 19_901)  # 19.901 rounds up to 20.0: M.SS
    assert not frames.render_tenths(frame, 20_000)
    assert not frames.render_tenths(frame, 0)  # the flag at zero reads as always


def test_the_benched_procedures_beat_the_dgt_3000_and_the_minute():
    from bench import menu_tasks

    figures = menu_tasks.menu_task_figures()  # checks each result on the clock
    assert set(figures) == set(menu_tasks.DGT_3000)
    for task in figures.values():
        assert task["presses"] < task["dgt3000_presses"]
        assert task["seconds"] < 60
    assert figures["start a preset game (25 + 10 s)"]["presses"] == 7
    assert figures["set 90/40 + 30 min, +30 s a move, from scratch"]["presses"] == 22
