"""Board definitions against their chip's pins: every board passes, each mistake is caught."""

import importlib
import os
import shutil
import subprocess
import types

import pytest

from bench import heap
from hal import board_check
from tests.scripting import compiled_firmware

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOT_BOARDS = ("__init__",)
BOARD_NAMES = sorted(
    name[:-3]
    for name in os.listdir(os.path.join(ROOT, "boards"))
    if name.endswith(".py") and name[:-3] not in NOT_BOARDS
)


def board_module(name):
    return importlib.import_module("boards." + name)


def broken(name, **changes):
    """A copy of board ``name`` with ``changes`` applied (INPUTS copied, not shared)."""
    module = board_module(name)
    values = {key: getattr(module, key) for key in dir(module) if key.isupper()}
    values["INPUTS"] = dict(values["INPUTS"])
    inputs = changes.pop("INPUTS", {})
    values["INPUTS"].update(inputs)
    values.update(changes)
    return types.SimpleNamespace(**values)


def problems_of(board):
    problems = board_check.check(board)
    assert all(isinstance(problem, str) for problem in problems)
    return problems


def assert_caught(board, *words):
    """``check`` reports a problem that mentions every one of ``words``."""
    problems = problems_of(board)
    matching = [p for p in problems if all(word in p for word in words)]
    assert matching, "no problem mentions %r; got %r" % (words, problems)


def test_the_boards_are_found():
    assert {"pico", "esp32", "sim"} <= set(BOARD_NAMES)


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_every_board_passes(name):
    assert problems_of(board_module(name)) == []


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_every_board_names_its_chip_and_new_pins(name):
    board = board_module(name)
    assert board.CHIP in board_check.CHIPS
    for attribute in (
        "BATTERY_ADC_PIN",
        "BATTERY_DIVIDER",
        "BATTERY_LOW_MV",
        "LED_LEFT",
        "LED_RIGHT",
        "LED_ACTIVE_HIGH",
        "INPUT_PULL",
        "WATCHDOG_MS",
    ):
        assert hasattr(board, attribute)


def test_the_sim_board_keeps_the_pico_wiring():
    sim, pico = board_module("sim"), board_module("pico")
    assert sim.NAME == "sim"
    assert sim.CHIP == pico.CHIP
    assert sim.INPUTS == pico.INPUTS
    assert (sim.BATTERY_ADC_PIN, sim.LED_LEFT, sim.LED_RIGHT) == (
        pico.BATTERY_ADC_PIN,
        pico.LED_LEFT,
        pico.LED_RIGHT,
    )


def test_an_unchanged_copy_passes():
    # The copying itself must not introduce problems, or the cases below prove nothing.
    assert problems_of(broken("pico")) == []
    assert problems_of(broken("esp32")) == []


# --- each kind of mistake ------------------------------------------------


def test_a_pin_used_twice():
    assert_caught(broken("pico", BUZZER_PIN=14), "GPIO14", "twice", "lever_left", "BUZZER_PIN")
    assert_caught(broken("esp32", INPUTS={"minus": 32}), "GPIO32", "twice")
    assert_caught(broken("esp32", LED_RIGHT=21), "GPIO21", "twice", "I2C_SDA", "LED_RIGHT")


def test_esp32_input_only_pin_as_the_buzzer():
    assert_caught(broken("esp32", BUZZER_PIN=34), "BUZZER_PIN", "GPIO34", "input only")


def test_esp32_input_only_pin_as_an_led_or_i2c():
    assert_caught(broken("esp32", LED_LEFT=36), "LED_LEFT", "input only")
    assert_caught(broken("esp32", I2C_SCL=39), "I2C_SCL", "input only")


def test_esp32_input_without_pull_up():
    assert_caught(broken("esp32", INPUTS={"play": 35}, BATTERY_ADC_PIN=34), "play", "pull")


def test_esp32_flash_pin():
    assert_caught(broken("esp32", INPUTS={"set": 6}), "set", "GPIO6", "flash")
    assert_caught(broken("esp32", BUZZER_PIN=11), "GPIO11", "flash")


def test_esp32_serial_port_pins():
    assert_caught(broken("esp32", LED_LEFT=1), "GPIO1", "UART0")


def test_esp32_strapping_pins():
    assert_caught(broken("esp32", INPUTS={"plus": 12}), "plus", "GPIO12", "strapping")
    assert_caught(broken("esp32", LED_RIGHT=0), "GPIO0", "strapping")
    assert_caught(broken("esp32", INPUTS={"minus": 15}), "GPIO15", "strapping")


def test_pin_that_the_chip_does_not_have():
    assert_caught(broken("esp32", LED_LEFT=24), "GPIO24", "not a usable GPIO")
    assert_caught(broken("pico", LED_LEFT=30), "GPIO30", "not a usable GPIO")


def test_pico_board_internal_pins():
    assert_caught(broken("pico", LED_LEFT=25), "GPIO25", "LED")
    assert_caught(broken("pico", INPUTS={"set": 29}), "GPIO29", "VSYS")
    assert_caught(broken("pico", BUZZER_PIN=23), "GPIO23")


def test_pico_i2c_on_pins_that_are_not_a_pair():
    assert_caught(broken("pico", I2C_SDA=4, I2C_SCL=7), "I2C0", "SDA 4", "SCL 7")


def test_pico_i2c_pair_of_the_other_bus():
    # GP6/GP7 are an I2C1 pair, not an I2C0 one; on I2C1 they pass.
    assert_caught(broken("pico", I2C_SDA=6, I2C_SCL=7), "I2C0")
    assert problems_of(broken("pico", I2C_ID=1, I2C_SDA=6, I2C_SCL=7)) == []


def test_pico_i2c_sda_and_scl_swapped():
    assert_caught(broken("pico", I2C_SDA=5, I2C_SCL=4), "I2C0", "SDA 5", "SCL 4")


def test_esp32_i2c_on_any_output_pin():
    assert problems_of(broken("esp32", I2C_SDA=16, I2C_SCL=17)) == []


def test_i2c_bus_that_does_not_exist():
    assert_caught(broken("pico", I2C_ID=2), "I2C_ID 2")
    assert_caught(broken("esp32", I2C_ID=-1), "I2C_ID -1")


def test_adc_on_a_non_adc_pin():
    assert_caught(broken("pico", BATTERY_ADC_PIN=22), "BATTERY_ADC_PIN", "GPIO22", "not an ADC")
    # GPIO4 is ADC2 on the ESP32: not usable with Wi-Fi, so not listed.
    assert_caught(broken("esp32", BATTERY_ADC_PIN=4), "BATTERY_ADC_PIN", "GPIO4", "not an ADC")
    assert_caught(broken("esp32", BATTERY_ADC_PIN=37), "BATTERY_ADC_PIN", "GPIO37", "not an ADC")


def test_adc_pins_that_are_fine():
    assert problems_of(broken("pico", BATTERY_ADC_PIN=26)) == []
    assert problems_of(broken("esp32", BATTERY_ADC_PIN=39)) == []


def test_pico_vsys_pin_has_a_fixed_divider():
    assert_caught(broken("pico", BATTERY_DIVIDER=(1, 2)), "BATTERY_DIVIDER", "(1, 3)")


def test_malformed_divider():
    assert_caught(broken("esp32", BATTERY_DIVIDER=(3, 1)), "BATTERY_DIVIDER")
    assert_caught(broken("esp32", BATTERY_DIVIDER=0.333), "BATTERY_DIVIDER")


def test_no_leds_and_no_battery_are_allowed():
    board = broken("pico", LED_LEFT=None, LED_RIGHT=None, BATTERY_ADC_PIN=None)
    assert problems_of(board) == []


def test_equal_display_addresses():
    assert_caught(broken("pico", DISPLAY_RIGHT=0x70), "DISPLAY_LEFT and DISPLAY_RIGHT", "0x70")


def test_display_address_out_of_range():
    assert_caught(broken("esp32", DISPLAY_LEFT=0x3C), "DISPLAY_LEFT 0x3c", "0x70-0x77")
    assert_caught(broken("esp32", DISPLAY_RIGHT=0x78), "DISPLAY_RIGHT", "0x70-0x77")


def test_unknown_chip():
    assert_caught(broken("pico", CHIP="stm32"), "CHIP", "stm32")


def test_missing_and_unknown_inputs():
    board = broken("pico")
    del board.INPUTS["play"]
    board.INPUTS["pause"] = 3
    assert_caught(board, "INPUTS", "'play'")
    assert_caught(board, "INPUTS", "'pause'")


def test_missing_pin_names():
    board = broken("esp32")
    del board.BUZZER_PIN
    assert_caught(board, "BUZZER_PIN", "missing")


def test_pin_that_is_not_a_number():
    assert_caught(broken("pico", BUZZER_PIN="GP13"), "BUZZER_PIN", "not a GPIO number")
    assert_caught(broken("pico", LED_LEFT=True), "LED_LEFT", "not a GPIO number")


def test_every_problem_is_reported_at_once():
    board = broken("esp32", BUZZER_PIN=34, LED_LEFT=6, DISPLAY_RIGHT=0x70)
    assert len(problems_of(board)) >= 3


def test_check_runs_inside_micropython():
    """The same ``check`` on MicroPython (the WebAssembly port of the test lane)."""
    node = shutil.which("node")
    if node is None or not os.path.isdir(os.path.join(ROOT, "tools", "mpy", "node_modules")):
        pytest.skip("the MicroPython lane is not set up (make setup)")
    runner = os.path.join(ROOT, "tools", "mpy", "run.mjs")
    result = subprocess.run(
        [node, runner, "hal.board_check"] + BOARD_NAMES + ["nonesuch"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    lines = result.stdout.splitlines()
    assert ["%s: ok" % name for name in BOARD_NAMES] == lines[: len(BOARD_NAMES)], result.stderr
    assert lines[len(BOARD_NAMES)] == "nonesuch: no board definition boards/nonesuch.py"
    assert result.returncode == 1


# --- pull, polarity and figures ----------------------------------------------


def test_input_pull_must_hold_the_open_level():
    assert_caught(broken("pico", INPUT_PULL="down"), "INPUT_PULL", "ACTIVE_LOW")
    assert_caught(broken("pico", INPUT_PULL="sideways"), "INPUT_PULL", "'sideways'")
    assert_caught(broken("esp32", ACTIVE_LOW="yes"), "ACTIVE_LOW")


def test_external_pull_ups_allow_the_esp32_input_only_pins():
    board = broken("esp32", INPUTS={"play": 36}, INPUT_PULL="none")
    assert problems_of(board) == []
    assert_caught(broken("esp32", INPUTS={"play": 36}), "play", "pull")


def test_led_polarity_is_required():
    assert_caught(broken("pico", LED_ACTIVE_HIGH=None), "LED_ACTIVE_HIGH")


def test_battery_figures():
    assert_caught(broken("pico", BATTERY_LOW_MV=3.47), "BATTERY_LOW_MV")
    assert_caught(broken("esp32", BATTERY_LOW_MV=100), "BATTERY_LOW_MV")
    assert_caught(broken("pico", BATTERY_ADC_FULL_SCALE_MV=5000), "BATTERY_ADC_FULL_SCALE_MV")
    # Without a battery pin the figures are not needed.
    assert problems_of(broken("pico", BATTERY_ADC_PIN=None, BATTERY_LOW_MV=None)) == []


def test_watchdog_timeout_both_chips_take_and_twice_the_longest_rest():
    assert_caught(broken("esp32", WATCHDOG_MS=8389), "WATCHDOG_MS", "8388")
    assert problems_of(broken("pico", WATCHDOG_MS=8388)) == []
    assert_caught(broken("pico", WATCHDOG_MS=1999), "WATCHDOG_MS", "2000")
    assert problems_of(broken("esp32", WATCHDOG_MS=2000)) == []


@pytest.mark.parametrize("name", ["pico", "esp32", "pico_big"])
def test_the_firmware_boots_on_the_board_definition_inside_micropython(name):
    """Each real board's definition builds its hardware (buzzer, battery, LEDs, watchdog
    included) inside MicroPython, from .mpy modules; the boot's heap figure comes out."""
    node = shutil.which("node")
    if node is None or not os.path.isdir(os.path.join(ROOT, "tools", "mpy", "node_modules")):
        pytest.skip("the MicroPython lane is not set up (make setup)")
    compiled_firmware()
    runner = os.path.join(ROOT, "tools", "mpy", "run.mjs")
    done = subprocess.run(
        [node, runner, "--compiled", "bench.boot_heap", name],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    import json

    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["board"] == name
    assert 0 < figures["heap_after_boot_bytes"] < figures["heap_in_use_after_boot_bytes"]
    budget, shipped = heap.mpy_budget(name)  # the board's, from its chip's real heap
    if shipped:  # the esp32 ships frozen only: its .mpy boot is over its budget
        assert figures["heap_after_boot_bytes"] <= budget
    else:
        assert figures["heap_after_boot_bytes"] > budget


def test_a_cpu_clock_the_chip_cannot_run_is_caught():
    assert_caught(broken("pico", CPU_FREQ_HZ=50_000_000), "CPU_FREQ_HZ", "rp2040")
    assert_caught(broken("esp32", CPU_FREQ_HZ=48_000_000), "CPU_FREQ_HZ", "esp32")
    assert problems_of(broken("pico", CPU_FREQ_HZ=None)) == []  # optional: left as it is


def test_an_unknown_display_kind_or_cell_count_is_caught():
    assert_caught(broken("pico", DISPLAY_KIND="2.3in"), "DISPLAY_KIND")
    assert_caught(broken("pico_big", BATTERY_CELLS=0), "BATTERY_CELLS")
