"""Shared set-up for the hardware-layer tests: a booted simulated board in virtual time."""

from sim import machine as sim_machine
from sim import vclock
from sim.world import SimBoard, fresh_flash, remove_flash

TICK_MS = 20


class Booted:
    """A `sim` board booted on a fresh flash with ``control``; ``adc`` is set before boot;
    with ``rests=False`` the app steps at every tick (``SimBoard``)."""

    def __init__(self, control, adc_u16=None, board_name="sim", rests=True):
        self.flash = fresh_flash(control)
        self.board = SimBoard(self.flash, bounce_ms=0, board_name=board_name, rests=rests)
        sim_machine.set_clock(vclock.now_ms)
        if adc_u16 is not None:
            sim_machine.set_adc(self.board.board.BATTERY_ADC_PIN, adc_u16)
        self.board.boot()
        self.app = self.board.app
        self.hardware = self.app.hardware

    def run_to(self, ms):
        self.board.run_due(ms)

    def press(self, name):
        self.board.press(name)

    def close(self):
        self.hardware.stop()
        remove_flash(self.flash)
