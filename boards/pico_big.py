"""Raspberry Pi Pico with 1.2" displays (RP2040): the Pico's wiring, bigger digits.

The same pins as ``boards/pico.py``; the two HT16K33 backpacks carry 1.2"
(30 mm) 4-digit displays, legible from 3 m with room to spare (docs/fide.md,
clause c). Their LEDs need 5 V ("+"), which a small boost converter makes
from VSYS; the backpacks' IO pin takes 3V3, so the I2C bus stays at 3.3 V.
The 1.2" display has no decimal points: the firmware shows each mark on the
lamps it has (the colon, two dots left of digit 1, a point at the top
right; docs/display.md). tools/power_budget.py derives BATTERY_LOW_MV.
"""

from boards.pico import *  # noqa: F403  (the same pins, buses and addresses)

NAME = "pico_big"
DIGIT_HEIGHT_MM = 30
DISPLAY_KIND = "1.2in"
# VSYS below this: 10 h of play left with 25 % to spare (tools/power_budget.py).
BATTERY_LOW_MV = 3460
# Two 18650 cells in parallel: the 1.2" displays draw about twice the 0.56" ones.
BATTERY_CELLS = 2
