"""ESP32-DevKitC (ESP32-WROOM-32): the clock's wiring.

Both HT16K33 backpacks hang on I2C0: SDA on GPIO21, SCL on GPIO22, 3V3 and
GND beside them; the left display answers at 0x70 (no jumper), the right one
at 0x71 (jumper A0 bridged). The two lever microswitches and the four keys
each close a contact from their GPIO to GND, with the ESP32's internal
pull-ups on: left lever GPIO32, right lever GPIO33, play/pause GPIO25, set
GPIO26, plus GPIO27, minus GPIO14. GPIO34-39 are left out of that job (no
internal pull-ups), and so are the strapping pins 0, 2, 5, 12 and 15 (a
closed contact at reset would change the boot mode or the flash voltage).
The passive piezo buzzer is driven with PWM from GPIO23. The running-side
indicators (10 mm LEDs) are switched from GPIO18 (left) and GPIO19 (right),
each through 4.7 kohm into an NPN transistor's base that sinks the LED's
5 mA from 3V3 through 240 ohm. The battery, one 18650 Li-ion cell, feeds the
3V3 pin through an AP2112K-3.3 regulator; it is measured on GPIO35 (ADC1, which
keeps working with Wi-Fi on, unlike ADC2) through a divider of 200 kohm from
the cell's plus to GPIO35 and 100 kohm from GPIO35 to GND, with 100 nF across
the lower resistor: the ADC sees a third of the cell's voltage, read with
11 dB attenuation and the chip's calibration (``ADC.read_uv``).
docs/boards.md derives BATTERY_LOW_MV.
"""

NAME = "esp32"
CHIP = "esp32"
I2C_ID = 0
I2C_SCL = 22
I2C_SDA = 21
I2C_FREQ = 400_000
DISPLAY_LEFT = 0x70
DISPLAY_RIGHT = 0x71
# Inputs by firmware name: GPIO number. Contacts close to ground (ACTIVE_LOW)
# with the chip's internal pull-ups on (INPUT_PULL: "up", "down" or "none").
INPUTS = {
    "lever_left": 32,
    "lever_right": 33,
    "play": 25,
    "set": 26,
    "plus": 27,
    "minus": 14,
}
ACTIVE_LOW = True
INPUT_PULL = "up"
# The latency check of ``make selftest`` (hal/latency_check.py): a jumper wire from
# each of these spare outputs to its lever's input (IO4 to IO32, IO13 to IO33; no
# strapping pin, no flash pin). The check drives them open-drain: pulled low they
# close the lever's line as its contact does, let go they float and the lever's
# pull-up holds the line high, so a lever pressed meanwhile shorts nothing.
LATENCY_PROBE_PINS = {"lever_left": 4, "lever_right": 13}
# A passive piezo, driven with PWM (the LEDC peripheral).
BUZZER_PIN = 23
# The running-side indicators (None where a board has none), lit high: a 10 mm
# LED beside each lever, switched by an NPN transistor, steady while that side's
# clock runs (FIDE C.02 (d): visible from 10 m; docs/boards.md).
LED_LEFT = 18
LED_RIGHT = 19
LED_ACTIVE_HIGH = True
LED_DIAMETER_MM = 10
LED_CURRENT_MA = 5  # through the LED: (3.3 V - 2.0 V - 0.1 V) / 240 ohm (docs/fide.md, (d))
# The displays' character height: 0.56" digits (docs/fide.md argues 3 m from it).
DIGIT_HEIGHT_MM = 14
# The CPU clock the hardware layer sets at boot; tools/power_budget.py derives the
# battery threshold below from the draw at this frequency.
CPU_FREQ_HZ = 80_000_000
# The radio: Wi-Fi and Bluetooth, which the firmware never starts.
RADIO = "wifi-bt"
# The battery: the ADC sees BATTERY_DIVIDER[0] / BATTERY_DIVIDER[1] of its voltage.
# read_uv() is calibrated; BATTERY_ADC_FULL_SCALE_MV is only used without it.
BATTERY_ADC_PIN = 35
BATTERY_DIVIDER = (1, 3)
BATTERY_ADC_FULL_SCALE_MV = 3300
# The cell below this: 10 h of play left with 25 % to spare, derived by
# tools/power_budget.py from the draw (docs/boards.md).
BATTERY_LOW_MV = 3790
# ... and with a hall file, the radio on (the same derivation with the radio's draw).
BATTERY_LOW_HALL_MV = 3860
# Wi-Fi: the tournament hall (docs/hall.md), used only with a hall file on the flash.
NETWORK = True
# The watchdog resets a board whose main loop stopped for this long.
WATCHDOG_MS = 5000
# The timer the latency self-test drives its probes with (hal/latency_check.py); the
# main loop needs none: it sleeps until the app's next step on a 20 ms grid (hal/ticker.py).
TIMER_ID = 0
TICK_MS = 20
FLASH_ROOT = "/"
# The journal's ring (hal/journal_setup.py): at most 128 blocks of 4 KiB, erased
# before the start, only programmed in the game (as on the Pico, boards/pico.py):
# 512 KiB of the 960 KiB vfs partition.
JOURNAL_RING_BLOCKS = 128
# esp32.Partition programs any bytes at any offset (esp_partition_write): each ring
# entry's 68 bytes alone, two of ESP-IDF's programs of at most 64 bytes
# (boards/chips/esp32.py), where its whole page would take four.
JOURNAL_WHOLE_PAGES = False
# A flash erase holds the levers' soft pin handlers back (up to 0.4 s) and nothing else
# stamps them (boards/chips/esp32.py: no PIO capture): a press inside an erase would be
# charged late. The journal's ring is prepared before a game may start on every board,
# sized to the game's controls, its blocks back to back, and the clock shows ``PrEP``
# and refuses a start meanwhile (hal/journal_store.py, docs/power.md).
LEVERS_STAMPED_IN_ERASE = False
