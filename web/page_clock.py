"""The live clock of the web page: the `browser` board in real time, as the page drives it.

The page (web/site/page.js) calls these with the browser's own clock, in whole
milliseconds of ``performance.now()``: ``advance(page_ms)`` at each frame,
``down(name, stamp_ms)`` and ``up(name, stamp_ms)`` with an input event's
``timeStamp``. Virtual time is that clock moved to where the session began
(``LiveSession``, the same session as ``make sim``'s window), so the board's
millisecond tick is ``performance.now()``'s, and a press closes its contact
at its event's own millisecond: the board's pin handler stamps it there,
however late the page got round to the event, as long as the board has not
run past that instant. The page runs the board ``LAG_MS`` behind its clock at
each frame for that; a press older than that is charged from the instant
the board had reached (``late_ms`` says by how much).

``frame()`` is what the page draws, as one string that changes only when
something shown changes; ``flash_files()`` the flash's files, which the page
keeps in the browser's storage and gives back to ``restore`` on its next
opening: the board boots on them as after a power cut.
"""

import binascii
import json
import os

from firmware import timecontrol
from firmware.tickmath import ticks_diff
from live.controls import shown_ram
from live.session import LiveSession, header_text
from sim import machine as sim_machine
from sim import script as script_module
from sim import vclock

BOARD = "browser"
DEFAULT_CONTROL = "300+3"
LAG_MS = 30  # how far behind the page's clock each frame leaves the board (page.js)
BLINK_PERIOD_MS = (0, 500, 1000, 2000)  # HT16K33 blink rates off, 2 Hz, 1 Hz, 0.5 Hz
INPUT_NAMES = ("lever_left", "lever_right", "play", "set", "plus", "minus")


def control_problem(control):
    """Why ``control`` is no time control the clock can play ("" if it is one), before
    the clock in use is given up for it."""
    if not control or control.split() != [control]:
        return "a time control is one word, such as 300+3 or 40/5400+30:1800+30"
    try:
        script_module.parse(header_text(control, BOARD))
    except script_module.ScriptError as error:
        return error.message
    return ""


class PageSession(LiveSession):
    """``LiveSession`` whose wall clock is the page's: the millisecond the page last gave."""

    def __init__(self, script_text, page_ms):
        self.page_ms = page_ms
        self.origin_page_ms = page_ms
        LiveSession.__init__(self, script_text, BOARD, clock=self.page_seconds)

    def page_seconds(self):
        return self.page_ms // 1000

    def go_live_at(self, page_ms):
        self.page_ms = page_ms
        self.origin_page_ms = page_ms
        self.origin_ms = vclock.now_ms()
        self.origin_wall = 0

    def tick_of(self, page_ms):
        """The board's virtual millisecond at the page's ``page_ms``."""
        return self.origin_ms + page_ms - self.origin_page_ms

    def wall_ms(self):
        return max(self.tick_of(self.page_ms), vclock.now_ms())


class PageClock:
    """The clock the page shows: a session of the `browser` board, from ``control``, or
    from the flash files the page kept (``restore``)."""

    def __init__(self, page_ms, control=None, script_text=None):
        if script_text is None:
            control = control or DEFAULT_CONTROL
            problem = control_problem(control)
            if problem:
                raise ValueError(problem)
            script_text = header_text(control, BOARD)
        self.session = PageSession(script_text, page_ms)
        self.lines = []  # what a starting script printed (a failed expect, say)
        self.session.play_script(self.lines.append)
        self.session.go_live_at(page_ms)
        self.late_ms = 0  # how much later than its event the last press was charged
        self.last_flash = None
        self.flash_mark = None
        self.last_frame = None

    # --- hands ---------------------------------------------------------------

    def advance(self, page_ms):
        """Run the board up to ``page_ms`` (the page's clock less ``LAG_MS``)."""
        self.session.page_ms = page_ms
        self.session.advance()

    def down(self, name, stamp_ms):
        """Contact ``name`` closes at the page's ``stamp_ms`` (an event's timeStamp);
        return the board's tick it closed at."""
        if name not in INPUT_NAMES:
            raise ValueError("no input %r on the board" % (name,))
        session = self.session
        wanted = session.tick_of(stamp_ms)
        session.page_ms = stamp_ms
        session.down(name)
        closed = session.held[name][0] if name in session.held else vclock.now_ms()
        self.late_ms = closed - wanted
        return closed

    def up(self, name, stamp_ms):
        self.session.page_ms = max(self.session.page_ms, stamp_ms)
        self.session.up(name)

    def power(self, stamp_ms):
        """The power switch: cut the power, or restore it (the firmware boots again)."""
        self.session.page_ms = max(self.session.page_ms, stamp_ms)
        self.session.toggle_power()

    def powered(self):
        return self.session.board.powered

    # --- what the page shows -------------------------------------------------

    def frame(self):
        """What the page draws, tab-separated: each chip's lit RAM (hex) and brightness,
        the LEDs (``10``: left lit), the buzzer's tone (Hz, 0 silent), the clock's
        state, both displays as read back from the chips, and the times in words."""
        board = self.session.board
        now = vclock.now_ms()
        parts = []
        for chip in board.chips:
            parts.append(binascii.hexlify(shown_ram(chip, now)).decode())
            parts.append(str(chip.brightness))
        left, right = self.session.leds()
        parts.append("%d%d" % (1 if left else 0, 1 if right else 0))
        parts.append(str(self.tone()))
        parts.append(self.session.status())
        parts.append(board.display_text())
        parts.append(self.times_text())
        return "\t".join(parts)

    def advance_frame(self, page_ms):
        """``advance(page_ms)``; then the page's ms before which nothing shown can change
        (``next_change``), a tab, and ``frame()`` if it changed since the last, else ""."""
        self.advance(page_ms)
        frame = self.frame()
        head = "%d\t" % self.next_change()
        if frame == self.last_frame:
            return head
        self.last_frame = frame
        return head + frame

    def next_change(self):
        """The page's ms of the board's next instant at which anything shown may change:
        the app's next step (the tick it rests until, or the next tick when it does
        not rest), the next contact transition, the next half of a display's blink. Until
        then the page need not ask (a press asks at once)."""
        session = self.session
        board = session.board
        now = vclock.now_ms()
        due = now + board.board.TICK_MS
        app = board.app
        if board.powered and app is not None:
            wake = app.deadlines.resting_until()
            if wake is not None:
                due = max(due, now + ticks_diff(wake, vclock.ticks_ms()))
        if board.pending:
            due = min(due, board.pending[0][0])
        for chip in board.chips:
            period = BLINK_PERIOD_MS[chip.blink_rate]
            if period:
                due = min(due, now + period // 2 - now % (period // 2))
        return due - session.origin_ms + session.origin_page_ms

    def tone(self):
        pin = getattr(self.session.board.board, "BUZZER_PIN", None)
        pwm = sim_machine.pwm_of(pin) if pin is not None else None
        if pwm is None or not (pwm.active and pwm.duty > 0 and pwm.frequency > 0):
            return 0
        return pwm.frequency

    def ms_to_next(self):
        """Ms until the board's next tick or contact change (-1: nothing due)."""
        due = self.session.ms_to_next()
        return -1 if due is None else due

    def state_line(self):
        return self.session.game.state_line()

    def times_text(self):
        """The two times as words for a screen reader, from the clock's own state."""
        app = self.session.board.app
        if app is None:
            return "power off"
        tick = vclock.ticks_ms()
        words = []
        for index, side in enumerate(("left", "right")):
            shown = timecontrol.describe_ms(app.clock.shown_ms(index, tick))
            words.append("%s %s" % (side, shown.split(".")[0]))
        return ", ".join(words)

    def tick_of(self, page_ms):
        return self.session.tick_of(page_ms)

    # --- the flash -------------------------------------------------------------

    def flash_text(self):
        """The flash's files as JSON: {name: their bytes in hex}."""
        folder = self.session.game.flash
        files = {}
        for name in sorted(os.listdir(folder)):
            with open(folder + "/" + name, "rb") as handle:
                files[name] = binascii.hexlify(handle.read()).decode()
        return json.dumps(files)

    def flash_files(self):
        """``flash_text()``, or "" if unchanged since the last call (nothing written,
        renamed or removed since: the flash's counts of them, read first)."""
        flash = self.session.board.flash
        mark = (flash.writes, flash.renames, flash.removes, flash.bytes_written)
        if mark == self.flash_mark and self.last_flash is not None:
            return ""
        self.flash_mark = mark
        text = self.flash_text()
        if text == self.last_flash:
            return ""
        self.last_flash = text
        return text

    def restore(self, text, page_ms):
        """Power the board off, put the flash files of ``text`` (``flash_files``) in place
        of its own, and power it on: the clock boots on them, as after a power cut."""
        files = json.loads(text)
        folder = self.session.game.flash
        session = self.session
        session.page_ms = max(session.page_ms, page_ms)
        if session.board.powered:
            session.toggle_power()
        for name in os.listdir(folder):
            os.remove(folder + "/" + name)
        for name, data in files.items():
            if "/" in name or not name:
                raise ValueError("not a flash file name: %r" % (name,))
            with open(folder + "/" + name, "wb") as handle:
                handle.write(binascii.unhexlify(data))
        session.toggle_power()
        self.last_flash = None

    def script_text(self):
        """The session so far as a clock script (``python -m sim run`` replays it): every
        key let go, the board run until its contacts settle, the end state expected."""
        self.session.finish()
        return self.session.script_text_recorded("the web page")

    def close(self):
        """Remove this clock's board and flash (a new clock takes its place)."""
        self.session.close()
