"""The latency check of ``make selftest``: how late the levers' edge handler stamps an edge.

A jumper wire joins each lever's input to a spare output of the board
(``LATENCY_PROBE_PINS``, boards/*.py). The check drives that output
open-drain: pulled low, it closes the lever's line as the lever's contact
does; let go, it floats and the lever's pull-up holds the line high, so a
lever pressed meanwhile shorts nothing (a push-pull output driving high into
a closed contact would).

From a seed the check plans ``PRESSES`` closes, the levers in turn. For each,
the main loop starts, 5 to 40 ms later, the work the clock does in play at a
press: a journal entry programmed into a ring prepared before the check
(``RING_FILE``, through ``hal.journal_setup`` and ``hal.journal_store`` as
the clock's own ring: page programs, no erase), then a frame to each
display; between closes it sends both displays a frame every tick (20 ms),
as in play. A one-shot timer pulls the probe low 0 to 5 ms after that work
starts: inside it, where a chip can hold an edge back. The lever's handler
(``hal.edges.EdgeRing``, built as at boot by ``hal.board_io``) stamps the
edge; the stamp less the tick the timer was set for is the stamping error.
The timer's interrupt is held back by what holds the pin's back (interrupts
off on the rp2, a C call on the esp32, whose handlers are soft), so a timer
held back closes the lever as late as a lever closed at that instant would
be stamped; a timer late for anything else adds to the error: the check can
report more than the truth, never less. Then the probe lets go, and the next
close waits until the lever is re-armed.

``figures()``: the closes stamped, the worst and the median error in ms, the
closes never stamped within ``TIMEOUT_MS`` (a jumper missing: the check
stops after ``_GIVE_UP`` in a row), the journal entries and frames sent.
Integer milliseconds, ``ticks_diff`` only. Loaded by the self-test alone,
never at boot: nothing of it is on the clock's heap. ``main(board_name)``
runs it on a board (``make selftest``); ``sim.latency_check`` on the
simulated board, its jumpers and its chip's latencies.
"""

from array import array

from micropython import const

from firmware.tickmath import ticks_add, ticks_diff
from hal.tick_source import ticks_ms

LEVERS = ("lever_left", "lever_right")  # firmware.input_codes: inputs 0 and 1
RING_FILE = "latency.jr"  # the check's own journal ring, removed after it
RING_BLOCKS = const(6)  # 270 entries, one a close
PRESSES = const(200)
SEED = const(20)
TIMEOUT_MS = const(1000)  # a close not stamped by then is missed
BOUND_MS = const(3)  # the worst stamping error the clock allows (a page program at its maximum)
_NONCE = const(0x1A7E)  # the check's ring's marker (hal.journal_setup)
_ENTRY = const(68)  # firmware.journal.RECORD_SIZE
_TICK_MS = const(20)
_DELAY_MS = const(5)  # the work starts 5 ms ...
_DELAY_SPAN = const(36)  # ... to 40 ms after the close is planned
_OFFSET_SPAN = const(6)  # the probe closes 0 to 5 ms after the work starts
_GIVE_UP = const(3)  # closes in a row never stamped: no jumper
_PLAN = const(0)
_WAIT = const(1)
_SETTLE = const(2)
_FRAMES = (b"\x3f\x06\x5b\x4f\x00", b"\x66\x6d\x7d\x07\x01")  # "0123", "4567:": they differ


def plan(seed, count):
    """``(delays, offsets)`` of ``count`` closes from ``seed``: a xorshift32 of our own,
    the same on every interpreter (MicroPython's ``random`` is not CPython's)."""
    delays = bytearray(count)
    offsets = bytearray(count)
    state = (seed & 0xFFFFFFFF) or 1
    for index in range(count):
        state ^= (state << 13) & 0xFFFFFFFF
        state ^= state >> 17
        state ^= (state << 5) & 0xFFFFFFFF
        delays[index] = _DELAY_MS + state % _DELAY_SPAN
        offsets[index] = (state >> 8) % _OFFSET_SPAN
    return delays, offsets


class LatencyCheck:
    """Closes the levers of ``inputs`` (an ``EdgeRing``, levers first) through ``probes``
    (open-drain pins, one a lever) from ``timer`` (a ``timer_class``), while the main
    loop (``step``) sends frames to ``displays`` and programs entries through
    ``journal`` (a ``JournalStore``; None: no entries)."""

    def __init__(
        self, inputs, probes, timer, timer_class, displays, journal, seed=SEED, presses=PRESSES
    ):
        self.inputs = inputs
        self.probes = probes
        self.timer = timer
        self.one_shot = timer_class.ONE_SHOT
        self.displays = displays
        self.journal = journal
        self.delays, self.offsets = plan(seed, presses)
        self.presses = presses
        self.errors = array("i", [0] * presses)  # ms, of the closes stamped
        self.stamped = 0
        self.missed = 0
        self.missed_in_row = 0
        self.index = 0  # the close under way
        self.state = _PLAN
        self.lever = 0
        self.probe = probes[0]
        self.work_at = 0
        self.planned = 0  # the tick the timer closes the lever at
        self.worked = False
        self.frame_at = None
        self.frame = 0
        self.frames = 0
        self.entries = 0
        self.entry = bytearray(_ENTRY)
        self.handler = self.on_due  # bound once: the timer's handler allocates nothing
        self.hard = _takes_hard(timer, self.one_shot)

    def on_due(self, timer):
        """Timer handler: close the planned lever through its probe."""
        self.probe.value(0)

    def done(self):
        """Whether every close was made, or the check gave up (no edge: no jumper)."""
        return self.index >= self.presses or self.missed_in_row >= _GIVE_UP

    def step(self, now):
        """One pass of the check's main loop at tick ``now``."""
        state = self.state
        if state == _PLAN:
            self.begin()
        elif state == _WAIT:
            if not self.worked and ticks_diff(now, self.work_at) >= 0:
                self.worked = True
                self.write_entry()
                self.show()
            self.collect(now)
        else:
            self.settle(now)
        if self.frame_at is None or ticks_diff(now, self.frame_at) >= 0:
            self.frame_at = ticks_add(now, _TICK_MS)
            self.show()

    def begin(self):
        """Plan the next close: the work in ``delay`` ms, the lever ``offset`` ms after."""
        index = self.index
        lever = index % len(self.probes)
        self.lever = lever
        self.probe = self.probes[lever]
        delay = self.delays[index]
        due = delay + self.offsets[index]
        self.worked = False
        self.state = _WAIT
        now = ticks_ms()  # read last: the timer counts from here
        self.work_at = ticks_add(now, delay)
        self.planned = ticks_add(now, due)
        if self.hard:
            self.timer.init(mode=self.one_shot, period=due, callback=self.handler, hard=True)
        else:
            self.timer.init(mode=self.one_shot, period=due, callback=self.handler)

    def write_entry(self):
        """One journal entry, programmed into the check's ring (none once it is full:
        the slots would erase)."""
        journal = self.journal
        if journal is None or (journal.ring.capacity and journal.ring.is_full()):
            return
        self.entries += 1
        entry = self.entry
        entry[0] = self.entries & 0xFF
        entry[1] = self.entries >> 8
        journal.write_record(entry, self.entries)

    def show(self):
        """A frame to each display, another than the last (an equal one is not sent)."""
        frame = _FRAMES[self.frame]
        self.frame ^= 1
        for display in self.displays:
            display.show_frame(frame)
        self.frames += 1

    def collect(self, now):
        """Take the planned lever's stamp; after ``TIMEOUT_MS`` without one, a miss."""
        inputs = self.inputs
        while inputs.pending():
            source = inputs.pop()
            if source == self.lever and self.state == _WAIT:
                self.errors[self.stamped] = ticks_diff(inputs.popped_tick(), self.planned)
                self.stamped += 1
                self.missed_in_row = 0
                self.release()
        if self.state == _WAIT and ticks_diff(now, self.planned) > TIMEOUT_MS:
            self.timer.deinit()
            self.missed += 1
            self.missed_in_row += 1
            self.release()

    def release(self):
        """Let the probe go (and stop its timer: a lever pressed by hand came first)."""
        self.timer.deinit()
        self.probe.value(1)
        self.state = _SETTLE

    def settle(self, now):
        """Once the lever is open and quiet again (re-armed), on to the next close."""
        inputs = self.inputs
        inputs.rearm(now)
        while inputs.pending():
            inputs.pop()  # nothing else closes a lever here; a key pressed is let be
        if not inputs.settling():
            self.index += 1
            self.state = _PLAN

    def figures(self):
        """What the check measured (errors in ms; None when nothing was stamped)."""
        count = self.stamped
        ordered = sorted(self.errors[:count])
        errors = 0
        for display in self.displays:
            errors += display.errors
        return {
            "closes": self.index,
            "stamped": count,
            "missed": self.missed,
            "worst_ms": ordered[-1] if count else None,
            "median_ms": ordered[(count - 1) // 2] if count else None,
            "earliest_ms": ordered[0] if count else None,  # below 0: a lever pressed by hand
            "journal_entries": self.entries,
            "frames": self.frames,
            "display_errors": errors,
        }


def _takes_hard(timer, one_shot):
    """Whether ``timer`` runs its handler in the interrupt (``hard=True``): asked once,
    so that no close raises (and allocates) a TypeError on a port without it."""
    try:
        timer.init(mode=one_shot, period=TIMEOUT_MS, callback=_nothing, hard=True)
    except TypeError:
        return False
    finally:
        timer.deinit()
    return True


def _nothing(timer):
    pass


def prepare_journal(storage, blocks, whole_pages=True):
    """The check's journal on ``storage``: a ring of ``blocks`` blocks under ``RING_FILE``,
    prepared now as the clock prepares its own (littlefs erases each block as it is
    added). ``blocks`` 0: the journal's littlefs slot files instead, which erase as
    they fill (what the ring keeps out of play; the tests' fault). ``whole_pages``:
    each entry programmed as its page (the rp2), or its bytes alone (the esp32's
    ``JOURNAL_WHOLE_PAGES``), as the clock programs them."""
    from hal import journal_setup
    from hal.journal_store import JournalStore

    storage.remove(RING_FILE)
    journal = JournalStore(storage, blocks, whole_pages)
    if not blocks:
        journal.open_slots(None)
        return journal
    files = storage.files
    path = storage.path(RING_FILE)
    for index in range(blocks):
        journal_setup.add_block(files, path, index, _NONCE)
    found = journal_setup.locate(files, path)
    if found is None:
        raise OSError("the check's journal ring is not found on the flash")
    journal.ring.take(*found)
    return journal


def setup(board, files, flash_root=None, seed=SEED, presses=PRESSES, ring_blocks=RING_BLOCKS):
    """``(check, hardware)``: ``board``'s hardware built as at boot (``hal.board_io``,
    its storage on ``files``), the probes let go, the check's journal ring prepared,
    the lever interrupts on."""
    import machine

    from hal import board_io

    if not isinstance(getattr(board, "LATENCY_PROBE_PINS", None), dict):
        raise ValueError("board %s names no LATENCY_PROBE_PINS (boards/*.py)" % board.NAME)
    hardware = board_io.build(board, files, flash_root)
    probes = []
    for name in LEVERS:
        pin = board.LATENCY_PROBE_PINS[name]
        probes.append(machine.Pin(pin, machine.Pin.OPEN_DRAIN, value=1))
    whole_pages = getattr(board, "JOURNAL_WHOLE_PAGES", True)
    journal = prepare_journal(hardware.storage, ring_blocks, whole_pages)
    hardware.inputs.enable(machine.Pin)
    check = LatencyCheck(
        hardware.inputs,
        probes,
        machine.Timer(board.TIMER_ID),
        machine.Timer,
        hardware.displays,
        journal,
        seed,
        presses,
    )
    return check, hardware


def finish(check, hardware):
    """Timer and interrupts off, the probes let go, the check's ring removed."""
    check.timer.deinit()
    for probe in check.probes:
        probe.value(1)
    hardware.stop()
    hardware.storage.remove(RING_FILE)


def storage_path(hardware):
    """The check's ring file on the board's flash."""
    return hardware.storage.path(RING_FILE)


def pin_name(board, pin):
    """``pin`` as the board's header labels it: GP14 on a Pico, GPIO32 on an ESP32."""
    return ("GP%d" if board.CHIP.startswith("rp2040") else "GPIO%d") % pin


def report(board, figures, where):
    """The check's line: ``latency check on WHERE: ...``, and a verdict; with the
    jumpers to fit when no edge came."""
    if not figures["stamped"]:
        wires = []
        for name in LEVERS:
            wires.append(
                "%s to %s"
                % (
                    pin_name(board, board.LATENCY_PROBE_PINS[name]),
                    pin_name(board, board.INPUTS[name]),
                )
            )
        return "latency check on %s: no edge came: fit the jumpers %s (docs/boards.md)" % (
            where,
            " and ".join(wires),
        )
    if verdict_ok(figures):
        verdict = "ok"
    elif figures["earliest_ms"] < 0:
        verdict = "a lever was pressed during the check"
    else:
        verdict = "over the bound"
    return (
        "latency check on %s: %d closes stamped, worst %d ms, median %d ms, %d missed; "
        "%d journal entries, %d frames, %d display errors: %s (bound %d ms)"
        % (
            where,
            figures["stamped"],
            figures["worst_ms"],
            figures["median_ms"],
            figures["missed"],
            figures["journal_entries"],
            figures["frames"],
            figures["display_errors"],
            verdict,
            BOUND_MS,
        )
    )


def verdict_ok(figures):
    """Every close stamped, none later than ``BOUND_MS``."""
    return (
        figures["stamped"] > 0
        and figures["missed"] == 0
        and figures["worst_ms"] <= BOUND_MS
        and figures["earliest_ms"] >= 0
    )


def main(board_name, seed=SEED, presses=PRESSES):
    """Run the check on this board (``make selftest``); 0 if it is within the bound,
    1 if not, 2 if no edge came (no jumpers)."""
    import boards
    from hal.storage import Files

    board = boards.load(board_name)
    files = Files()
    check, hardware = setup(board, files, None, seed, presses)
    erased = None
    try:
        while not check.done():
            check.step(ticks_ms())
        if hardware.inputs.chip_capture() is not None and check.figures()["stamped"]:
            from hal import erase_check  # the PIO's stamp inside an erase

            erased = erase_check.close_in_erase(board, files, hardware, storage_path(hardware))
    finally:
        finish(check, hardware)
    figures = check.figures()
    print(report(board, figures, board_name))
    if not figures["stamped"]:
        return 2
    passed = True
    if erased is not None:
        line, passed = erased
        print(line)
    return 0 if verdict_ok(figures) and passed else 1
