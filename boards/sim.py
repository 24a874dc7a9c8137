"""The simulated board: the Pico's wiring, on the simulator's `machine` module.

The journal keeps its entries in the two slot files of the flash folder (no
ring: tests copy and spoil them); a script run with the chip's latencies
plays on the `pico` board, ring and all (docs/spec/scripts.md).
"""

from boards.pico import *  # noqa: F403  (the same pins, buses and addresses)

NAME = "sim"
JOURNAL_RING_BLOCKS = 0
# The ideal board: the pin handler stamps every input at its edge (no PIO capture).
LEVER_CAPTURE_MACHINES = None
