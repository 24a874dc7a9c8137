"""Raspberry Pi Pico W (RP2040 with the CYW43439 radio): the clock's wiring, with the hall.

The Pico's wiring (boards/pico.py: displays on I2C0 GP4/GP5, levers GP14/GP15,
keys GP16-GP19, buzzer GP13, status LEDs GP20/GP21), except the battery: on
the Pico W GP29 is the radio's SPI clock, so the Pico's own VSYS/3 divider
cannot be read while Wi-Fi works. The cell (after its Schottky diode, as on
the Pico) is measured through a divider of its own on GP28 (ADC2): 200 kohm
from VSYS to GP28, 100 kohm from GP28 to GND, 100 nF across the lower one.
``NETWORK``: the clock can join the tournament hall (docs/hall.md); it stays
offline until a hall file is on its flash. docs/boards.md derives
BATTERY_LOW_MV with the radio's draw.
"""

from boards.pico import *  # noqa: F403  (the same displays, inputs, buzzer and LEDs)

NAME = "pico_w"
CHIP = "rp2040w"
BATTERY_ADC_PIN = 28
BATTERY_DIVIDER = (1, 3)
BATTERY_ADC_FULL_SCALE_MV = 3300
# VSYS below this: 10 h of play left offline, with 25 % to spare; with a hall file
# the radio draws too and the mark comes at BATTERY_LOW_HALL_MV. Both derived by
# tools/power_budget.py from the draw (docs/boards.md).
BATTERY_LOW_MV = 3450
BATTERY_LOW_HALL_MV = 3510
# Wi-Fi: the tournament hall (docs/hall.md), used only with a hall file on the flash.
NETWORK = True
