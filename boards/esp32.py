"""ESP32-DevKitC (ESP32-WROOM-32): I2C0 on GPIO21/22, levers and keys on input-capable pins.

GPIO34–39 have no internal pull-ups, so the inputs use pins that do.
"""

NAME = "esp32"
I2C_ID = 0
I2C_SCL = 22
I2C_SDA = 21
I2C_FREQ = 400_000
DISPLAY_LEFT = 0x70
DISPLAY_RIGHT = 0x71
# Inputs by firmware name: GPIO number. Contacts close to ground, pull-ups on.
INPUTS = {
    "lever_left": 32,
    "lever_right": 33,
    "play": 25,
    "set": 26,
    "plus": 27,
    "minus": 14,
}
ACTIVE_LOW = True
BUZZER_PIN = 23
TIMER_ID = 0
TICK_MS = 20
FLASH_ROOT = "/"
