"""Builds the PIO and DMA capture of the levers and the play key at boot (``hal.capture``).

For each input (the board's ``CAPTURE_MACHINES``: lever_left, lever_right,
play): a PIO0 state machine loaded with ``hal.lever_pio.lever_program``, its
quiet count put in its TX FIFO; two DMA channels, the next free ones
(``rp2.DMA()``):

- the copier, configured and not started: it reads ``TIMERAWL`` without
  incrementing and writes a word at a time into the input's 16-byte ring,
  wrapping, unpaced; each start is one transfer (the count its trigger is
  given). The ring must start on a 16-byte boundary (MicroPython's heap
  blocks are 16 bytes on the rp2): the copier's write address is checked;
- the reader, started: paced by the state machine's RX DREQ, it reads the
  state machine's RX FIFO and writes the word (1) into the copier's
  ``AL1_TRANS_COUNT_TRIG``, without incrementing either address.

Both channels exist before the machine starts, so no push can come before
its transfer. The values are the RP2040 datasheet's (tests/test_lever_capture.py
names each with its section).
"""

from array import array

import rp2
from micropython import const

from hal.capture import RING_WORDS, TIMERAWL, TRANSFERS, LeverCapture
from hal.lever_pio import FREQ_HZ, lever_program, quiet_count

# 2.5.3.1 "System DREQ Table": DREQ_PIO0_RX0 is 4; RX1..RX3 are 5..7. TREQ_SEL 0x3F:
# permanent request (unpaced).
_DREQ_PIO0_RX0 = const(4)
_TREQ_PERMANENT = const(0x3F)
_PIO0_MACHINES = const(3)  # rp2.StateMachine ids 0..3 are PIO0's; 3 is the erase check's
# 2.2 "Address Map": PIO0_BASE 0x50200000; 3.7 "List of Registers": RXF0 at 0x020, RXF1..3
# each 4 bytes on. DMA_BASE 0x50000000; 2.5.7: each channel's registers 0x40 apart,
# CH0_AL1_TRANS_COUNT_TRIG at 0x01c.
PIO0_RXF0 = const(0x50200020)
DMA_BASE = const(0x50000000)
_AL1_TRANS_COUNT_TRIG = const(0x01C)
_CHANNEL_SPAN = const(0x40)
# 2.5.7 CH0_CTRL_TRIG: DATA_SIZE 2 is a 32-bit word; RING_SIZE 4 wraps the write
# address at 1 << 4 = 16 bytes (the ring's four words), RING_SEL 1 applies it to writes.
_DATA_SIZE_WORD = const(2)
_RING_SIZE_BITS = const(4)


def copier_ctrl(channel):
    """The CTRL value of the channel that copies the timer into an input's ring: unpaced,
    chained to itself (no chain)."""
    return channel.pack_ctrl(
        size=_DATA_SIZE_WORD,
        inc_read=False,
        inc_write=True,
        ring_size=_RING_SIZE_BITS,
        ring_sel=True,
        treq_sel=_TREQ_PERMANENT,
        chain_to=channel.channel,
        irq_quiet=True,
    )


def reader_ctrl(channel, machine_id):
    """The CTRL value of the channel that takes state machine ``machine_id``'s pushes from
    its RX FIFO into the copier's trigger, paced by that FIFO's DREQ."""
    return channel.pack_ctrl(
        size=_DATA_SIZE_WORD,
        inc_read=False,
        inc_write=False,
        treq_sel=_DREQ_PIO0_RX0 + machine_id,
        chain_to=channel.channel,
        irq_quiet=True,
    )


def trigger_address(channel):
    """The address of ``channel``'s ``AL1_TRANS_COUNT_TRIG``: a write there sets its count
    and starts it."""
    return DMA_BASE + _CHANNEL_SPAN * channel.channel + _AL1_TRANS_COUNT_TRIG


def build(pins, machine_ids, quiet_ms):
    """The ``LeverCapture`` of ``pins`` (the inputs' ``machine.Pin``, levers then play), one
    PIO0 state machine of ``machine_ids`` each, quiet for ``quiet_ms`` before re-arming."""
    if len(machine_ids) != len(pins):
        raise ValueError("one state machine per input: %d inputs, %r" % (len(pins), machine_ids))
    count = quiet_count(quiet_ms)
    machines = []
    readers = []
    copiers = []
    rings = []
    addresses = []
    index = 0
    while index < len(pins):
        machine_id = machine_ids[index]
        if not 0 <= machine_id < _PIO0_MACHINES:
            raise ValueError("capture: state machine %r is not PIO0's 0 to 2" % (machine_id,))
        ring = array("H", [0] * (2 * RING_WORDS))
        pin = pins[index]
        state_machine = rp2.StateMachine(
            machine_id, lever_program, freq=FREQ_HZ, in_base=pin, jmp_pin=pin
        )
        state_machine.put(count)
        copier = rp2.DMA()
        copier.config(read=TIMERAWL, write=ring, count=1, ctrl=copier_ctrl(copier))
        address = copier.write
        if address % (4 * RING_WORDS):  # the ring wraps on the address's low bits
            raise ValueError("capture: the stamp ring is not on a 16-byte boundary")
        reader = rp2.DMA()
        reader.config(
            read=PIO0_RXF0 + 4 * machine_id,
            write=trigger_address(copier),
            count=TRANSFERS,
            ctrl=reader_ctrl(reader, machine_id),
            trigger=True,
        )
        machines.append(state_machine)
        readers.append(reader)
        copiers.append(copier)
        rings.append(ring)
        addresses.append(address)
        index += 1
    for state_machine in machines:
        state_machine.active(1)
    return LeverCapture(machines, readers, copiers, rings, addresses)
