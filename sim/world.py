"""The simulated board in its world: contacts that bounce, timers, displays, time.

``SimBoard`` boots the real firmware (``hal.boot.start``) on the `sim`
board definition with the simulator's `machine` module, then advances
virtual time event by event: contact transitions and timer ticks fire the
firmware's own interrupt handlers, and after each one the main loop runs a
pass, as it would on the board. Between passes the main loop sleeps (``hal.sleep``:
until the app's next step or an input), modelled as the port sleeps
(``sim.wakes``): the board wakes at the sleep's timeout, or at an interrupt that
left an input, and each wake is counted. With ``rests=False`` the app never rests
and every tick runs a step, the reference the resting is checked against.

With ``latency`` ("typical" or "max") the board is its chip, not an ideal
one: ``sim.latency.ChipLatency`` times the flash writes, I2C frames,
collections and socket calls of each pass; the edges of a line that fall
in a call that holds the chip's handler back are served by one call of the
handler when it ends, which reads the line's level then (a press released
meanwhile is lost, as on the chip). Without it (clock scripts, unless
asked) every edge is served at its instant. A pass an edge wakes from the
main loop's sleep on a chip board runs at the edge and starts with the
contact's chatter and the wake's cost (``ChipLatency.input_wake``): its step
reads the chip's clock after them, as the Pico's does.
"""

import os
import sys

from firmware.tickmath import ticks_add
from sim import flash as sim_flash
from sim import ht16k33, vclock
from sim import machine as sim_machine

_LATCHED = -2  # a pending entry's level: a held-back interrupt served at its time
_TURNS_AT_ONCE = 8  # a loop with work left after this many steps at one instant waits
PRESS_CONTACT_MS = 80  # how long a scripted press holds its lever's or key's contact closed
_flash_count = [0]


def fresh_flash(
    control_left=None, control_right=None, quickplay="off", edition="appendix-g", settings=None
):
    """An empty folder for the simulated flash; with controls, their settings file in it,
    with ``settings`` ({name: value}, e.g. ``tenths``) beside them."""
    try:
        import tempfile

        path = tempfile.mkdtemp(prefix="clockflash-")
    except ImportError:  # MicroPython
        _flash_count[0] += 1
        path = "/tmp/clockflash-%d" % _flash_count[0]
        for folder in ("/tmp", path):
            try:
                os.mkdir(folder)
            except OSError:
                pass
        remove_flash(path, keep_folder=True)
    if control_left is not None:
        from firmware import files
        from hal.storage import Files, Storage

        data = {
            "control_left": control_left,
            "control_right": control_right or control_left,
            "quickplay": quickplay,
            "edition": edition,
        }
        data.update(settings or {})
        Storage(path, Files()).write_json(files.SETTINGS, data)
    return path


def remove_flash(path, keep_folder=False):
    """Delete the simulated flash folder and its files (its block device too)."""
    sim_flash.forget(path)
    try:
        for name in os.listdir(path):
            os.remove(path + "/" + name)
        if not keep_folder:
            os.rmdir(path)
    except OSError:
        pass


def install_machine(capture=False):
    """The simulated chip as ``import machine`` (and ``import rp2``, with ``capture``: a
    fresh PIO and DMA) finds it; without ``capture`` no ``rp2`` module is left behind."""
    sys.modules["machine"] = sim_machine
    if capture:  # the chip's PIO and DMA, for hal.capture
        from sim import rp2 as sim_rp2

        sim_rp2.reset()
        sim_rp2.PROBES.schedule = None
        sys.modules["rp2"] = sim_rp2
    elif "rp2" in sys.modules:
        del sys.modules["rp2"]


def chip_captures(board):
    """Whether ``board``'s levers and play key are stamped by its chip (``PIO_LEVER_CAPTURE`` in
    boards/chips/, and the board names the state machines)."""
    if not getattr(board, "CAPTURE_MACHINES", None):
        return False
    try:
        chip = __import__("boards.chips." + board.CHIP, None, None, ("CHIP",))
    except ImportError:
        return False
    return bool(getattr(chip, "PIO_LEVER_CAPTURE", False))


class SimBoard:
    """The `sim` board, its two displays and its contacts, in virtual time."""

    def __init__(
        self,
        flash_root,
        bounce_ms=3,
        near_wrap=False,
        board_name="sim",
        rests=True,
        latency=None,
        ring_blocks=None,
        flash=None,
        capture=None,
        wrap_at_ms=0,
    ):
        """``near_wrap``: the tick counters read 10 s before their wrap at virtual ms
        ``wrap_at_ms`` (the boot's instant, 0, unless a script starts later on a board
        that was made ready first: ``sim.ready``)."""
        import boards

        self.board = boards.load(board_name)
        if capture is None:  # the chip's own: its PIO stamps the levers and play (boards/chips/)
            capture = chip_captures(self.board)
        self.capture = capture
        # the lines the chip's capture stamps (inputs 0.., one a state machine: hal.edges)
        machines = len(getattr(self.board, "CAPTURE_MACHINES", None) or ()) if capture else 0
        self.captured_pins = tuple(self.board.INPUTS.values())[:machines]
        self.board_name = board_name
        self.flash_root = flash_root
        self.bounce_ms = bounce_ms
        self.near_wrap = near_wrap
        vclock.reset(near_wrap, wrap_at_ms)
        vclock.install()
        install_machine(self.capture)
        self._wire_probes()
        sim_machine.reset()
        self.chips = (ht16k33.HT16K33(), ht16k33.HT16K33())
        self._wire_displays()
        # The files in flash_root, with power cuts; the block device under them holds
        # the journal's ring, a ring set aside (Err3) and some room for littlefs's
        # allocator, and outlives the board as the flash does (a reset, a board booted
        # again on flash_root). ``flash``: another filesystem with the same interface
        # (sim.littlefs_flash, the real littlefs).
        ring = getattr(self.board, "JOURNAL_RING_BLOCKS", 0) if ring_blocks is None else ring_blocks
        self.ring_blocks = ring_blocks  # None: the board's ring; 0: the slot files alone
        if flash is None:  # a flash handed in brings its own geometry
            flash = sim_flash.Flash(2 * ring + 8 if ring else 0, flash_root)
            if ring:  # rp2.Flash programs whole pages at an offset, esp32.Partition any bytes
                flash.device.whole_pages = getattr(self.board, "JOURNAL_WHOLE_PAGES", True)
        self.flash = flash
        self.powered = True
        self.pending = []  # (time_ms, sequence, pin, level), sorted
        self.sequence = 0
        self.app = None
        self.runtime = None
        self.stepped_at = None  # virtual ms of the last main-loop pass
        self.rests = rests  # whether the app may rest (``App.rests``)
        self.latency = None  # the chip's latency model (sim.latency), or None: an ideal board
        self.latched = []  # pins whose interrupt the chip holds back until a call ends
        self.presses = None  # (virtual ms, contact, hold ms) of each press, once recorded
        self.in_pass = False  # the main loop runs a pass (its reads of the tick see its calls)
        if latency is not None:
            from sim import latency as latency_module

            model = latency_module.ChipLatency(self.board, latency)
            model.in_play = latency_module.running(self)
            model.in_game = latency_module.in_progress(self)
            self.latency = model
            self.flash.latency = model
            if hasattr(self.flash, "file_sizes"):  # littlefs's metadata as the boot finds it
                model.mounted(self.flash.file_sizes())
            if hasattr(self.flash, "live_files"):  # what a compaction programs again
                model.live_files = self.flash.live_files
            sim_machine.set_latency(model)
            # The main loop reads the chip's clock: past the calls its pass has made.
            from hal import tick_source

            tick_source.source = _ChipClock(self)

    # --- power -----------------------------------------------------------

    def boot(self):
        """Power on: run the firmware's entry point on this board."""
        from hal import boot, runtime

        self.runtime = runtime
        if self.latency is not None:
            self.latency.begin_pass(vclock.now_ms())
        # The tick a chip reads once its erase is over: the model's, with one.
        ticks = self._chip_ticks if self.latency is not None else None
        self.in_pass = True
        try:
            self.app = boot.start(
                self.board_name, self.flash_root, self.flash, self.ring_blocks, ticks
            )
            self.app.allow_rest(self.rests)
            for timer in sim_machine.timers():
                timer.next_due = vclock.now_ms() + timer.period_ms
            sleep = self.app.hardware.sleep
            sleep.watch_with(sim_machine.sleep_poll(self.chip_now_ms))
            self.app.step(vclock.ticks_ms())
            self.stepped_at = vclock.now_ms()
            sleep.wait(self.app)  # the main loop's first wait
        finally:
            self.in_pass = False
        return self.app

    def chip_now_ms(self):
        """The virtual ms the main loop reads: in a pass on a chip board, past the calls the
        pass has made so far (the model holds the loop without moving the virtual time);
        else now. A handler, which runs at its edge's instant, reads now."""
        now = vclock.now_ms()
        if not self.in_pass or self.latency is None:
            return now
        return max(now, self.latency.cursor_us // 1000)

    def _chip_ticks(self):
        """The tick counter as the chip reads it after the main loop's C calls so far:
        the model holds the loop without moving the virtual time, so a read after an
        erase (``hal.journal_store``'s next block counted from its end) adds the call."""
        held = self.latency.busy_until_ms() - vclock.now_ms()
        return ticks_add(vclock.ticks_ms(), held) if held > 0 else vclock.ticks_ms()

    def _wire_probes(self):
        """A PIO probe's close (the erase check's, ``sim.rp2``) is a contact event here."""
        if self.capture:
            from sim import rp2 as sim_rp2

            sim_rp2.PROBES.schedule = self._schedule

    def _wire_displays(self):
        sim_machine.attach_i2c(self.board.I2C_ID, self.board.DISPLAY_LEFT, self.chips[0])
        sim_machine.attach_i2c(self.board.I2C_ID, self.board.DISPLAY_RIGHT, self.chips[1])

    def power_off(self):
        """Cut the power now: no more ticks or main-loop passes, nothing more written to
        flash, the displays dark; contacts still move but nothing reads them."""
        self.powered = False
        self.flash.power_off()
        sim_machine.reset(keep_contacts=True)  # timers, handlers and the bus go; hands stay
        for chip in self.chips:
            chip.power_on()  # an unpowered HT16K33 loses its RAM: dark when it comes back
        self.app = None

    def power_on(self):
        """Restore the power: the firmware boots again from flash (``boot``), its tick
        counters starting over."""
        vclock.restart_ticks(self.near_wrap)
        install_machine(self.capture)
        self._wire_probes()
        self._wire_displays()
        sim_machine.set_latency(self.latency)
        self.flash.power_on()
        self.powered = True
        return self.boot()

    # --- contacts --------------------------------------------------------

    def pin_of(self, name):
        inputs = self.board.INPUTS
        if name not in inputs:
            raise ValueError("the board has no key %r" % name)
        return inputs[name]

    def record_presses(self):
        """Note every ``press`` from now on; the list they go to, each press as (virtual
        ms, contact, hold ms): the contacts a script's runner pressed, replayed elsewhere
        (the real port's lane, bench/port_script.py)."""
        self.presses = []
        return self.presses

    def press(self, name, hold_ms=PRESS_CONTACT_MS):
        """Close the contact ``name`` now, with bounce, and open it after ``hold_ms``."""
        pin = self.pin_of(name)
        closed = 0 if self.board.ACTIVE_LOW else 1
        start = vclock.now_ms()
        if self.presses is not None:
            self.presses.append((start, name, hold_ms))
        self._cancel(pin)
        self._chatter(pin, start, closed)
        self._chatter(pin, start + hold_ms, 1 - closed)
        self.run_due(start)

    def close_contact(self, name, at_ms):
        """Close the contact ``name`` at ``at_ms`` (not before now), with bounce; it stays
        closed until ``open_contact``. A press held for as long as someone holds it."""
        pin = self.pin_of(name)
        self._cancel(pin)
        self._chatter(pin, at_ms, 0 if self.board.ACTIVE_LOW else 1)

    def open_contact(self, name, at_ms):
        """Open the contact ``name`` at ``at_ms`` (not before now), with bounce."""
        self._chatter(self.pin_of(name), at_ms, 1 if self.board.ACTIVE_LOW else 0)

    def _chatter(self, pin, start, level):
        bounce = self.bounce_ms
        self._schedule(start, pin, level)
        step = 1
        while step < bounce:
            self._schedule(start + step, pin, level if step % 2 == 0 else 1 - level)
            step += 1
        if bounce > 0:
            self._schedule(start + bounce, pin, level)

    def _schedule(self, time_ms, pin, level):
        self.sequence += 1
        self._insert((time_ms, self.sequence, pin, level))

    def _insert(self, entry):
        pending = self.pending
        index = len(pending)
        while index > 0 and pending[index - 1][:2] > entry[:2]:
            index -= 1
        pending.insert(index, entry)

    def _cancel(self, pin):
        self.pending = [entry for entry in self.pending if entry[2] != pin or entry[3] == _LATCHED]

    # --- time ------------------------------------------------------------

    def run_due(self, until_ms):
        """Fire every contact transition and timer tick due up to ``until_ms``, in order."""
        waits = sim_machine.waits()
        if self.powered and self.app is not None and waits.sleeping():
            # what came between two calls (the hall link's turn, given by the caller,
            # a push or a message) comes before the loop's sleep on the board
            self.app.hardware.sleep.wait(self.app)
        while True:
            edge_pin = None  # the line whose edge this event is, if it is one
            timer = sim_machine.next_timer(vclock.now_ms())
            contact_at = self.pending[0][0] if self.pending else None
            timer_at = timer.next_due if timer is not None else None
            wake_at = waits.deadline() if self.powered else None
            if wake_at is not None:  # a loop held in a C call wakes at its end
                wake_at = self._held_until(max(wake_at, vclock.now_ms()))
                if (contact_at is not None and contact_at <= wake_at) or (
                    timer_at is not None and timer_at <= wake_at
                ):
                    wake_at = None  # an interrupt comes first
            if wake_at is not None and wake_at <= until_ms:
                vclock.set_now(wake_at)
            elif (
                contact_at is not None
                and contact_at <= until_ms
                and (timer_at is None or contact_at <= timer_at)
            ):
                entry = self.pending.pop(0)
                time_ms, _, pin, level = entry
                if self.latency is not None and self._held_back(entry):
                    continue
                vclock.set_now(time_ms)
                if level == _LATCHED:
                    self.latched.remove(pin)
                    sim_machine.raise_irq(pin)
                else:
                    sim_machine.drive(pin, level)
                    edge_pin = pin  # (a latched one is served as a held call ends)
            elif timer_at is not None and timer_at <= until_ms:
                held = self._held_until(timer_at)
                if held > timer_at:  # the main loop is in a C call: the tick waits for its end
                    following = timer_at + timer.period_ms
                    if self.latency.soft_handlers:  # its soft callback takes a scheduler slot
                        self.latency.schedule(timer_at)
                    if following >= held:  # the pass after the call: once the queue has run
                        following = max(held, self.latency.drained_ms())
                    timer.next_due = following
                    continue
                vclock.set_now(timer_at)
                timer.next_due = timer_at + timer.period_ms
                timer.fire()
            else:
                break
            now = vclock.now_ms()
            if self.powered and self._held_until(now) <= now:
                # an edge that ends the loop's sleep (its timeout at that instant too: the
                # edge's handlers run all the same) wakes it on a chip board at a cost
                asleep = self.latency is not None and waits.sleeping()
                if waits.interrupt(now):
                    self._turn(edge_pin if asleep else None)
        vclock.set_now(until_ms)

    def _settles_at(self, pin, now):
        """The virtual ms the chatter of ``pin``'s contact change at ``now`` ends: its last
        edge within the board's bounce (``now`` if it has none)."""
        settled = now
        for time_ms, _, other, level in self.pending:
            if time_ms > now + self.bounce_ms:
                break
            if other == pin and level != _LATCHED:
                settled = time_ms
        return settled

    def _turn(self, woken_by=None):
        """The main loop woke: a pass, again at once if it stepped, then its sleep.
        ``woken_by``: the pin whose edge ended the loop's sleep on a chip board, whose pass
        reads the chip's clock after the wake's cost (``ChipLatency.input_wake``)."""
        try:
            latency = self.latency
            if latency is not None:
                now = vclock.now_ms()
                latency.begin_pass(now)
                if woken_by is not None:
                    settle_us = (self._settles_at(woken_by, now) - now) * 1000
                    latency.input_wake(settle_us, woken_by in self.captured_pins)
            runtime = self.runtime
            app = self.app
            turns = 0
            self.in_pass = True
            try:
                # a turn that stepped is followed at once by the next, which sleeps unless
                # work is left (a loop with work left after so many waits for the next event)
                while turns < _TURNS_AT_ONCE and runtime.turn(app, app.hardware):
                    self.stepped_at = vclock.now_ms()
                    turns += 1
            finally:
                self.in_pass = False
            if latency is not None:  # the loop's next turn: the hall link's poll
                latency.after_pass(self.app, vclock.now_ms(), vclock.ticks_ms())
        except sim_flash.PowerCut:  # an armed cut fell in this pass's flash write
            self.power_off()

    def busy_until_ms(self):
        """The first ms at which the main loop is out of the C calls it made (the chip's
        model), or now: an ideal board's never hold it."""
        return self._held_until(vclock.now_ms())

    def _held_until(self, time_ms):
        """Until when the main loop is held in the C calls it made (the chip's model), or
        ``time_ms`` if it is free then: a tick or a pass that falls inside a call (a flash
        erase, with the display's frame and the flag's check) runs at its end."""
        latency = self.latency
        if latency is None:
            return time_ms
        return max(time_ms, latency.busy_until_ms())

    def _held_back(self, entry):
        """If the chip is in a call that holds ``entry``'s interrupt back, move the contact
        now without its handler, and serve the interrupt once when the call ends (one
        for all the edges of the line meanwhile, reading the line's level then); True."""
        time_ms, sequence, pin, level = entry
        stamp = self.latency.stamp_ms(time_ms)
        if stamp == time_ms:
            return False
        if level == _LATCHED:  # the call that ended is followed by another that holds it
            self._insert((stamp, sequence, pin, level))
            return True
        vclock.set_now(time_ms)
        if not sim_machine.latch(pin, level):
            return True
        if self.latency.soft_handlers:  # each edge asks the scheduler for a call of the handler
            runs_at = self.latency.schedule(time_ms)
            if runs_at >= 0:
                self.latched.append(pin)
                self._insert((max(stamp, runs_at), sequence, pin, _LATCHED))
        elif pin not in self.latched:  # a hard interrupt is latched once for the line
            self.latched.append(pin)
            self._insert((stamp, sequence, pin, _LATCHED))
        return True

    def settle(self):
        """A pass of the main loop at the current instant (it runs all the time), unless
        one has run at this instant already: at any instant the board is in the state
        of one pass, however often it is looked at. Not while the main loop is held in a
        C call (the chip's model): the board shows what its last pass left."""
        now = vclock.now_ms()
        if self.powered and self.stepped_at != now and self._held_until(now) <= now:
            self.stepped_at = now
            if self.latency is not None:
                self.latency.begin_pass(vclock.now_ms())
            self.in_pass = True
            try:
                self.app.step(vclock.ticks_ms())
                self.app.hardware.sleep.wait(self.app)  # and sleeps again, until its new deadline
            except sim_flash.PowerCut:
                self.power_off()
            finally:
                self.in_pass = False

    # --- displays --------------------------------------------------------

    def unplug(self, index):
        self.chips[index].present = False

    def plug(self, index):
        self.chips[index].present = True

    def brownout(self, index):
        """That backpack's supply drops and comes back: its chip restarts as at power-on
        (standby, display off, RAM clear) and says nothing of it on the bus."""
        self.chips[index].power_on()

    def display_text(self):
        """Both displays as read back from the chips' memory, ``left|right``; a chip in
        standby or with its display off shows nothing, whatever its RAM holds."""
        return ht16k33.shown_text(self.chips[0]) + "|" + ht16k33.shown_text(self.chips[1])


class _ChipClock:
    """The tick counter of a chip board's firmware (``hal.tick_source.source``): in a pass
    of the main loop, the tick after the C calls the pass has made (``chip_now_ms``), as
    the chip's timer reads once they are over: the ticker keeps the grid's next tick after
    the pass's end (``hal.ticker``), so a pass that outlasts a tick, a ring block's,
    is followed by the grid's next tick, not by one at its end. Elsewhere (a handler at
    its edge) the virtual tick."""

    def __init__(self, board):
        self.board = board

    def ticks_ms(self):
        held = self.board.chip_now_ms() - vclock.now_ms()
        return ticks_add(vclock.ticks_ms(), held) if held > 0 else vclock.ticks_ms()
