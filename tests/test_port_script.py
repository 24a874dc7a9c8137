"""The clock scripts as the real-port lane plays them (bench/port_script.py): pin edges in
simulated time, and a reason for every script it cannot express."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from bench import port_script
from firmware.settings import DEFAULT_CONTROL
from sim import script as scripts
from sim.world import PRESS_CONTACT_MS


def _parse(body, control=DEFAULT_CONTROL):
    return scripts.parse(("control %s\n" % control + body).encode())


def test_presses_keys_and_holds_become_contacts_at_their_times():
    plan = port_script.edges(
        _parse("at 0 press right\nat 1.5 key set\nat 2 hold plus 3\nat 9 expect state=running\n")
    )
    assert plan == [
        (0, "press", "lever_right", PRESS_CONTACT_MS),
        (1500, "press", "set", PRESS_CONTACT_MS),
        (2000, "press", "plus", 3000),
        (9000, "read", "expect", 0),
    ]


@pytest.mark.parametrize(
    "body, reason",
    [
        ("at 0 power off\n", "line 2: power"),
        ("at 0 unplug left\n", "line 2: unplug"),
    ],
)
def test_what_cuts_power_or_a_cable_is_named_with_its_line(body, reason):
    with pytest.raises(port_script.NotExpressible) as raised:
        port_script.edges(_parse(body))
    assert str(raised.value).startswith(reason)


def test_pause_and_resume_press_play_where_the_runner_does():
    """A pause of a paused clock presses nothing (docs/spec/scripts.md): the runner
    chose from its board's state, and the lane presses what it pressed, when it did."""
    parsed = _parse("at 0 press right\nat 2 pause\nat 3 pause\nat 4 resume\nat 5 expect moves=0\n")
    assert [step[1] for step in port_script.edges(parsed)] == [
        "press",
        "runner",
        "runner",
        "runner",
        "read",
    ]
    plan = port_script.lane_plan(parsed, "pico")
    assert plan["steps"] == [
        [0, "press", "lever_right", PRESS_CONTACT_MS],
        [2000, "press", "play", PRESS_CONTACT_MS],
        [4000, "press", "play", PRESS_CONTACT_MS],
    ]
    assert plan["endMs"] == plan["atMs"] == 5000


def test_an_arbiters_keys_take_board_time_the_script_leaves_out():
    from sim.runner import LONG_HOLD_MS, PRESS_GAP_MS

    parsed = _parse("quickplay g5\nat 0 press right\nat 2 pause\nat 3 claim\nat 4 show\n")
    plan = port_script.lane_plan(parsed, "pico")
    assert plan["steps"][-1] == [3000, "press", "plus", LONG_HOLD_MS]  # held: a long press
    assert plan["atMs"] == 4000
    assert plan["endMs"] == 4000 + LONG_HOLD_MS + PRESS_GAP_MS


def test_a_script_the_runner_stops_early_is_not_expressible():
    with pytest.raises(port_script.NotExpressible, match="stops before"):
        port_script.lane_plan(_parse("at 0 press right\nat 2 pause\nat 3 decide draw\n"), "pico")


def _runner_settings(parsed):
    """The settings file on the runner's board's flash for ``parsed``, as it boots on it."""
    from firmware import files
    from hal.storage import Files, Storage
    from sim.runner import Game

    game = Game(parsed, board_name="pico")
    try:
        return Storage(game.flash, Files()).read_bytes(files.SETTINGS)
    finally:
        game.close()


def test_the_headers_become_the_runners_settings_file_bytes_for_bytes():
    parsed = _parse("quickplay g5\nat 0 press right\n", control="300+2")
    plan = port_script.lane_plan(parsed, "pico")
    data = bytes.fromhex(plan["settingsHex"])
    assert data == _runner_settings(parsed)
    settings = json.loads(data)
    assert (settings["control_left"], settings["quickplay"]) == ("300+2", "g5")
    assert plan["settingsPath"] == "/settings.json"  # the Pico's FLASH_ROOT is /
    assert plan["nearWrap"] is False


def test_ticks_near_wrap_start_where_the_runners_board_starts_them():
    from sim import vclock

    parsed = _parse("ticks near-wrap\nat 0 press right\n")
    assert port_script.lane_plan(parsed, "pico")["nearWrap"] is True
    vclock.reset(near_wrap=True)
    try:
        assert vclock.ticks_ms() == port_script.NEAR_WRAP_TICK
    finally:
        vclock.reset()


def test_the_plan_starts_after_the_boot_on_the_boards_grid():
    import boards

    plan = port_script.lane_plan(_parse("at 0 press right\nat 9.5 expect moves=0\n"), "pico")
    assert plan["gridMs"] == boards.load("pico").TICK_MS
    assert plan["startMs"] == port_script.START_MS
    assert plan["endMs"] == 9500


@pytest.mark.skipif(shutil.which("node") is None, reason="no node (make setup installs it)")
def test_the_lane_takes_the_plan_and_its_code_writes_the_settings_bytes(tmp_path):
    """The plan crosses to the lane (tools/port/script_plan.mjs checks it), and the code the
    lane sends the board's REPL writes the very bytes; run here on CPython in a folder."""
    parsed = _parse("quickplay g5\nat 0 press right\nat 1 key set\n", control="300+2")
    plan = port_script.lane_plan(parsed, "pico")
    plan["settingsPath"] = str(tmp_path / "settings.json")
    module = os.path.join(port_script.ROOT, "tools", "port", "script_plan.mjs")
    program = (
        "import { parsePlan, settingsCode } from %s;"
        "const plan = parsePlan(process.argv[1], { lever_right: 15, set: 17 });"
        "process.stdout.write(settingsCode(plan));" % json.dumps(module)
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", program, json.dumps(plan)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    said = subprocess.run(
        [sys.executable, "-c", done.stdout], capture_output=True, text=True, timeout=60
    )
    assert said.stdout.split() == ["SETTINGS", "True", str(len(plan["settingsHex"]) // 2)]
    assert (tmp_path / "settings.json").read_bytes() == _runner_settings(parsed)


def test_the_survey_of_the_scenarios_accounts_for_every_script():
    expressible, others = port_script.survey()
    paths = [path for path, _plan in expressible] + [path for path, _reason in others]
    assert len(paths) == len(set(paths)) >= 200
    assert all(plan for _path, plan in expressible)
    # Every script refused is refused for a statement (with its line) or malformed: no
    # header the runner gives its board before boot keeps one from the port.
    for path, reason in others:
        assert reason.startswith(("line ", "malformed on purpose")), (path, reason)
    controls = set()
    for path, _plan in expressible:
        with open(path, "rb") as handle:
            controls.add(scripts.parse(handle.read()).control_left)
    assert controls - {DEFAULT_CONTROL}


def test_the_ports_fields_make_the_simulators_state_line():
    """The line built from what the lane reads on the port is the runner's own line: here
    the runner's line of a script is rebuilt from the fields a board at that state gives."""
    fields = "('running', 1505000, 1510000, 0, 0, 0, '1', '1', False, False, -1, 'none', 'none')"
    ram = [0] * 16  # "25:05": the backpack's segments for 2, 5, 0, 5 and the colon
    for address, pattern in zip((0, 2, 6, 8), (0x5B, 0x6D, 0x3F, 0x6D), strict=True):
        ram[address] = pattern
    ram[4] = 0x02  # the colon
    line = port_script.state_line(8900, fields, [ram, ram])
    assert line == (
        "at=8.900 state=running left=0:25:05.000 right=0:25:10.000 running=left white=left "
        "moves=0 left_stage=1 right_stage=1 flag=none first_flag=none claim=none result=none "
        'display="25:05|25:05"'
    )


def test_the_figures_without_an_image_count_every_script_once():
    from bench import port_script_figures

    figures = port_script_figures.script_figures()
    expressible, others = port_script.survey()
    assert figures["expressible"] == len(expressible)
    assert sum(figures["refused_by_reason"].values()) == len(others)
    assert figures["scenarios"] == len(expressible) + len(others)
    assert "played" not in figures


def test_a_played_plan_is_kept_by_its_image_plan_board_dreq_and_lane(tmp_path, monkeypatch):
    """The lane's document is kept under a key of everything that decides it, and a plan
    played again on the same image is read back, not played: the lane is not run."""
    image, bootrom = tmp_path / "firmware.uf2", tmp_path / "bootrom.ts"
    image.write_bytes(b"image one")
    bootrom.write_bytes(b"bootrom")
    plan, board = {"steps": [], "endMs": 1000}, {"name": "pico"}
    key = port_script.play_key(plan, str(image), str(bootrom), board, "credit")
    assert port_script.play_key(plan, str(image), str(bootrom), board, "credit") == key
    others = [
        port_script.play_key({**plan, "endMs": 1001}, str(image), str(bootrom), board, "credit"),
        port_script.play_key(plan, str(image), str(bootrom), {"name": "pico_big"}, "credit"),
        port_script.play_key(plan, str(image), str(bootrom), board, "level"),
    ]
    image.write_bytes(b"image two")
    os.utime(image, ns=(1, 1))  # a new image, whatever its time
    others.append(port_script.play_key(plan, str(image), str(bootrom), board, "credit"))
    assert key not in others and len(set(others)) == len(others)

    monkeypatch.setattr(port_script, "PLAYS", str(tmp_path / "plays"))
    kept = {"stateFields": "('running',)", "erasesMs": []}
    os.makedirs(port_script.PLAYS)
    key = port_script.play_key(plan, str(image), str(bootrom), board, "credit")
    with open(os.path.join(port_script.PLAYS, key + ".json"), "w") as handle:
        json.dump(kept, handle)

    def no_lane(*args, **kwargs):
        raise AssertionError("the lane was run for a kept plan")

    monkeypatch.setattr(subprocess, "run", no_lane)
    monkeypatch.setattr(port_script, "PLAY_COUNTS", {"kept": 0, "played": 0})
    assert port_script._run_plan(plan, str(image), str(bootrom), board, "credit") == kept
    assert port_script.PLAY_COUNTS == {"kept": 1, "played": 0}
    with pytest.raises(AssertionError, match="the lane was run"):
        port_script._run_plan(plan, str(image), str(bootrom), board, "level")


def test_the_reference_is_the_simulators_pico_ready_at_the_lanes_flash_times():
    """A new control chosen in the menu and a start pressed at once: the ideal board's
    flash prepares the ring at once and the game runs; the reference prepares it at the
    port's pace from the menu's exit and still shows PrEP, as the port does."""
    assert port_script.REFERENCE_OPTIONS == ("--latency=" + port_script.FLASH_TIMES, "--ready")
    assert port_script.FLASH_TIMES == "typical"  # the lane's --flash default, and the model's
    path = os.path.join(port_script.SCENARIOS, "speed", "menu-custom-150.clock")
    ideal = port_script.simulated_line(path)
    reference = port_script.simulated_line(path, port_script.REFERENCE_OPTIONS)
    assert "state=running" in ideal
    assert "state=setup" in reference and 'display="PrEP|' in reference
    quiet = os.path.join(port_script.SCENARIOS, "arbiter", "add.clock")
    assert port_script.simulated_line(quiet, port_script.REFERENCE_OPTIONS) == (
        port_script.simulated_line(quiet)
    )


def test_the_figures_judge_the_port_against_the_reference_and_count_the_ideal_too(monkeypatch):
    from bench import port_script_figures

    lines = {  # path: (port, reference, ideal)
        "/s/same.clock": ("A", "A", "A"),
        "/s/prep.clock": ("P", "P", "I"),  # a preparation met: the reference's, not the ideal's
        "/s/prep2.clock": ("P", "P", "J"),
        "/s/off.clock": ("X", "P", "X"),  # the ideal board's, not the reference's: differs
        "/s/bad.clock": ("X", "P", "I"),
    }

    def play(path, image, bootrom, board, dreq="credit"):
        port, reference, ideal = lines[path]
        return port, reference, {"erasesMs": [[1.0, 45]] if port == "P" else []}, ideal

    survey = ([(path, [(1000, "read", "expect", 0)]) for path in lines], [])
    monkeypatch.setattr(port_script, "play", play)
    monkeypatch.setattr(port_script, "survey", lambda: survey)
    monkeypatch.setattr(port_script_figures, "ROOT", "/")
    figures = port_script_figures.script_figures("image", "bootrom", {"name": "pico"})
    assert (figures["played"], figures["matching"], figures["matching_ideal"]) == (5, 3, 2)
    assert figures["played_and_matching"] == "3 of 5"
    assert figures["played_and_matching_ideal"] == "2 of 5"
    assert sorted(figures["matching_not_ideal"]) == ["s/prep.clock", "s/prep2.clock"]
    assert figures["matching_not_ideal"]["s/prep.clock"] == {
        "port": "P",
        "reference": "P",
        "ideal": "I",
        "erases_during_script": 1,
    }
    assert sorted(figures["differing"]) == ["s/bad.clock", "s/off.clock"]
    assert "--ready" in figures["reference"]


def test_the_lane_presses_the_keys_the_runner_chose_on_the_reference():
    """A new control chosen in the menu, a start pressed at once, then a pause: on the
    ideal board the game runs and the runner presses play; on the reference (and on the
    port) the ring is still being prepared, the start was refused, and a pause of a clock
    set up presses nothing. The lane replays the reference runner's keys."""
    path = os.path.join(port_script.SCENARIOS, "speed", "menu-custom-150.clock")
    with open(path, "rb") as handle:
        text = handle.read().decode()
    parsed = scripts.parse((text.rsplit("at 11.3", 1)[0] + "at 7 pause\nat 8 show\n").encode())
    plan = port_script.lane_plan(parsed, "pico")
    assert [step[2] for step in plan["steps"][-2:]] == ["play", "lever_right"]
    assert plan["steps"][-1][0] == 6300 and plan["endMs"] == plan["atMs"] == 8000


def test_the_reference_is_compared_with_the_ideal_board_on_every_expressible_script(
    monkeypatch,
):
    from bench import port_script_figures

    said = {("/s/a.clock", True): "R", ("/s/a.clock", False): "R"}
    said.update({("/s/b.clock", True): "PrEP", ("/s/b.clock", False): "running"})

    def simulated_line(path, options=()):
        assert tuple(options) in ((), port_script.REFERENCE_OPTIONS)
        return said[(path, bool(options))]

    monkeypatch.setattr(port_script, "simulated_line", simulated_line)
    monkeypatch.setattr(port_script_figures, "ROOT", "/")
    figures = port_script_figures.reference_figures([("/s/a.clock", []), ("/s/b.clock", [])], 2)
    assert figures["same_of_compared"] == "1 of 2"
    assert figures["differing"] == {"s/b.clock": {"reference": "PrEP", "ideal": "running"}}


def test_the_lane_plays_every_script_it_can_express_by_default():
    """``MAX_SCRIPT_S`` is no cut: the longest script the lane can express is within it."""
    from bench import port_script_figures

    expressible, _others = port_script.survey()
    longest = max(plan[-1][0] for _path, plan in expressible)
    assert longest > 6 * 3600 * 1000  # games/six-hours: a limit of four hours left it out
    assert longest <= port_script_figures.MAX_SCRIPT_S * 1000
