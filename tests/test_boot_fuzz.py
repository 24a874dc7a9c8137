"""Boot completes, with the defaults and an error code, for any content of any file.

``tests.mpy.boot_fuzz`` mutates each file kind (random bytes, truncations, valid JSON
of the wrong shape, JSON nested thousands deep, numbers beyond 32 bits,
journal slots re-sealed with random fields or extreme values) and boots the
firmware on each: 2,000 mutated files on CPython and a seeded sample of 300
inside MicroPython under ``make deep`` (CI), 1,000 and 150 under ``make test``
(tests/depth.py); MicroPython must report exactly what CPython reports for the
same files.
"""

import json
import os
import subprocess

from firmware import files
from tests.depth import count
from tests.mpy import boot_fuzz
from tests.scripting import ROOT, compiled_firmware

SEED = 12
COUNT = count(1000, 2000)
MPY_COUNT = count(150, 300)


def test_a_thousand_mutated_files_never_stop_the_clock():
    summary = boot_fuzz.run(SEED, COUNT)
    assert summary["violations"] == []
    assert summary["files"] == COUNT
    # every kind of file met every one of its mutations
    for kind in boot_fuzz.JSON_FILES:
        for mutation in boot_fuzz.JSON_MUTATIONS:
            assert summary["kinds"]["%s %s" % (kind, mutation)] > 0
    for kind in files.JOURNAL_SLOTS:
        for mutation in boot_fuzz.SLOT_MUTATIONS:
            assert summary["kinds"]["%s %s" % (kind, mutation)] > 0
    # the fuzzing reached each error code, and games that could come back did
    assert summary["codes"]["Err1"] > 0 and summary["codes"]["Err2"] > 0
    assert summary["codes"]["Err3"] > 0 and summary["restored"] > 0


def test_a_resealed_slot_with_fields_the_clock_cannot_use_is_err3_and_kept_aside(tmp_path):
    from firmware import journal

    slots = boot_fuzz._journalled_slots()
    newest = max(slots, key=lambda name: slots[name][4])
    files = {
        "settings.json": boot_fuzz.SETTINGS,
        "game.json": boot_fuzz.HEADER,
        "game.j0": slots["game.j0"],
        "game.j1": slots["game.j1"],
    }
    at = journal.SIDE_AT[0]
    for field, value, size in (
        (at + 4, 7, 1),  # period 8 of a one-period control
        (at, 0xFFFFFFFF, 4),  # a negative time: -1 ms
        (13, 9, 1),  # side to move 8: no side
        (48, 1, 1),  # a claim open, by nobody (claimant byte 0)
    ):
        data = bytearray(slots[newest])
        journal.put(data, field, value, size)
        journal.seal(data)
        files[newest] = bytes(data)
        folder = str(tmp_path / ("flash-%d" % field))
        os.mkdir(folder)
        codes, state, problems = boot_fuzz.boot_once(folder, files)
        assert codes == ["Err3"] and state == 0 and problems == []
        names = os.listdir(folder)
        assert "game.json.bad" in names and "game.j0.bad" in names and "game.j1.bad" in names


def test_a_header_whose_game_id_is_beyond_32_bits_is_err3(tmp_path):
    slots = boot_fuzz._journalled_slots()
    header = boot_fuzz.HEADER.replace(b'"game": 1', b'"game": 4294967297')  # 2**32 + 1
    files = {"settings.json": boot_fuzz.SETTINGS, "game.json": header}
    files.update(slots)
    codes, state, problems = boot_fuzz.boot_once(str(tmp_path), files)
    assert codes == ["Err3"] and problems == []


def test_events_nested_too_deep_leave_the_game_restored(tmp_path):
    slots = boot_fuzz._journalled_slots()
    files = {"settings.json": boot_fuzz.SETTINGS, "game.json": boot_fuzz.HEADER}
    files.update(slots)
    files["events.log"] = b"[" * 100_000 + b"]" * 100_000 + b"\n"
    codes, state, problems = boot_fuzz.boot_once(str(tmp_path), files)
    assert codes == ["rESt"] and state == 2 and problems == []  # paused, as journalled


def test_micropython_boots_the_same_sample_alike():
    # The MicroPython lane runs in its own process while CPython boots the same sample,
    # the firmware loaded as .mpy as a board loads it (each boot imports again).
    compiled_firmware()
    runner = os.path.join(ROOT, "tools", "mpy", "run.mjs")
    lane = subprocess.Popen(
        ["node", runner, "--compiled", "tests.mpy.boot_fuzz", str(SEED), str(MPY_COUNT)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        python = boot_fuzz.run(SEED, MPY_COUNT)
        out, err = lane.communicate(timeout=600)
    finally:
        if lane.poll() is None:
            lane.kill()
            lane.communicate()
    assert lane.returncode == 0, out[-2000:] + err[-2000:]
    micro = json.loads(out.strip().splitlines()[-1])
    assert micro["violations"] == [] and micro["files"] == MPY_COUNT
    assert micro["digest"] == python["digest"]  # the same codes and states, case by case
    assert micro["codes"] == python["codes"]
