"""The first closing edges of the levers and the play key, stamped by the RP2040's PIO and DMA.

One PIO0 state machine per input runs ``hal.lever_pio.lever_program``: it
pushes the word 1 at the input's first closing edge. Two DMA channels per
input stamp that push without the CPU:

- the reader, paced by the state machine's RX DREQ, reads the RX FIFO (so
  each push is consumed by the transfer it requests) and writes the word
  into the copier's ``TRANS_COUNT`` trigger; its own count runs down one per
  push, and never out (``TRANSFERS``): ``unread`` counts the pushes by it;
- the copier, so triggered for one transfer, copies the timer's ``TIMERAWL``
  (the 1 MHz count ``time.ticks_us()`` reads) into the input's ring of four
  words in SRAM.

One stamp per push, whatever the DREQ is: a level (FIFO not empty) falls
when the reader takes the word, a credit (one per push) is spent by that
transfer. A channel that only copied the timer on the DREQ, leaving the FIFO
to the CPU, re-fires as long as the word waits under a level (200,001 times
on rp2040js at the first press): the reader's read is what settles it. Not
``CHAIN_TO``: a chain fires when a channel's whole count is done, so the
reader would have to start again at every push and its count would no longer
say how many pushes there were. Neither channel needs the CPU or the flash: a
press during a flash erase, which holds the CPU for up to 0.4 s, is stamped at
its edge all the same. ``hal.capture_setup`` builds them at boot.

The inputs' pin interrupt stays the wake-up: its handler (``hal.edges``)
asks ``oldest_age_us`` and takes each stamp with ``take``, which gives the
stamp as the tick ``time.ticks_ms()`` had at that instant (``stamp_ms``:
exact across the 32-bit timer's wrap and the 2**30 period of the ticks).
Nothing here allocates; every value is a small int (the stamps and the timer
are read as 16-bit halves, the addresses in SRAM are below 2**30).
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
# Each input's ring holds 4 stamps (16 bytes: the DMA's ring wraps on the address's low
# bits, and MicroPython's heap blocks on the rp2 are 16-byte aligned). A fifth push
# before the CPU takes the first overwrites it: a fault, counted (``take``). The PIO's
# quiet wait (25 ms) spaces one input's pushes, and an erase holds the CPU for 0.4 s
# at most: more than four presses of one key inside one erase is the only way there.
RING_WORDS = const(4)
# The reader's TRANS_COUNT: the transfers before the channel would halt (2**30 - 1
# presses: never). Kept a small int, so that reading it back allocates nothing.
TRANSFERS = const(0x3FFFFFFF)
_COPY_WAIT = const(16)  # reads of the copier's ring position while its copy is in flight
_MASK30 = const(0x3FFFFFFF)


def stamp_ms(stamp_hi, stamp_lo, now):
    """``time.ticks_ms()`` at the instant of a 32-bit timer stamp (halves ``stamp_hi``,
    ``stamp_lo``), given the 64-bit timer now (``now``: ``TIMERAWH``'s 16-bit halves,
    then ``TIMERAWL``'s) and a stamp less than 2**32 us (71 minutes) old.

    On the rp2, ticks_ms is the 64-bit microsecond count divided by 1000, taken
    modulo 2**30 (ports/rp2/mphalport.h: ``to_ms_since_boot``); 2**32 is not a
    multiple of 1000, so the stamp's high word is needed: the present's, less one
    if the low word has wrapped since the stamp. The division runs on 16-bit limbs:
    every intermediate stays below 2**26, a small int. (Few names: the frame stays on
    MicroPython's C stack, tools/heap_frames.py.)"""
    high_hi = now[0]
    high_lo = now[1]
    rest = now[2]  # TIMERAWL's upper half
    if stamp_hi > rest or (stamp_hi == rest and stamp_lo > now[3]):
        if high_lo == 0:
            high_hi -= 1
            high_lo = 0xFFFF
        else:
            high_lo -= 1
    rest = ((high_hi % 1000) * 65536 + high_lo) % 1000
    rest = rest * 65536 + stamp_hi
    high_hi = rest // 1000  # the quotient's upper 16 bits
    rest = ((rest % 1000) * 65536 + stamp_lo) // 1000  # its lower 16 bits
    return ((high_hi & 0x3FFF) << 16) | rest


class LeverCapture:
    """The stamps of inputs 0.. (the levers, then play): for each, its state machine
    (``rp2``), its reader and copier DMA channels, its ring (``array("H")`` of
    ``2 * RING_WORDS`` halves) the copier writes and the address of its first word."""

    def __init__(self, machines, readers, copiers, rings, ring_addresses):
        self.count = len(machines)
        self.machines = machines
        self.readers = readers
        self.copiers = copiers
        self.rings = rings
        self.ring_addresses = ring_addresses
        self.taken = array("i", [0] * self.count)  # stamps read so far, per input
        self.faults = 0  # stamps overwritten before they were taken, or copies never made
        self.ok = True  # False once a copy never landed: the pin handler stamps them alone
        self.now = array("H", [0, 0, 0, 0])  # the timer at read_now: TIMERAWH, TIMERAWL halves
        self.last_stamp = 0  # the last stamp taken, its 30 low bits (the erase check's)

    def read_now(self):
        """Read the 64-bit timer into ``now`` (its 16-bit halves, high first; read again if
        a half moved between the reads), once every copy under way has landed. Call before
        ``oldest_age_us`` and ``take``."""
        index = 0
        while index < self.count:
            self.wait_copied(index)
            index += 1
        mem16 = machine.mem16
        now = self.now
        while True:
            now[0] = mem16[_TIMERAWH_HI]
            now[1] = mem16[_TIMERAWH]
            now[2] = mem16[_TIMERAWL_HI]
            now[3] = mem16[TIMERAWL]
            if mem16[_TIMERAWL_HI] == now[2] and mem16[_TIMERAWH] == now[1]:
                return

    def pushes(self, index):
        """How many pushes of input ``index`` the reader has consumed."""
        return TRANSFERS - self.readers[index].count

    def wait_copied(self, index):
        """Wait the few cycles between the reader's transfer and the copier's: the copier's
        ring position must follow the pushes. A copy that never lands is a fault."""
        copier = self.copiers[index]
        written = (self.pushes(index) % RING_WORDS) * 4
        tries = 0
        while (copier.write - self.ring_addresses[index]) % (4 * RING_WORDS) != written:
            tries += 1
            if tries > _COPY_WAIT:
                self.faults += 1
                self.ok = False
                return

    def unread(self, index):
        """How many stamps of input ``index`` are not taken yet."""
        return self.pushes(index) - self.taken[index]

    def oldest_age_us(self, index):
        """How long ago (us, modulo 2**30) input ``index``'s oldest unread stamp was taken,
        or -1."""
        if self.unread(index) <= 0:
            return -1
        slot = 2 * (self.taken[index] % RING_WORDS)
        ring = self.rings[index]
        stamp = ((ring[slot + 1] & 0x3FFF) << 16) | ring[slot]
        now = self.now
        return ((((now[2] & 0x3FFF) << 16) | now[3]) - stamp) & _MASK30

    def figures(self):
        """What the capture did, for a report (allocates: never in a handler): per input,
        the pushes its reader consumed, the stamps taken and its (reader, copier) DMA
        channel numbers; the faults; whether it still stamps."""
        pushes = []
        taken = []
        channels = []
        index = 0
        while index < self.count:
            pushes.append(self.pushes(index))
            taken.append(self.taken[index])
            channels.append((self.readers[index].channel, self.copiers[index].channel))
            index += 1
        return {
            "pushes": pushes,
            "taken": taken,
            "channels": channels,
            "faults": self.faults,
            "ok": self.ok,
        }

    def take(self, index):
        """The tick of input ``index``'s oldest unread stamp, taken. More unread than the
        ring holds: the oldest were overwritten, a fault; the ring's are taken, and the
        capture goes on (its channels still stamp every push; only those presses are
        lost, as a pin handler held as long would lose them)."""
        unread = self.unread(index)
        if unread > RING_WORDS:
            self.faults += 1
            self.taken[index] += unread - RING_WORDS
        slot = 2 * (self.taken[index] % RING_WORDS)
        ring = self.rings[index]
        self.taken[index] += 1
        self.last_stamp = ((ring[slot + 1] & 0x3FFF) << 16) | ring[slot]
        return stamp_ms(ring[slot + 1], ring[slot], self.now)
