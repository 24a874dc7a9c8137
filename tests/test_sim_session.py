"""The live simulator's session: real time, presses held by hand, and the record that replays.

A wall clock the test sets stands in for real time, so every instant is
known; the recorded script then runs through ``sim.runner`` (and once inside
MicroPython) and must end in exactly the state the session ended in.
"""

import random

import pytest

from live import controls
from live.session import LiveSession, header_text, press_statement
from tests.scripting import fields, run_cli, run_text


class Wall:
    """A wall clock in seconds that only the test moves."""

    def __init__(self):
        self.seconds = 1000.0

    def __call__(self):
        return self.seconds


def live(control="300", script=None, speed=1):
    wall = Wall()
    session = LiveSession(script or header_text(control, "sim"), speed=speed, clock=wall)
    session.play_script(print)
    session.go_live()
    start = wall.seconds

    def at(seconds):
        wall.seconds = start + seconds
        session.advance()

    return session, at


def replay(session):
    """Finish ``session``, replay its record; return (end line, record, replay status, lines)."""
    end = session.finish()
    text = session.script_text_recorded("test")
    session.close()
    status, lines = run_text(text, "recorded.clock")
    return end, text, status, lines


def test_a_live_game_keeps_the_time_of_the_rules():
    session, at = live("300")
    at(1.0)
    session.tap("lever_right")  # White is left; left's clock runs from 1.000
    at(4.5)
    session.tap("play")  # paused at 4.500: left used 3.5 s
    at(6.0)
    end, _, status, lines = replay(session)
    state = fields(end)
    assert state["state"] == "paused"
    assert state["white"] == "left"
    assert state["left"] == "0:04:56.500"
    assert state["right"] == "0:05:00.000"
    assert state["display"] == " 4.57| 5.00"  # rounded up, no running mark while paused
    assert status == 0
    assert lines[-1].endswith("end: " + end)


def test_presses_are_recorded_at_their_instants_with_their_durations():
    session, at = live("300")
    at(1.0)
    session.down("lever_right")
    at(1.02)  # let go after 20 ms: the contact stays closed the runner's 80 ms
    session.up("lever_right")
    at(2.5)
    session.down("play")
    at(2.7)
    session.up("play")
    at(3.0)
    session.down("set")
    at(5.3)
    session.up("set")
    at(6.0)
    end, text, status, _ = replay(session)
    assert "at 1.000 press right\n" in text
    assert "at 2.500 hold play 0.200\n" in text
    assert "at 3.000 hold set 2.300\n" in text
    assert text.rstrip().endswith(end)
    assert status == 0


def test_speed_multiplies_the_wall_clock():
    session, at = live("300", speed=10)
    at(0.1)
    session.tap("lever_right")
    at(1.1)  # one wall second: ten seconds of play
    end, _, status, _ = replay(session)
    assert fields(end)["left"] == "0:04:50.000"
    assert fields(end)["at"] == "11.000"
    assert status == 0


def test_a_session_started_from_a_script_records_in_script_time():
    script = "control 300\nat 0 press right\nat 5 pause\nat 5 add left +1:00\nat 5 resume\n"
    session, at = live(script=script)
    offset = session.game.offset_ms
    assert offset > 0  # the arbiter's key sequence took virtual time
    at(2.0)
    session.tap("lever_left")
    at(3.0)
    end, text, status, _ = replay(session)
    assert "at 7.000 press left\n" in text  # 5 s of script, then 2 s live
    assert fields(end)["at"] == "8.000"
    # left ran 0..5 and 5..7 (7 s) and got a minute: 6:00 - 7 s
    assert fields(end)["left"] == "0:05:53.000"
    assert status == 0


@pytest.fixture
def trace(monkeypatch):
    """Every contact transition and timer tick the firmware gets, in order, with its instant."""
    from sim import machine as sim_machine
    from sim import vclock

    events = []
    drive = sim_machine.drive
    fire = sim_machine.Timer.fire

    def traced_drive(pin_id, level):
        events.append((vclock.now_ms(), "pin", pin_id, level))
        drive(pin_id, level)

    def traced_fire(timer):
        events.append((vclock.now_ms(), "tick"))
        fire(timer)

    monkeypatch.setattr(sim_machine, "drive", traced_drive)
    monkeypatch.setattr(sim_machine.Timer, "fire", traced_fire)
    return events


@pytest.mark.parametrize("seed", range(12))
def test_any_session_replays_to_the_same_state(seed, trace):
    """Random hands: overlapping holds, presses a millisecond apart, long presses.

    The replay must give the firmware the very same transitions and ticks, in
    the same order at the same instants, and end in the same state.
    """
    rng = random.Random(seed)
    session, at = live(rng.choice(["300+3", "60d5", "40/5400+30:1800+30", "180"]))
    names = [control.name for control in controls.CONTROLS]
    now = 0.0
    for _ in range(40):
        now += rng.choice([0.001, 0.002, 0.003, 0.02, 0.3, 1.7, 2.2])
        at(now)
        name = rng.choice(names)
        if name in session.held:
            session.up(name)
        elif rng.random() < 0.5:
            session.tap(name)
        else:
            session.down(name)
    at(now + rng.choice([0.0, 0.001, 1.0]))
    end = session.finish()
    live_events = list(trace)
    text = session.script_text_recorded("test")
    session.close()
    del trace[:]
    status, lines = run_text(text, "recorded.clock")
    assert trace == live_events
    assert status == 0, "\n".join([text] + lines)
    assert lines[-1].endswith("end: " + end)


def test_the_record_replays_inside_micropython(tmp_path):
    session, at = live("300+3")
    at(0.5)
    session.tap("lever_right")
    at(2.0)
    session.down("play")
    at(2.15)
    session.up("play")
    at(3.0)
    end = session.finish()
    path = tmp_path / "session.clock"
    path.write_text(session.script_text_recorded())
    session.close()
    status, out, err = run_cli([str(path)], mpy=True)
    assert status == 0, out + err
    assert out.strip().endswith("end: " + end)


def test_press_statements():
    assert press_statement("lever_left", 80) == "press left"
    assert press_statement("lever_right", 80) == "press right"
    assert press_statement("set", 80) == "key set"
    assert press_statement("plus", 2100) == "hold plus 2.100"
    assert press_statement("lever_left", 81) == "hold lever_left 0.081"


class Chip:
    def __init__(self):
        self.ram = bytearray(b"\x3f" * 16)
        self.oscillator_on = True
        self.display_on = True
        self.blink_rate = 0


def test_a_chip_lights_its_ram_only_when_on_and_in_the_bright_half_of_a_blink():
    chip = Chip()
    assert controls.shown_ram(chip, 0) == bytes(chip.ram)
    chip.display_on = False
    assert controls.shown_ram(chip, 0) == bytes(16)
    chip.display_on = True
    chip.oscillator_on = False
    assert controls.shown_ram(chip, 0) == bytes(16)
    chip.oscillator_on = True
    chip.blink_rate = 2  # 1 Hz
    assert controls.shown_ram(chip, 499) == bytes(chip.ram)
    assert controls.shown_ram(chip, 500) == bytes(16)
    assert controls.shown_ram(chip, 1000) == bytes(chip.ram)


def test_every_control_is_a_firmware_input_with_distinct_shortcuts():
    from firmware.input_codes import NAMES

    assert sorted(control.name for control in controls.CONTROLS) == sorted(NAMES)
    window = [key for control in controls.CONTROLS for key in control.window_keys]
    terminal = [char for control in controls.CONTROLS for char in control.terminal_keys]
    assert len(window) == len(set(window))
    assert len(terminal) == len(set(terminal))
    for char in controls.QUIT_TERMINAL_KEYS + controls.HOLD_TERMINAL_KEYS:
        assert char not in terminal


def test_a_power_cut_and_its_return_are_recorded_and_replay(trace):
    session, at = live("300+3")
    if not session.can_cut_power():
        pytest.skip("this board has no power switch in the simulator yet")
    at(1.0)
    session.tap("lever_right")
    at(3.0)
    session.toggle_power()
    at(3.5)
    assert session.status() == "power off"
    assert all(not any(chip.ram) for chip in session.board.chips)  # displays dark
    at(5.0)
    session.toggle_power()
    at(6.5)
    end = session.finish()
    live_events = list(trace)
    text = session.script_text_recorded()
    session.close()
    assert "at 3.000 power off\nat 5.000 power on\n" in text
    del trace[:]
    status, lines = run_text(text, "recorded.clock")
    assert trace == live_events
    assert status == 0, "\n".join([text] + lines)
    assert lines[-1].endswith("end: " + end)


def test_the_terminal_help_line_names_only_keys_the_terminal_accepts():
    from live import terminal

    lines = terminal.help_lines()
    named = 0
    for line in lines[:2]:
        for item in line.split("  "):
            hint, label = item.split(": ")
            control = [c for c in controls.CONTROLS if c.label == label][0]
            for name in hint.split(" or "):
                char = " " if name == "space" else name
                for typed in {char, char.lower(), char.upper()}:  # as typed, caps lock or not
                    assert controls.control_for_terminal_key(typed) is control, (name, typed)
                named += 1
    assert named >= len(controls.CONTROLS)
    rest = lines[2]
    assert rest.startswith("H then a key") and "O: power" in rest and "Q: quit" in rest
    for letter, keys in (("h", controls.HOLD_TERMINAL_KEYS), ("o", controls.POWER_TERMINAL_KEYS)):
        assert letter in keys and letter.upper() in keys
    assert "q" in controls.QUIT_TERMINAL_KEYS and "Q" in controls.QUIT_TERMINAL_KEYS


def test_a_hold_longer_than_a_script_can_say_lets_go_and_the_record_replays():
    # At --speed 20 a key held 3.7 s of wall time is held 74 s of virtual time;
    # a script's hold is at most 60 s, so the contact opens by itself at 60 s.
    session, at = live("300", speed=20)
    at(1.0)
    session.tap("lever_right")  # left (White) runs from 20 s of virtual time
    at(2.0)
    session.tap("play")  # paused at 40 s
    at(3.0)
    session.down("plus")
    at(6.7)  # 74 s later
    assert "plus" not in session.held
    session.up("plus")  # the hand lets go: already open
    at(8.0)
    end, text, status, lines = replay(session)
    assert "hold plus 60.000" in text and "73." not in text
    assert status == 0, lines
    assert lines[-1].endswith("end: " + end)
