"""The latency check of ``make selftest`` on the simulated board: jumpers, chip, virtual time.

``python -m sim latency [--mpy] [--presses=N] [--seed=N] [--no-ring] [BOARD...] [LEVEL...]``
runs ``hal.latency_check`` (the board's own check, unchanged) on the simulated
``machine``: the board's hardware built as at boot, a wire from each probe
output to its lever's input (``sim.machine.jumper``), and the chip's latency
model (``sim.latency.ChipLatency``) at its datasheets' ``typical`` or ``max``
figures, or ``ideal`` (no model). The model times the check's journal programs
and display frames; a probe's edge inside a call that holds the chip's pin
interrupt back is served when the call ends, once, reading the line's level
then (as ``sim.world.SimBoard`` serves the contacts). Time moves a millisecond
at a time: the timers that are due fire, then the check's main loop runs a
pass unless it is still inside a call. The hall link does not run during the
check (nor during ``make selftest``). ``--no-ring``: the journal's littlefs
slot files instead of its ring, which erase in play (the fault the ring keeps
out). Without boards, every board of ``make selftest``; without levels, both.

Runs on CPython and inside MicroPython (``node tools/mpy/run.mjs
sim.latency_check ARG...``), with the same lines.
"""

import sys

import boards
from hal import board_check, latency_check
from sim import flash as sim_flash
from sim import ht16k33, vclock
from sim import machine as sim_machine
from sim.latency import LEVELS, ChipLatency
from sim.world import chip_captures, fresh_flash, install_machine, remove_flash

BOARDS = board_check.board_names()
IDEAL = "ideal"


class Jumpers:
    """The wires from the probes to the levers, through the chip: an edge inside a call
    that holds the pin's interrupt back is served once, when the call ends."""

    def __init__(self, model):
        self.model = model
        self.latched = {}  # input pin id: the instant its held-back interrupt is served

    def wire(self, pin_id, level):
        """A probe moved: its lever's line follows now; its handler now or later."""
        now = vclock.now_ms()
        model = self.model
        stamp = now if model is None else model.stamp_ms(now)
        if stamp == now:
            sim_machine.drive(pin_id, level)
        elif sim_machine.latch(pin_id, level) and pin_id not in self.latched:
            self.latched[pin_id] = stamp

    def serve(self, now):
        """Serve the held-back interrupts whose call has ended by ``now``."""
        for pin_id in list(self.latched):
            if self.latched[pin_id] > now:
                continue
            stamp = self.model.stamp_ms(now)
            if stamp > now:  # another call that holds it back follows
                self.latched[pin_id] = stamp
                continue
            del self.latched[pin_id]
            sim_machine.raise_irq(pin_id)


def _always():
    return True


def run(
    board_name="pico",
    level="typical",
    seed=latency_check.SEED,
    presses=latency_check.PRESSES,
    ring=True,
    jumpered=True,
):
    """The check's figures on the simulated ``board_name`` at ``level`` ("typical",
    "max", or None: an ideal board), with the model's counts (erases, programs,
    frames, the longest call)."""
    board = boards.load(board_name)
    vclock.reset()
    vclock.install()
    install_machine(chip_captures(board))  # the board's chip: its PIO if it stamps the levers
    sim_machine.reset()
    sim_machine.set_clock(vclock.now_ms)
    chips = (ht16k33.HT16K33(), ht16k33.HT16K33())
    sim_machine.attach_i2c(board.I2C_ID, board.DISPLAY_LEFT, chips[0])
    sim_machine.attach_i2c(board.I2C_ID, board.DISPLAY_RIGHT, chips[1])
    model = None if level is None else ChipLatency(board, level)
    jumpers = Jumpers(model)
    if jumpered:
        for name in latency_check.LEVERS:
            sim_machine.jumper(board.LATENCY_PROBE_PINS[name], board.INPUTS[name], jumpers.wire)
    ring_blocks = latency_check.RING_BLOCKS if ring else 0
    flash = sim_flash.Flash(ring_blocks + 8 if ring_blocks else 0)
    if ring_blocks:  # rp2.Flash programs whole pages at an offset, esp32.Partition any bytes
        flash.device.whole_pages = getattr(board, "JOURNAL_WHOLE_PAGES", True)
    flash.latency = model
    if model is not None:  # what littlefs's compactions program again
        model.live_files = flash.live_files
    sim_machine.set_latency(model)
    root = fresh_flash()
    try:
        if model is not None:
            model.begin_pass(0)
        check, hardware = latency_check.setup(board, flash, root, seed, presses, ring_blocks)
        if model is not None:
            model.in_play = _always  # from here on the check stands for a game in play
        now = 0
        while not check.done():
            vclock.set_now(now)
            if model is not None:
                jumpers.serve(now)
            if model is None or model.held_until_ms(now) == now:
                # a call that holds the pin handlers back holds the timer's too: the
                # probe closes when it ends, and the lever sees the close then
                for timer in sim_machine.timers():
                    if timer.next_due is not None and timer.next_due <= now:
                        timer.next_due = now + timer.period_ms
                        timer.fire()
            if model is None or model.busy_until_ms() <= now:
                if model is not None:
                    model.begin_pass(now)
                check.step(vclock.ticks_ms())
            for timer in sim_machine.timers():
                if timer.next_due is None:
                    timer.next_due = now + timer.period_ms
            now += 1
        figures = check.figures()
        latency_check.finish(check, hardware)
    finally:
        remove_flash(root)
        sim_machine.reset()
    if model is not None:
        counted = model.figures()
        for key in ("erases_in_play", "page_programs", "i2c_frames", "longest_c_call_in_play_ms"):
            figures[key] = counted[key]
    return figures


def handler_runs_locked(board_name="pico"):
    """Whether the check's timer handler (``on_due``: the probe pulled low) runs with the
    heap locked (inside MicroPython; True on CPython, which has no such lock): it
    allocates nothing, as an interrupt handler must."""
    import micropython

    lock = getattr(micropython, "heap_lock", None)
    board = boards.load(board_name)
    vclock.reset()
    vclock.install()
    install_machine(chip_captures(board))
    sim_machine.reset()
    root = fresh_flash()
    try:
        check, hardware = latency_check.setup(board, sim_flash.Flash(), root, ring_blocks=0)
        check.begin()
        if lock is None:
            check.on_due(None)
            return True
        lock()
        try:
            check.on_due(None)
        except MemoryError:
            return False
        finally:
            micropython.heap_unlock()
        return sim_machine.pin_level(board.LATENCY_PROBE_PINS["lever_left"]) == 0
    finally:
        remove_flash(root)
        sim_machine.reset()


def describe(board_name, level, figures):
    """The check's line for the simulated board, and the model's counts."""
    board = boards.load(board_name)
    where = "the simulated %s (%s)" % (board_name, level or IDEAL)
    line = latency_check.report(board, figures, where)
    if "erases_in_play" in figures:
        line += "; %d erases in play, %d page programs and %d I2C frames in all" % (
            figures["erases_in_play"],
            figures["page_programs"],
            figures["i2c_frames"],
        )
    return line


def main(argv):
    """``[--presses=N] [--seed=N] [--no-ring] [BOARD...] [LEVEL...]``: print a line a
    board and level; 0 if every check is within the bound, 1 if not, 2 for bad arguments."""
    names = []
    levels = []
    presses = latency_check.PRESSES
    seed = latency_check.SEED
    ring = True
    for word in argv:
        if word.startswith("--presses="):
            presses = int(word[len("--presses=") :])
        elif word.startswith("--seed="):
            seed = int(word[len("--seed=") :])
        elif word == "--no-ring":
            ring = False
        elif word == "--handler-heap":
            print("timer handler with the heap locked: %s" % handler_runs_locked())
            return 0
        elif word in LEVELS or word == IDEAL:
            levels.append(word)
        else:
            try:
                board = boards.load(word)
            except ValueError as error:
                print("latency check: %s" % error)
                return 2
            if not hasattr(board, "LATENCY_PROBE_PINS"):
                print("latency check: board %s has no LATENCY_PROBE_PINS" % word)
                return 2
            names.append(word)
    if not 1 <= presses <= latency_check.RING_BLOCKS * 45:
        print("latency check: --presses must be 1 to %d" % (latency_check.RING_BLOCKS * 45))
        return 2
    status = 0
    for name in names or BOARDS:
        for level in levels or LEVELS:
            figures = run(name, None if level == IDEAL else level, seed, presses, ring)
            print(describe(name, None if level == IDEAL else level, figures))
            if not latency_check.verdict_ok(figures):
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
