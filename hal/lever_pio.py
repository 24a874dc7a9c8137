"""The capture's PIO program: one state machine per input (a lever, play) marks its first edge.

Written with ``rp2.asm_pio`` (MicroPython's PIO assembler; the simulator's
``sim.rp2`` assembles the same source by the same rules). The state machine
runs from PIO0's own instruction memory, so a flash erase that holds the CPU
does not hold it (docs/power.md, "What a chip can delay"):

- at start it takes its quiet count from the TX FIFO into Y (``pull``,
  ``mov``), once;
- ``released``: it waits for the contact to be open (the pin high: contacts
  close to ground), then counts Y down, two cycles a turn, while the pin
  stays high; a low pin (bounce) sends it back to wait for open;
- the count run out (``QUIET_CYCLES`` of an open contact), it is armed: it
  waits for the pin to go low, the contact's first closing edge, and pushes
  the word 1 into its RX FIFO (``set``, ``mov``, ``push``: 2 us after the
  edge). That push is the request of the input's reader DMA channel
  (``hal.capture``), which takes the word from the FIFO and writes it into
  the copier channel's ``TRANS_COUNT`` trigger: one transfer, the 1 MHz
  timer into SRAM, in the next few cycles. Then it wraps to ``released``.

A contact closed when the machine starts is not a press: it must first be
open and quiet, as ``hal.edges`` treats a lever held at boot. Only the first
edge of a press is stamped; the bounce of make and of break is ignored; a
press held for seconds (across any erase) is one push. Eleven instructions
of PIO0's 32, shared by the state machines that run it.
"""

# ruff: noqa: F821  (rp2.asm_pio supplies the instruction names while it assembles)

import rp2
from micropython import const

# The state machine's clock: 1 MHz, one cycle a microsecond (48 MHz / 48; the
# divider is exact at the boards' CPU clock, boards/pico.py CPU_FREQ_HZ). A closing
# edge is seen by ``wait`` in the cycle after the input synchroniser's two system
# clocks (RP2040 datasheet 3.5.6.3); ``set`` and ``mov`` take a cycle each, so the push
# follows the edge by about 3 us (PUSH_DELAY_US); the DMA's copy follows the push
# within a few system clocks.
FREQ_HZ = const(1_000_000)
# The quiet wait, in cycles after the one in which ``wait(1, ...)`` finds the contact
# open: ``mov`` (1), then count + 1 turns of the two-instruction loop (``jmp(pin)``
# samples the pin, ``jmp(x_dec)`` jumps while X is not zero, then decrements it; RP2040
# datasheet 3.4.2): the last sample is 2 * count + 2 cycles after, and ``wait(0, ...)``,
# which reads the level, runs at 2 * count + 4. A close from 2 * count + 3 on is a press.
_OVERHEAD_CYCLES = const(3)
PUSH_DELAY_US = const(3)  # the cycles from the edge's ``wait`` to the ``push``, at 1 MHz


def quiet_count(quiet_ms, freq_hz=FREQ_HZ):
    """The value the state machine counts down for ``quiet_ms`` of open contact."""
    cycles = quiet_ms * (freq_hz // 1000)
    if cycles < _OVERHEAD_CYCLES + 2:
        raise ValueError("quiet time %d ms too short at %d Hz" % (quiet_ms, freq_hz))
    return (cycles - _OVERHEAD_CYCLES) // 2


def quiet_cycles(count):
    """How many cycles after the contact is found open a close is a press (``count`` in Y);
    a close before is bounce, and the machine waits for open again."""
    return 2 * count + _OVERHEAD_CYCLES


@rp2.asm_pio()
def lever_program():
    pull(block)
    mov(y, osr)
    wrap_target()
    label("released")
    wait(1, pin, 0)
    mov(x, y)
    label("quiet")
    jmp(pin, "open")
    jmp("released")
    label("open")
    jmp(x_dec, "quiet")
    wait(0, pin, 0)
    set(x, 1)  # the word pushed is the copier's transfer count (hal.capture): one stamp
    mov(isr, x)
    push(block)
    wrap()
