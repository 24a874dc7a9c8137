"""The levers' first closing edges, stamped by the RP2040's PIO and DMA without the CPU.

One PIO0 state machine per lever runs ``hal.lever_pio.lever_program``: it
pushes a word at the lever's first closing edge. One DMA channel per lever,
paced by that state machine's RX DREQ, copies the timer's ``TIMERAWL`` (the
1 MHz count ``time.ticks_us()`` reads) into the lever's ring of four words
in SRAM. Neither needs the CPU or the flash: a press during a flash erase,
which holds the CPU for up to 0.4 s, is stamped at its edge all the same.
``hal.capture_setup`` builds them at boot.

The levers' pin interrupt stays the wake-up: its handler (``hal.edges``)
asks ``oldest_age_us`` and takes each stamp with ``take``, which gives the
stamp as the tick ``time.ticks_ms()`` had at that instant (``stamp_ms``:
exact across the 32-bit timer's wrap and the 2**30 period of the ticks).
Nothing here allocates; every value is a small int (the stamps and the timer
are read as 16-bit halves).
"""

from array import array

import machine
from micropython import const

# RP2040 datasheet 2.2 "Address Map": TIMER_BASE 0x40054000; 4.6.5 "List of Registers"
# (TIMER): TIMERAWH at 0x24, TIMERAWL at 0x28, the raw count, read without the latch
# that TIMEHR/TIMELR share with the SDK's reads. Read here as 16-bit halves.
_TIMERAWH = const(0x40054024)
TIMERAWL = const(0x40054028)  # hal.capture_setup gives it to the DMA
_TIMERAWH_HI = const(0x40054026)
_TIMERAWL_HI = const(0x4005402A)
# 3.2 / 3.5.4: each state machine's RX FIFO holds 4 words; each lever's ring holds as
# many stamps, so a stamp is never overwritten before its push is taken from the FIFO.
RING_WORDS = const(4)
# DMA TRANS_COUNT: the transfers before the channel would halt (2**30 - 1 presses:
# never). Kept a small int, so that reading it back allocates nothing.
TRANSFERS = const(0x3FFFFFFF)
_MASK30 = const(0x3FFFFFFF)


def stamp_ms(stamp_hi, stamp_lo, high_hi, high_lo, low_hi, low_lo):
    """``time.ticks_ms()`` at the instant of a 32-bit timer stamp (halves ``stamp_hi``,
    ``stamp_lo``), given the 64-bit timer now (``TIMERAWH`` as ``high_hi``/``high_lo``,
    ``TIMERAWL`` as ``low_hi``/``low_lo``, 16-bit halves) and a stamp less than
    2**32 us (71 minutes) old.

    On the rp2, ticks_ms is the 64-bit microsecond count divided by 1000, taken
    modulo 2**30 (ports/rp2/mphalport.h: ``to_ms_since_boot``); 2**32 is not a
    multiple of 1000, so the stamp's high word is needed: the present's, less one
    if the low word has wrapped since the stamp. The division runs on 16-bit limbs:
    every intermediate stays below 2**26, a small int."""
    if stamp_hi > low_hi or (stamp_hi == low_hi and stamp_lo > low_lo):
        if high_lo == 0:
            high_hi -= 1
            high_lo = 0xFFFF
        else:
            high_lo -= 1
    rest = high_hi % 1000
    part = rest * 65536 + high_lo
    rest = part % 1000
    part = rest * 65536 + stamp_hi
    third = part // 1000
    rest = part % 1000
    lowest = (rest * 65536 + stamp_lo) // 1000
    return ((third & 0x3FFF) << 16) | lowest


class LeverCapture:
    """The levers' stamps: for each lever (inputs 0..), its state machine (``rp2``), its DMA
    channel and its ring (``array("H")`` of ``2 * RING_WORDS`` halves) the channel writes."""

    def __init__(self, machines, channels, rings):
        self.count = len(machines)
        self.machines = machines
        self.channels = channels
        self.rings = rings
        self.taken = array("i", [0] * self.count)  # stamps read so far, per lever
        self.faults = 0  # stamps without a push behind them, or pushes lost to a full ring
        self.ok = True  # False after a fault: the pin handler stamps the levers alone
        self.now = array("H", [0, 0, 0, 0])  # the timer at read_now: TIMERAWH, TIMERAWL halves
        self.last_stamp = 0  # the last stamp taken, its 30 low bits (the erase check's)

    def read_now(self):
        """Read the 64-bit timer into ``now`` (its 16-bit halves, high first; read again if
        a half moved between the reads). Call before ``oldest_age_us`` and ``take``."""
        mem16 = machine.mem16
        now = self.now
        while True:
            now[0] = mem16[_TIMERAWH_HI]
            now[1] = mem16[_TIMERAWH]
            now[2] = mem16[_TIMERAWL_HI]
            now[3] = mem16[TIMERAWL]
            if mem16[_TIMERAWL_HI] == now[2] and mem16[_TIMERAWH] == now[1]:
                return

    def unread(self, lever):
        """How many stamps of ``lever`` are not taken yet."""
        return TRANSFERS - self.channels[lever].count - self.taken[lever]

    def oldest_age_us(self, lever):
        """How long ago (us, modulo 2**30) ``lever``'s oldest unread stamp was taken, or -1."""
        if self.unread(lever) <= 0:
            return -1
        slot = 2 * (self.taken[lever] % RING_WORDS)
        ring = self.rings[lever]
        stamp = ((ring[slot + 1] & 0x3FFF) << 16) | ring[slot]
        now = self.now
        return ((((now[2] & 0x3FFF) << 16) | now[3]) - stamp) & _MASK30

    def take(self, lever):
        """The tick of ``lever``'s oldest unread stamp, taken (its push drained)."""
        unread = self.unread(lever)
        if unread > RING_WORDS:  # cannot happen while the state machine blocks on a full FIFO
            self.faults += 1
            self.ok = False
            self.taken[lever] += unread - RING_WORDS
        state_machine = self.machines[lever]
        if state_machine.rx_fifo():
            state_machine.get()
        else:  # a transfer without a push: the channel is not paced by this machine
            self.faults += 1
            self.ok = False
        slot = 2 * (self.taken[lever] % RING_WORDS)
        ring = self.rings[lever]
        self.taken[lever] += 1
        self.last_stamp = ((ring[slot + 1] & 0x3FFF) << 16) | ring[slot]
        now = self.now
        return stamp_ms(ring[slot + 1], ring[slot], now[0], now[1], now[2], now[3])
