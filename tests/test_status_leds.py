"""The running side's status LEDs: lit while that side's clock runs, absent LEDs allowed."""

from hal.leds import StatusLeds
from sim import machine as sim_machine


class CountingPin:
    def __init__(self):
        self.level = None
        self.writes = 0

    def value(self, level):
        self.level = level
        self.writes += 1


def test_only_the_running_side_is_lit_and_pins_are_written_on_change_only():
    left, right = CountingPin(), CountingPin()
    leds = StatusLeds((left, right))
    assert (left.level, right.level) == (0, 0)
    leds.show(0)
    assert (left.level, right.level) == (1, 0)
    writes = left.writes + right.writes
    for _ in range(100):
        leds.show(0)
    assert left.writes + right.writes == writes
    leds.show(1)
    assert (left.level, right.level) == (0, 1)
    leds.show(-1)
    assert (left.level, right.level) == (0, 0)


def test_active_low_leds_and_a_missing_led():
    right = CountingPin()
    leds = StatusLeds((None, right), active_high=False)
    assert right.level == 1  # off
    leds.show(1)
    assert right.level == 0
    leds.show(0)  # the left side has no LED: nothing to light, the right one goes off
    assert right.level == 1


def test_board_leds_follow_the_game(boot_board):
    booted = boot_board("300")
    board = booted.board.board

    def lit():
        return (sim_machine.pin_level(board.LED_LEFT), sim_machine.pin_level(board.LED_RIGHT))

    assert lit() == (0, 0)  # before the start
    booted.press("lever_right")
    booted.run_to(100)
    assert lit() == (1, 0)  # left runs
    booted.run_to(5000)
    booted.press("lever_left")
    booted.run_to(5100)
    assert lit() == (0, 1)
    booted.run_to(6000)
    booted.press("play")
    booted.run_to(6100)
    assert lit() == (0, 0)  # paused
