"""Raspberry Pi Pico / Pico W (RP2040): the clock's wiring.

Both HT16K33 backpacks hang on I2C0: SDA on GP4 (pin 6), SCL on GP5 (pin 7),
3V3 and GND beside them; the left display answers at 0x70 (no jumper), the
right one at 0x71 (jumper A0 bridged). The two lever microswitches and the
four keys each close a contact from their GPIO to GND, with the RP2040's
internal pull-ups on: left lever GP14, right lever GP15, play/pause GP16,
set GP17, plus GP18, minus GP19. The passive piezo buzzer is driven with PWM
from GP13. The running-side indicators, a 10 mm LED beside each lever, are
switched from GP20 (left) and GP21 (right), each through 4.7 kohm into an
NPN transistor's base that sinks the LED's 5 mA from 3V3 through 240 ohm.
The battery, one 18650 Li-ion cell, feeds VSYS through a Schottky diode; the Pico's own divider
puts VSYS/3 on GP29 (ADC3), so nothing else is wired for the battery. On a
Pico W, GP29 is shared with the wireless chip's SPI clock: read it only
while the radio is idle. docs/boards.md derives BATTERY_LOW_MV.
"""

NAME = "pico"
CHIP = "rp2040"
I2C_ID = 0
I2C_SCL = 5
I2C_SDA = 4
I2C_FREQ = 400_000
DISPLAY_LEFT = 0x70
DISPLAY_RIGHT = 0x71
# Inputs by firmware name: GPIO number. Contacts close to ground (ACTIVE_LOW)
# with the chip's internal pull-ups on (INPUT_PULL: "up", "down" or "none").
INPUTS = {
    "lever_left": 14,
    "lever_right": 15,
    "play": 16,
    "set": 17,
    "plus": 18,
    "minus": 19,
}
ACTIVE_LOW = True
INPUT_PULL = "up"
# The latency check of ``make selftest`` (hal/latency_check.py): a jumper wire from
# each of these spare outputs to its lever's input (GP10, pin 14, to GP14, pin 19;
# GP11, pin 15, to GP15, pin 20). The check drives them open-drain: pulled low they
# close the lever's line as its contact does, let go they float and the lever's
# pull-up holds the line high, so a lever pressed meanwhile shorts nothing.
LATENCY_PROBE_PINS = {"lever_left": 10, "lever_right": 11}
# The stamps of the inputs that start or stop a clock (hal/capture.py): PIO0 state machines
# 0, 1 and 2 (lever_left, lever_right, play) each stamp their contact's first closing edge,
# and two DMA channels each, taken from the free ones at boot, consume the push and copy
# the 1 MHz timer for it, while a flash erase holds the CPU. PIO0's state machine 3 is the
# erase check's probe (hal/erase_check.py); PIO1 is left to the Pico W's radio
# (MicroPython's RPI_PICO_W board: CYW43_SPI_PIO 1). The menu keys stay on pin interrupts.
CAPTURE_MACHINES = (0, 1, 2)
# A passive piezo, driven with PWM (GP13 is PWM slice 6, channel B).
BUZZER_PIN = 13
# The running-side indicators (None where a board has none), lit high: a 10 mm
# LED beside each lever, switched by an NPN transistor, steady while that side's
# clock runs (FIDE C.02 (d): visible from 10 m; docs/boards.md).
LED_LEFT = 20
LED_RIGHT = 21
LED_ACTIVE_HIGH = True
LED_DIAMETER_MM = 10
LED_CURRENT_MA = 5  # through the LED: (3.3 V - 2.0 V - 0.1 V) / 240 ohm (docs/fide.md, (d))
# The displays' character height: 0.56" digits (docs/fide.md argues 3 m from it).
DIGIT_HEIGHT_MM = 14
# The CPU clock the hardware layer sets at boot; tools/power_budget.py derives the
# battery threshold below from the draw at this frequency.
CPU_FREQ_HZ = 48_000_000
# The radio: none on the Pico (a Pico W's wireless chip stays powered down: nothing starts it).
RADIO = None
# The battery: the ADC sees BATTERY_DIVIDER[0] / BATTERY_DIVIDER[1] of its voltage,
# and reads 0..65535 over 0..BATTERY_ADC_FULL_SCALE_MV (ADC_VREF is the 3.3 V rail).
BATTERY_ADC_PIN = 29
BATTERY_DIVIDER = (1, 3)
BATTERY_ADC_FULL_SCALE_MV = 3300
# VSYS below this (the cell at 3.75 V less the diode's 0.30 V, rounded up): 10 h of
# play left with 25 % to spare at any brightness (the budget at 16/16), derived by
# tools/power_budget.py from the draw.
BATTERY_LOW_MV = 3450
# The watchdog resets a board whose main loop stopped for this long (RP2040: <= 8388).
WATCHDOG_MS = 5000
# The timer the latency self-test drives its probes with (hal/latency_check.py); the
# main loop needs none: it sleeps until the app's next step on a 20 ms grid (hal/ticker.py).
TIMER_ID = -1
TICK_MS = 20
FLASH_ROOT = "/"
# The journal's ring (hal/journal_setup.py): a littlefs file of at most this many 4 KiB
# blocks, sized to each game's control and erased before its start, only programmed in
# the game: 45 entries a block and the last block the event log's, 5,715 entries at
# most, 7.4 hours of play at 766 entries an hour (docs/power.md): a game of 2 h/40 and
# 1 h a side (105 blocks) fits. 512 KiB of the Pico's 1.4 MiB filesystem (the Pico W's
# is about 850 KiB).
JOURNAL_RING_BLOCKS = 128
# rp2.Flash programs at an offset whole 256-byte pages only (flash_range_program): each
# ring entry is programmed as its page, 0xFF but the entry.
JOURNAL_WHOLE_PAGES = True
# The PIO and DMA stamp the levers at their edges during a flash erase too
# (CAPTURE_MACHINES, hal/capture.py). No erase falls in a game all the same (it
# holds the core: no display, no key): the ring is prepared before the start, its
# pace measured on the port (boards/chips/rp2040.py, docs/power.md).
LEVERS_STAMPED_IN_ERASE = True
