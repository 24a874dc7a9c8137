"""The capture proved on the board: a lever closed inside a flash erase, its stamp's error.

Part of ``make selftest LATENCY=1`` on an RP2040 board whose levers the PIO
stamps (``hal.capture``). The CPU cannot close a lever during an erase (its
interrupts are off, its code is in the flash being erased), so a second
PIO0 state machine does: ``probe_program`` counts down a delay put in its TX
FIFO, one microsecond a turn at 1 MHz, then drives the probe output low (the
latency check's jumper from ``LATENCY_PROBE_PINS`` to the lever). The CPU
reads the timer, puts the delay and at once erases a block of the check's
own journal ring (``rp2.Flash().ioctl(6, block)``, removed after the
check): the probe closes the lever inside the erase. When the erase
returns, the lever's handler takes the capture's stamp; its error is that
stamp less the instant the probe was set to close (both read from the same
1 MHz timer, so the error is in microseconds). A capture that missed the
close, or a stamp later than ``BOUND_US``, fails the self-test.
"""

# ruff: noqa: F821  (rp2.asm_pio supplies the instruction names while it assembles)

import rp2
from micropython import const

from firmware.tickmath import ticks_diff
from hal.tick_source import ticks_ms

PROBE_MACHINE = const(3)  # PIO0's fourth: the levers and play have 0, 1 and 2
FREQ_HZ = const(1_000_000)
DELAY_US = const(10_000)  # the close, 10 ms into the erase (45 ms typical, 400 ms at most)
BOUND_US = const(50)  # the stamp's error the check allows (the PIO: about 1 us)
# From the put to the close: ``pull`` (1 cycle), ``mov`` (1), DELAY_US + 1 turns of
# ``jmp(x_dec)`` (1 each), then ``set(pindirs, 1)``: DELAY_US + 3 cycles (datasheet 3.4.2).
_OVERHEAD_CYCLES = const(3)
_MASK30 = const(0x3FFFFFFF)
_HALF30 = const(0x20000000)
_SETTLE_MS = const(100)


# set_init: one SET pin, an input at first (the line floats high through the lever's
# pull-up); without it MicroPython gives the machine no SET pin (ports/rp2/rp2_pio.c,
# asm_pio_get_pins) and ``set(pindirs, 1)`` would drive nothing.
@rp2.asm_pio(set_init=rp2.PIO.IN_HIGH)
def probe_program():
    set(pins, 0)
    pull(block)
    mov(x, osr)
    label("wait")
    jmp(x_dec, "wait")
    set(pindirs, 1)
    label("hold")
    jmp("hold")


def _busy_wait(ms):
    start = ticks_ms()
    while ticks_diff(ticks_ms(), start) < ms:
        pass


def run(inputs, lever, probe, device, block, wait=_busy_wait):
    """Close lever ``lever`` (an input of ``inputs``, an ``EdgeRing`` with its capture)
    through ``probe`` (its jumpered output, ``machine.Pin``) 10 ms into an erase of
    ``block`` of ``device``; the figures: the erase's length, the stamp's error in us
    (None: no stamp), the capture's faults. ``wait(ms)`` lets time pass (the board
    waits in a loop; the simulator moves its virtual time)."""
    capture = inputs.chip_capture()
    state_machine = rp2.StateMachine(PROBE_MACHINE, probe_program, freq=FREQ_HZ, set_base=probe)
    state_machine.active(1)
    wait(_SETTLE_MS)  # the lever open and quiet: its machine armed
    while inputs.pop() >= 0:
        pass
    taken = capture.taken[lever]
    capture.read_now()
    now = capture.now
    set_at = ((((now[2] & 0x3FFF) << 16) | now[3]) + DELAY_US + _OVERHEAD_CYCLES) & _MASK30
    before = ticks_ms()
    state_machine.put(DELAY_US)
    device.ioctl(6, block)  # the interrupts off until it returns
    erase_ms = ticks_diff(ticks_ms(), before)
    wait(_SETTLE_MS)
    state_machine.active(0)
    error_us = None
    if capture.taken[lever] > taken:
        error_us = ((capture.last_stamp - set_at + _HALF30) & _MASK30) - _HALF30
    return {"erase_ms": erase_ms, "error_us": error_us, "faults": capture.faults}


def close_in_erase(board, files, hardware, ring_path):
    """The left lever closed inside an erase of the last block of the latency check's ring
    (``ring_path``, removed after the check); its line and whether it passes. The
    probe is an open-drain output again after it."""
    import machine

    from hal import journal_setup

    found = journal_setup.locate(files, ring_path)
    if found is None:
        return "erase check on %s: the check's ring is not found" % board.NAME, False
    device, blocks, _ = found
    pin_id = board.LATENCY_PROBE_PINS["lever_left"]
    try:
        figures = run(hardware.inputs, 0, machine.Pin(pin_id), device, blocks[-1])
    finally:
        machine.Pin(pin_id, machine.Pin.OPEN_DRAIN, value=1)
    return report(figures, board.NAME)


def report(figures, where):
    """The check's line and whether it passes."""
    error = figures["error_us"]
    if error is None:
        return "erase check on %s: the lever closed inside an erase was not stamped" % where, False
    passed = 0 <= error <= BOUND_US and not figures["faults"]
    return (
        "erase check on %s: a close %d ms into a %d ms erase stamped %d us late, %d faults: %s"
        " (bound %d us)"
        % (
            where,
            DELAY_US // 1000,
            figures["erase_ms"],
            error,
            figures["faults"],
            "ok" if passed else "over the bound",
            BOUND_US,
        ),
        passed,
    )
