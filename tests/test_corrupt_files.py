"""Files the clock cannot use: defaults, an error code at boot, the file kept aside.

Each of settings.json, the user slots (slots.json) and the game journal
(game.json, game.j0, game.j1) is spoiled in every way a flash file can be:
empty, truncated, random bytes, valid JSON of the wrong shape, written by a
newer firmware. The clock must boot, use its defaults, show ``Err1``/``Err2``/
``Err3`` (``vEr1``… for a newer version) and rename the file ``NAME.bad``.
"""

import json
import os
import random

import pytest

from firmware import journal, settings
from firmware.boot import journal_read
from sim.world import SimBoard, fresh_flash, remove_flash

GOOD_SETTINGS = {"control_left": "300+3", "control_right": "300+3", "version": 1}
RANDOM = bytes(random.Random(4).randrange(256) for _ in range(300))


def spoiled(good):
    """The ways a JSON file can be spoiled, from its good content."""
    text = json.dumps(good).encode()
    newer = dict(good)
    newer["version"] = 99
    return {
        "empty": b"",
        "null": b"null",  # valid JSON but no document: not a missing file
        "truncated": text[: len(text) // 2],
        "random bytes": RANDOM,
        "a list": b"[1, 2, 3]",
        "a number": b"42",
        "an object of other things": b'{"colour": "blue"}',
        "a bad version": json.dumps(dict(good, version="two")).encode(),
        "newer version": json.dumps(newer).encode(),
    }


def listing(folder):
    return sorted(os.listdir(folder))


@pytest.mark.parametrize("case", sorted(spoiled(GOOD_SETTINGS)))
def test_spoiled_settings_fall_back_to_defaults_with_a_code(case, boot_files):
    data = spoiled(GOOD_SETTINGS)[case]
    board, folder = boot_files({"settings.json": data})
    code = "vEr1" if case == "newer version" else "Err1"
    assert board.display_text() == "%s|%s" % (code, code)
    app = board.app
    assert app.settings.control_left == settings.DEFAULT_CONTROL
    assert app.settings.error_code == code
    assert app.clock.sides[0].control.text == settings.DEFAULT_CONTROL
    assert "settings.json.bad" in listing(folder)
    assert "settings.json" not in listing(folder)
    with open(os.path.join(folder, "settings.json.bad"), "rb") as handle:
        assert handle.read() == data  # kept as it was, for inspection


def test_good_settings_show_no_code_and_stay(boot_files):
    board, folder = boot_files({"settings.json": json.dumps(GOOD_SETTINGS).encode()})
    assert board.display_text() == " 5.03| 5.03"
    assert board.app.settings.error_code is None
    assert "settings.json" in listing(folder) and "settings.json.bad" not in listing(folder)


def test_an_unplayable_control_is_a_bad_settings_file(boot_files):
    data = json.dumps({"control_left": "0", "version": 1}).encode()
    board, folder = boot_files({"settings.json": data})
    assert board.display_text() == "Err1|Err1"
    assert board.app.settings.control_left == settings.DEFAULT_CONTROL


GOOD_SLOTS = {"3": {"control_left": "900+10", "control_right": "900+10"}, "version": 1}


@pytest.mark.parametrize("case", sorted(spoiled(GOOD_SLOTS)))
def test_spoiled_user_slots_are_set_aside_with_a_code(case, boot_files):
    data = spoiled(GOOD_SLOTS)[case]
    if case == "an object of other things":
        data = b'{"3": "900+10"}'  # a slot that is not one
    good = json.dumps(GOOD_SETTINGS).encode()
    board, folder = boot_files({"settings.json": good, "slots.json": data})
    code = "vEr2" if case == "newer version" else "Err2"
    assert board.display_text() == "%s|%s" % (code, code)
    assert "slots.json.bad" in listing(folder) and "slots.json" not in listing(folder)
    assert board.app.settings.control_left == "300+3"  # the settings are untouched


def test_good_user_slots_stay(boot_files):
    good = json.dumps(GOOD_SETTINGS).encode()
    board, folder = boot_files(
        {"settings.json": good, "slots.json": json.dumps(GOOD_SLOTS).encode()}
    )
    assert board.display_text() == " 5.03| 5.03"
    assert "slots.json" in listing(folder)


def test_user_slots_saved_under_the_old_name_survive_the_update(boot_files):
    """A board updated from a release that kept the slots in presets.json boots with
    them as slots.json: the same bytes, the old name gone, slot 4 loadable."""
    from firmware.menu import items as menu_items

    saved = json.dumps({"4": {"control_left": "900+10", "control_right": "600+5"}}).encode()
    good = json.dumps(GOOD_SETTINGS).encode()
    board, folder = boot_files({"settings.json": good, "presets.json": saved})
    assert board.display_text() == " 5.03| 5.03"  # no Err2: the file was taken
    assert "presets.json" not in listing(folder) and "slots.json" in listing(folder)
    with open(os.path.join(folder, "slots.json"), "rb") as handle:
        assert handle.read() == saved
    slots, error = menu_items.read_slots(board.app.hardware.storage)
    assert error is None and slots["4"]["control_right"] == "600+5"
    board.power_off()
    board.power_on()  # a second boot finds nothing to rename and keeps the slots
    assert listing(folder).count("slots.json") == 1 and "presets.json" not in listing(folder)


def test_user_slots_under_the_new_name_win_over_an_old_file(boot_files):
    old = json.dumps({"4": {"control_left": "60", "control_right": "60"}}).encode()
    new = json.dumps(GOOD_SLOTS).encode()
    good = json.dumps(GOOD_SETTINGS).encode()
    board, folder = boot_files({"settings.json": good, "presets.json": old, "slots.json": new})
    with open(os.path.join(folder, "slots.json"), "rb") as handle:
        assert handle.read() == new
    assert "presets.json" in listing(folder)  # left alone, never read


def test_two_codes_show_one_after_the_other(boot_files):
    board, folder = boot_files({"settings.json": b"", "slots.json": b"{"})
    assert board.display_text() == "Err1|Err1"
    board.run_due(2_990)
    assert board.display_text() == "Err1|Err1"
    board.run_due(3_000)
    assert board.display_text() == "Err2|Err2"
    board.run_due(6_000)
    assert board.display_text() == " 1:31| 1:31"  # 5400+30: 1:30:30, rounded up


def test_a_press_clears_the_codes_and_acts(boot_files):
    board, folder = boot_files({"settings.json": b"\x00\xff"})
    assert board.display_text() == "Err1|Err1"
    board.press("lever_right")
    board.run_due(1000)
    assert board.app.clock.state == 1  # running: the press started the game
    assert board.display_text().startswith(" 1:31")  # 1:30:29, rounded up


# --- the journal -----------------------------------------------------------


def journalled_game():
    """A flash holding a game in progress (left White, right to move): its files, the
    game in the slot files (played without the ring, as when it is full)."""
    folder = fresh_flash("300+3")
    board = SimBoard(folder, ring_blocks=0)
    board.boot()
    board.press("lever_right")
    board.run_due(10_000)
    board.press("lever_left")
    board.run_due(12_000)
    board.power_off()
    files = {}
    for name in os.listdir(folder):
        with open(os.path.join(folder, name), "rb") as handle:
            files[name] = handle.read()
    remove_flash(folder)
    return files


JOURNAL_FILES = journalled_game()


def test_the_journalled_game_comes_back(boot_files):
    board, folder = boot_files(JOURNAL_FILES)
    assert board.display_text() == "rE5t|rE5t"
    clock = board.app.clock
    assert clock.state == 2 and clock.mover == 1 and clock.moves() == 1  # paused
    assert clock.shown_ms(0, 0) == 303_000 - 10_000 + 3_000


GOOD_HEADER = json.loads(JOURNAL_FILES["game.json"])


@pytest.mark.parametrize("case", sorted(spoiled(GOOD_HEADER)))
def test_a_spoiled_journal_header_starts_afresh_with_a_code(case, boot_files):
    files = dict(JOURNAL_FILES)
    files["game.json"] = spoiled(GOOD_HEADER)[case]
    board, folder = boot_files(files)
    code = "vEr3" if case == "newer version" else "Err3"
    assert board.display_text() == "%s|%s" % (code, code)
    assert board.app.clock.state == 0  # set up for a new game
    names = listing(folder)
    assert "game.json.bad" in names and "game.j0.bad" in names and "game.j1.bad" in names
    assert board.app.settings.control_left == "300+3"


@pytest.mark.parametrize("case", ["empty", "truncated", "random bytes", "newer version"])
def test_spoiled_journal_slots(case, boot_files):
    files = dict(JOURNAL_FILES)
    for name in ("game.j0", "game.j1"):
        good = bytearray(files[name])
        if case == "empty":
            files[name] = b""
        elif case == "truncated":
            files[name] = bytes(good[: journal.RECORD_SIZE // 2])
        elif case == "random bytes":
            files[name] = RANDOM[: journal.RECORD_SIZE]
        else:
            good[2] = journal.VERSION + 1
            files[name] = bytes(good)
    board, folder = boot_files(files)
    if case == "empty":  # nothing journalled yet is no error: a new game
        assert board.display_text() == " 5.03| 5.03"
    else:
        assert board.display_text() == "Err3|Err3"
        assert "game.j0.bad" in listing(folder)
    assert board.app.clock.state == 0


def test_one_torn_slot_beside_a_good_one_is_a_cut_not_an_error(boot_files):
    files = dict(JOURNAL_FILES)
    newest = max(("game.j0", "game.j1"), key=lambda n: journal_read.sequence(files[n]))
    older = "game.j1" if newest == "game.j0" else "game.j0"
    files[newest] = files[newest][:20] + bytes(journal.RECORD_SIZE - 20)
    board, folder = boot_files(files)
    assert board.display_text() == "rE5t|rE5t"
    sequence = journal_read.sequence
    assert sequence(files[older]) == sequence(JOURNAL_FILES[newest]) - 1
    assert board.app.clock.state == 2


def test_a_display_replugged_under_the_boot_codes_shows_the_code_up(boot_files):
    # Unplugged while Err1 shows, Err2 comes up meanwhile, plugged while Err2 is still
    # up: both displays show Err2 at once, not the left one's last picture (Err1).
    board, folder = boot_files({"settings.json": b"", "slots.json": b"{"})
    assert board.display_text() == "Err1|Err1"
    board.run_due(1_000)
    board.unplug(0)
    board.run_due(3_500)  # Err2 since 3 s: the right display has it
    assert board.display_text() == "Err1|Err2"
    board.plug(0)
    board.run_due(3_600)
    assert board.display_text() == "Err2|Err2"
    board.run_due(6_000)
    assert board.display_text() == " 1:31| 1:31"
