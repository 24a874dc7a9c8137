"""ESP32 (ESP32-WROOM-32) with its 4 MiB SPI NOR flash: what can hold back an edge.

The esp32 port has no hard pin interrupts (``Pin.irq(hard=True)`` raises
TypeError; hal/edges.py falls back to a soft handler), so a lever's handler
runs from MicroPython's scheduler, between two bytecodes: after whatever C
call the main loop is in has returned. That is any flash write or erase
(the cache is off while it runs), an I2C frame, a collection, a socket call.
"""

SOFT_PIN_HANDLERS = True
FLASH_MASKS_INTERRUPTS = True  # the cache is off: nothing that runs from flash runs
# The module's flash maker varies; the figures are those of the GigaDevice GD25Q32C
# found in many ESP32-WROOM-32 modules (its datasheet, "AC Characteristics"):
# tSE sector erase (4 KiB) 50 ms typical, 400 ms max; tPP page program 0.6 ms
# typical, 2.4 ms max.
SECTOR_ERASE_US = (50_000, 400_000)
PAGE_PROGRAM_US = (600, 2_400)
SECTOR_BYTES = 4096
PAGE_BYTES = 256
# littlefs as MicroPython's VfsLfs2 mounts it on the esp32: 4 KiB blocks, progsize=32.
LFS_PROG_BYTES = 32
# A full collection at the board's 80 MHz: an estimate (not a datasheet figure)
# of 25 us per KiB of heap in use typically, 50 us at most.
GC_US_PER_KIB = (25, 50)
# The heap of MicroPython's esp32 build without PSRAM (gc.mem_free() at the REPL, about).
HEAP_BYTES = 110 * 1024
# A send of one hall message through lwIP: 1 ms typically; at most the hall link's
# write timeout, 250 ms (hal/hall_link.py IO_TIMEOUT_S).
SOCKET_CALL_US = (1_000, 250_000)
