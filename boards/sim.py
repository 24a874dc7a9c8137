"""The simulated board: the Pico's wiring, on the simulator's `machine` module.

The journal keeps its entries as the boards do: in a ring on the block device
under the filesystem (``sim.flash``), prepared before a game may start, with
the two slot files of the flash folder when the ring is full. The ring is
smaller than a board's: 3 blocks, 90 entries (about 7 minutes of play) and the
event log's block, prepared at power-on and at each new game's setup (the
ideal board's flash takes no time: no game waits for it), so that every clock
script runs both the ring's preparation and its entries at little cost, and a
longer game the slot files' path after the ring; a script run with the chip's
latencies plays on the `pico` board, its ring sized to the game's control
(docs/spec/scripts.md).
"""

from boards.pico import *  # noqa: F403  (the same pins, buses and addresses)

NAME = "sim"
JOURNAL_RING_BLOCKS = 3
# The ideal board: the pin handler stamps every input at its edge (no PIO capture).
CAPTURE_MACHINES = None
# The ideal board stamps every edge at its instant, during an erase too.
LEVERS_STAMPED_IN_ERASE = True
