"""Builds a board's hardware from its definition: pins, I2C, displays, timer, storage.

The only place besides the other `hal` modules that touches `machine`.
Everything the interrupt handlers touch exists before they are enabled.
"""

import machine
from adafruit_ht16k33.segments import Seg7x4

from firmware.arbiter import HOLD_MS
from firmware.inputs import KEY_MINUS, KEY_SET, NAMES
from hal.displays import SegmentDisplay
from hal.i2c_bus import I2CBus
from hal.inputs import EdgeInputs
from hal.keys import KeyButtons
from hal.storage import Storage
from hal.ticker import Ticker


class Hardware:
    """What the app drives: ``inputs``, ``keys``, ``displays``, ``ticker``, ``storage``."""

    def __init__(self, board, flash_root=None):
        self.board = board
        pull = machine.Pin.PULL_UP if board.ACTIVE_LOW else machine.Pin.PULL_DOWN
        active = 0 if board.ACTIVE_LOW else 1
        pins = []
        for name in NAMES:
            pins.append(machine.Pin(board.INPUTS[name], machine.Pin.IN, pull))
        self.inputs = EdgeInputs(pins, [active] * len(pins))
        self.keys = KeyButtons(self.inputs, KEY_SET, KEY_MINUS, HOLD_MS)
        i2c = machine.I2C(
            board.I2C_ID,
            scl=machine.Pin(board.I2C_SCL),
            sda=machine.Pin(board.I2C_SDA),
            freq=board.I2C_FREQ,
        )
        self.bus = I2CBus(i2c)
        self.displays = (
            SegmentDisplay(self.bus, board.DISPLAY_LEFT, Seg7x4),
            SegmentDisplay(self.bus, board.DISPLAY_RIGHT, Seg7x4),
        )
        self.ticker = Ticker(machine.Timer(board.TIMER_ID), board.TICK_MS)
        self.storage = Storage(flash_root or board.FLASH_ROOT)

    def start(self):
        """Enable the interrupts: the lever and key edges, then the tick."""
        self.inputs.enable(machine.Pin)
        self.ticker.start(machine.Timer)

    def stop(self):
        self.ticker.stop()
        for pin in self.inputs.pins:
            pin.irq(handler=None)
