"""The clock in a terminal (SSH, a headless machine): both displays in big digits, in real time.

Every segment, decimal point and colon dot is drawn from the simulated
HT16K33 chips' display RAM (lit, or dim when dark), so the terminal cannot
show what the board would not. A key press closes the contact for the
runner's 80 ms; a terminal reports no key releases, so a long press is
``h`` then the key: the contact stays closed until the next keystroke.
The screen is redrawn only when it changes, and the loop sleeps in
``select`` until the next timer tick or keystroke.
"""

import os
import select
import sys

from live import controls
from sim import vclock
from sim.ht16k33 import COLON_BIT, COLON_BYTE, DIGIT_BYTES, DOT_BIT

ROWS = 7
DIGIT_COLUMNS = 6
# The cells of segments a-g (bits 0-6) in a digit of 7 rows x 6 columns.
SEGMENT_CELLS = (
    tuple((0, column) for column in range(1, 5)),  # a
    ((1, 5), (2, 5)),  # b
    ((4, 5), (5, 5)),  # c
    tuple((6, column) for column in range(1, 5)),  # d
    ((4, 0), (5, 0)),  # e
    ((1, 0), (2, 0)),  # f
    tuple((3, column) for column in range(1, 5)),  # g
)
DOT_CELL = (6, 6)  # the decimal point, right of the digit
COLON_ROWS = (2, 4)
DISPLAY_GAP = "      "
DISPLAY_WIDTH = 4 * (DIGIT_COLUMNS + 1) + 3 + 2  # four digits with their points, colon
_MAX_SLEEP_S = 0.1


class Style:
    """How a lit and a dark cell look: block characters (or ASCII), with colour or without."""

    def __init__(self, unicode_ok=True, colour=True):
        lit, dark = ("\u2588", "\u2591") if unicode_ok else ("#", ".")
        if colour:
            self.lit = "\x1b[1;31m" + lit + "\x1b[0m"
            self.dark = "\x1b[90m" + dark + "\x1b[0m"
        else:
            self.lit = lit
            self.dark = dark


def display_rows(ram, style):
    """The 7 text rows of one 4-digit display lit by display ``ram``."""
    rows = []
    for row in range(ROWS):
        cells = []
        for position, address in enumerate(DIGIT_BYTES):
            if position == 2:
                lit = ram[COLON_BYTE] & COLON_BIT
                cells.append((style.lit if lit else style.dark) if row in COLON_ROWS else " ")
                cells.append(" ")
            pattern = ram[address]
            line = [" "] * (DIGIT_COLUMNS + 1)
            for bit, segment in enumerate(SEGMENT_CELLS):
                for cell_row, column in segment:
                    if cell_row == row:
                        line[column] = style.lit if pattern & (1 << bit) else style.dark
            if row == DOT_CELL[0]:
                line[DOT_CELL[1]] = style.lit if pattern & DOT_BIT else style.dark
            cells.append("".join(line))
            if position < 3:
                cells.append(" ")
        rows.append("".join(cells))
    return rows


def help_lines():
    words = ["%s: %s" % (control.terminal_hint(), control.label) for control in controls.CONTROLS]
    return [
        "  ".join(words[:3]),
        "  ".join(words[3:]),
        "H then a key: hold that key down.  O: power off/on.  Q: quit",
    ]


class TerminalClock:
    """The screen and the keyboard of a terminal, on a ``LiveSession``."""

    def __init__(self, session, stdin, out, style, note=""):
        self.session = session
        self.stdin = stdin
        self.out = out
        self.style = style
        self.note = note
        self.shown = None  # the look last drawn
        self.hold_next = False
        self.finished = False

    def look(self):
        """Everything the screen shows, cheaply: the two chips' lit RAM, LEDs, buzzer, status."""
        session = self.session
        now = vclock.now_ms()
        chips = session.board.chips
        status = session.status()
        if self.hold_next:
            status += "   hold: which key?"
        for name, (since, _) in session.held.items():
            status += "   holding %s %.1f s (any key lets go)" % (name, (now - since) / 1000)
        return (
            controls.shown_ram(chips[0], now),
            controls.shown_ram(chips[1], now),
            tuple(session.leds()),
            session.buzzer_sounding(),
            status,
        )

    def frame(self, look):
        """The whole screen for ``look``, from the top-left corner."""
        left_ram, right_ram, leds, buzzing, status = look
        left = display_rows(left_ram, self.style)
        right = display_rows(right_ram, self.style)
        marks = ["*" if lit else " " for lit in leds]
        title = "  %s%sright %s   %s" % (
            ("left " + marks[0]).ljust(DISPLAY_WIDTH),
            DISPLAY_GAP,
            marks[1],
            "BUZZER" if buzzing else "      ",
        )
        lines = [title]
        for row in range(ROWS):
            lines.append("  " + left[row] + DISPLAY_GAP + right[row])
        lines += ["", "  " + status] + ["  " + line for line in help_lines()]
        if self.note:
            lines.append("  " + self.note)
        return "\x1b[H" + "".join(line + "\x1b[K\n" for line in lines)

    def redraw(self):
        """Draw the screen again if anything on it changed."""
        look = self.look()
        if look != self.shown:
            self.shown = look
            self.out.write(self.frame(look))
            self.out.flush()

    def key(self, char):
        session = self.session
        if session.held:
            session.release_all()
            return
        if char in controls.QUIT_TERMINAL_KEYS or char in ("\x03", "\x04"):
            self.finished = True
            return
        if char in controls.POWER_TERMINAL_KEYS and session.can_cut_power():
            session.toggle_power()
            return
        if char in controls.HOLD_TERMINAL_KEYS:
            self.hold_next = not self.hold_next
            return
        control = controls.control_for_terminal_key(char)
        if control is None:
            return
        if self.hold_next:
            self.hold_next = False
            session.down(control.name)
        else:
            session.tap(control.name)

    def run(self):
        """Go live; read keys and redraw until Q (or end of input)."""
        session = self.session
        fd = self.stdin.fileno()
        session.go_live()
        while not self.finished:
            session.advance()
            self.redraw()
            due = session.ms_to_next()
            wait = _MAX_SLEEP_S if due is None else due / session.speed / 1000 + 0.001
            if session.held:
                wait = min(wait, _MAX_SLEEP_S)
            ready, _, _ = select.select([fd], [], [], min(wait, _MAX_SLEEP_S))
            if ready:
                data = os.read(fd, 64)
                if not data:
                    break
                for char in data.decode("utf-8", "replace"):
                    self.key(char)
                    if self.finished:
                        break


def run_terminal(session, note=""):
    """Run ``session`` in this terminal, restoring it afterwards."""
    import termios
    import tty

    stdin = sys.stdin
    out = sys.stdout
    fd = stdin.fileno()
    saved = termios.tcgetattr(fd) if os.isatty(fd) else None
    encoding = (getattr(out, "encoding", None) or "").lower().replace("-", "")
    style = Style(unicode_ok=encoding == "utf8", colour=os.environ.get("TERM") != "dumb")
    clock = TerminalClock(session, stdin, out, style, note)
    if saved:
        tty.setcbreak(fd)
    out.write("\x1b[?1049h\x1b[?25l\x1b[2J")  # alternate screen, no cursor, cleared
    try:
        clock.run()
    except KeyboardInterrupt:
        pass
    finally:
        out.write("\x1b[?25h\x1b[?1049l")
        out.flush()
        if saved:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
