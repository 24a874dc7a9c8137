"""Raspberry Pi Pico / Pico W (RP2040): I2C0 on GP4/GP5, levers and keys on GP14–GP19."""

NAME = "pico"
I2C_ID = 0
I2C_SCL = 5
I2C_SDA = 4
I2C_FREQ = 400_000
DISPLAY_LEFT = 0x70
DISPLAY_RIGHT = 0x71
# Inputs by firmware name: GPIO number. Contacts close to ground, pull-ups on.
INPUTS = {
    "lever_left": 14,
    "lever_right": 15,
    "play": 16,
    "set": 17,
    "plus": 18,
    "minus": 19,
}
ACTIVE_LOW = True
BUZZER_PIN = 13
TIMER_ID = -1
TICK_MS = 20
FLASH_ROOT = "/"
