"""The clock in a web page: the Pico's wiring, on the page's stand-in for the chip.

The page (web/, ``make web``) runs the same firmware/ and hal/ inside MicroPython's
WebAssembly port and drives them through the simulator's `machine` module
in real time: its tick is the browser's ``performance.now()`` in whole
milliseconds, and each press is stamped at its touch's or key's own event
time. The flash is a folder of the interpreter's memory that the page keeps
in the browser's storage: its files alone, so the journal keeps no ring on
a block device (``JOURNAL_RING_BLOCKS`` 0) and writes its two slot files.
"""

from boards.pico import *  # noqa: F403  (the same pins, buses and addresses)

NAME = "browser"
JOURNAL_RING_BLOCKS = 0
# Each press is stamped at its event's own time, as an ideal pin handler would (no PIO).
CAPTURE_MACHINES = None
LEVERS_STAMPED_IN_ERASE = True
