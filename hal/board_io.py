"""Builds a board's hardware from its definition: the CPU clock, pins, I2C, displays,
timer, storage (on the filesystem it is given), buzzer, battery monitor, running-side
indicators and watchdog.

The only place besides the other `hal` modules that touches `machine`.
Everything the interrupt handlers touch exists before they are enabled.
Used at boot only (it stays loaded, as hal/boot.py says): what the clock uses
after boot is the ``hal.hardware.Hardware`` it returns.
"""

import machine
from adafruit_ht16k33.ht16k33 import HT16K33

import boards
from firmware.input_codes import KEY_MINUS, KEY_SET, LONG_PRESS_MS, NAMES
from hal.battery import Battery, NoBattery
from hal.buzzer import Buzzer
from hal.displays import SegmentDisplay
from hal.edges import EdgeRing
from hal.hardware import Hardware
from hal.i2c_bus import I2CBus
from hal.keys import KeyButtons
from hal.leds import StatusLeds
from hal.sleep import Sleep
from hal.storage import Storage
from hal.tick_source import ticks_ms
from hal.ticker import Ticker
from hal.watchdog import Watchdog

_PULLS = {"up": "PULL_UP", "down": "PULL_DOWN", "none": None}


def build(board, filesystem, flash_root=None):
    """The board's ``Hardware`` (hal.hardware), built from its definition ``board``."""
    _set_cpu_freq(board)  # first: the buses, PWM and timer below take their clocks from it
    pull = _input_pull(board)
    active = 0 if board.ACTIVE_LOW else 1
    pins = []
    for name in NAMES:
        pins.append(machine.Pin(board.INPUTS[name], machine.Pin.IN, pull))
    inputs = EdgeRing(pins, [active] * len(pins), _lever_capture(board, pins))
    keys = KeyButtons(inputs, KEY_SET, KEY_MINUS, LONG_PRESS_MS)
    i2c = machine.I2C(
        board.I2C_ID,
        scl=machine.Pin(board.I2C_SCL),
        sda=machine.Pin(board.I2C_SDA),
        freq=board.I2C_FREQ,
    )
    bus = I2CBus(i2c)
    big = getattr(board, "DISPLAY_KIND", "0.56in") == "1.2in"
    ticker = Ticker(board.TICK_MS)
    return Hardware(
        inputs=inputs,
        keys=keys,
        displays=(
            SegmentDisplay(bus, board.DISPLAY_LEFT, HT16K33, big),
            SegmentDisplay(bus, board.DISPLAY_RIGHT, HT16K33, big),
        ),
        ticker=ticker,
        storage=Storage(flash_root or board.FLASH_ROOT, filesystem),
        buzzer=Buzzer(machine.Pin(board.BUZZER_PIN), machine.PWM),
        battery=_battery(board),
        leds=StatusLeds(
            (_led_pin(board.LED_LEFT), _led_pin(board.LED_RIGHT)), board.LED_ACTIVE_HIGH
        ),
        watchdog=Watchdog(machine.WDT, board.WATCHDOG_MS),
        network=bool(getattr(board, "NETWORK", False)),
        sleep=Sleep(ticker),
    )


def _lever_capture(board, pins):
    """The PIO and DMA stamps of the levers and play (``hal.capture``) on a board that names
    their state machines (``CAPTURE_MACHINES``), or None: the pin handler stamps them.
    A MicroPython without ``rp2.DMA`` (before v1.22) also gets None."""
    machines = getattr(board, "CAPTURE_MACHINES", None)
    if not machines:
        return None
    if not board.ACTIVE_LOW:
        raise ValueError("the capture's program waits for contacts that close to ground")
    try:
        import rp2

        rp2.DMA  # noqa: B018  (v1.22 and later)
    except (ImportError, AttributeError):
        return None
    from hal import capture_setup
    from hal.edges import QUIET_MS

    return capture_setup.build(pins[: len(machines)], machines, QUIET_MS)


def _set_cpu_freq(board):
    """The CPU clock of ``CPU_FREQ_HZ`` (the current budget's, tools/power_budget.py),
    if the board names one and the chip is not there already."""
    hertz = getattr(board, "CPU_FREQ_HZ", None)
    if hertz and machine.freq() != hertz:
        machine.freq(hertz)


def _input_pull(board):
    """The ``machine.Pin`` pull of the levers and keys (``boards.input_pull``)."""
    attribute = _PULLS[boards.input_pull(board)]
    return getattr(machine.Pin, attribute) if attribute else None


def _led_pin(number):
    return None if number is None else machine.Pin(number, machine.Pin.OUT, value=0)


def _battery(board):
    """The battery monitor on ``BATTERY_ADC_PIN``, or a stand-in that is never low."""
    if board.BATTERY_ADC_PIN is None:
        return NoBattery()
    adc = machine.ADC(machine.Pin(board.BATTERY_ADC_PIN))
    if hasattr(machine.ADC, "ATTN_11DB"):  # ESP32: the full 0-3.1 V range, not 0-1.1 V
        adc.atten(machine.ADC.ATTN_11DB)
    return Battery(
        adc,
        board.BATTERY_DIVIDER,
        board.BATTERY_ADC_FULL_SCALE_MV,
        board.BATTERY_LOW_MV,
        ticks_ms(),
        getattr(board, "BATTERY_LOW_HALL_MV", None),
    )
