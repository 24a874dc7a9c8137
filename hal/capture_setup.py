"""Builds the levers' PIO and DMA capture at boot (``hal.capture``); used at boot only.

For each lever: a PIO0 state machine (the board's ``LEVER_CAPTURE_MACHINES``)
loaded with ``hal.lever_pio.lever_program``, its quiet count put in its TX
FIFO; a DMA channel (the next free one, ``rp2.DMA()``) paced by that
machine's RX DREQ, reading ``TIMERAWL`` without incrementing, writing a
word at a time into the lever's 16-byte ring, wrapping. The ring must start
on a 16-byte boundary (MicroPython's heap blocks are 16 bytes on the rp2):
the channel's write address is checked before it is started. The channel
is started before the machine, so no push can come before its transfer.
The values are the RP2040 datasheet's (tests/test_lever_capture.py names
each with its section).
"""

from array import array

import rp2
from micropython import const

from hal.capture import RING_WORDS, TIMERAWL, TRANSFERS, LeverCapture
from hal.lever_pio import FREQ_HZ, lever_program, quiet_count

# 2.5.3.1 "System DREQ Table": DREQ_PIO0_RX0 is 4; RX1..RX3 are 5..7.
_DREQ_PIO0_RX0 = const(4)
_PIO0_MACHINES = const(4)  # rp2.StateMachine ids 0..3 are PIO0's
# 2.5.7 CH0_CTRL_TRIG: DATA_SIZE 2 is a 32-bit word; RING_SIZE 4 wraps the write
# address at 1 << 4 = 16 bytes (the ring's four words), RING_SEL 1 applies it to writes.
_DATA_SIZE_WORD = const(2)
_RING_SIZE_BITS = const(4)


def dma_ctrl(channel, machine_id):
    """The CTRL value of the channel that copies the timer for state machine ``machine_id``."""
    return channel.pack_ctrl(
        size=_DATA_SIZE_WORD,
        inc_read=False,
        inc_write=True,
        ring_size=_RING_SIZE_BITS,
        ring_sel=True,
        treq_sel=_DREQ_PIO0_RX0 + machine_id,
        irq_quiet=True,
    )


def build(pins, machine_ids, quiet_ms):
    """The ``LeverCapture`` of ``pins`` (the levers' ``machine.Pin``), one PIO0 state machine
    of ``machine_ids`` each, quiet for ``quiet_ms`` before re-arming."""
    if len(machine_ids) != len(pins):
        raise ValueError("one state machine per lever: %d levers, %r" % (len(pins), machine_ids))
    count = quiet_count(quiet_ms)
    machines = []
    channels = []
    rings = []
    index = 0
    while index < len(pins):
        machine_id = machine_ids[index]
        if not 0 <= machine_id < _PIO0_MACHINES:
            raise ValueError("lever capture: state machine %r is not PIO0's" % (machine_id,))
        ring = array("H", [0] * (2 * RING_WORDS))
        pin = pins[index]
        state_machine = rp2.StateMachine(
            machine_id, lever_program, freq=FREQ_HZ, in_base=pin, jmp_pin=pin
        )
        state_machine.put(count)
        channel = rp2.DMA()
        channel.config(
            read=TIMERAWL,
            write=ring,
            count=TRANSFERS,
            ctrl=dma_ctrl(channel, machine_id),
        )
        if channel.write % (4 * RING_WORDS):  # the ring wraps on the address's low bits
            raise ValueError("lever capture: the stamp ring is not on a 16-byte boundary")
        channel.config(trigger=True)
        machines.append(state_machine)
        channels.append(channel)
        rings.append(ring)
        index += 1
    for state_machine in machines:
        state_machine.active(1)
    return LeverCapture(machines, channels, rings)
