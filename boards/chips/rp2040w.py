"""RP2040 on the Pico W: the Pico's flash and hard pin interrupts, plus the CYW43439 radio.

Socket calls (the hall link's) run on the CPU but leave the interrupts on:
with hard pin handlers they delay no stamp; they are counted as C calls.
"""

from boards.chips.rp2040 import *  # noqa: F403  (the same flash, the same interrupts)

# A send of one hall message (~310 bytes, bench/latest.json "hall") through lwIP:
# a copy into its buffers, 1 ms typically; at most the hall link's write timeout,
# 250 ms (hal/hall_link.py IO_TIMEOUT_S), when the radio's queue is full.
SOCKET_CALL_US = (1_000, 250_000)
