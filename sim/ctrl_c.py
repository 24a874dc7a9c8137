"""Ctrl-C on the simulated board's USB serial, at any instant of the clock's code.

On a board, MicroPython raises ``KeyboardInterrupt`` in whatever runs when the
interrupt character (Ctrl-C, 3) comes on the REPL's serial; after
``micropython.kbd_intr(-1)`` the character is an ordinary byte of the input and nothing
is interrupted. ``Serial`` models that: its ``kbd_intr`` stands in for MicroPython's,
and while ``tracing()`` it counts every line the clock's own code runs (the modules
of firmware/, hal/ and boards/: the instants at which a byte could come) and, at the
instant ``send_at`` names, delivers Ctrl-C there: ``KeyboardInterrupt`` in that line
if the character is live, else the byte is dropped (``dropped``). ``open_instants``
lists the instants at which a Ctrl-C would have reached the REPL.
"""

import os
import sys

CTRL_C = 3
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_CLOCK_CODE = tuple(os.path.join(_ROOT, part) + os.sep for part in ("firmware", "hal", "boards"))


class Serial:
    """The REPL's serial: the interrupt character and the Ctrl-C sent at one instant."""

    def __init__(self, send_at=None):
        self.char = CTRL_C  # MicroPython's at power-on
        self.send_at = send_at
        self.instants = 0
        self.open_instants = []
        self.shut_at = None  # the instant of the first kbd_intr(-1)
        self.dropped = 0

    def kbd_intr(self, char):
        self.char = char
        if char == -1 and self.shut_at is None:
            self.shut_at = self.instants

    def _line(self, frame, event, arg):
        if event == "line":
            instant = self.instants
            self.instants += 1
            if self.char == CTRL_C:
                self.open_instants.append(instant)
            if instant == self.send_at:
                if self.char == CTRL_C:
                    raise KeyboardInterrupt("Ctrl-C at instant %d" % instant)
                self.dropped += 1
        return self._line

    def _call(self, frame, event, arg):
        if frame.f_code.co_filename.startswith(_CLOCK_CODE):
            return self._line
        return None

    def tracing(self):
        return _Tracing(self)

    def installed(self):
        """A context in which MicroPython's ``micropython.kbd_intr`` is this serial's
        (the simulator's ``micropython`` has none), as a board's REPL would take it."""
        return _Installed(self)


class _Installed:
    def __init__(self, serial):
        self.serial = serial
        self.before = None

    def __enter__(self):
        import micropython

        self.before = getattr(micropython, "kbd_intr", None)
        micropython.kbd_intr = self.serial.kbd_intr
        return self.serial

    def __exit__(self, *exc):
        import micropython

        if self.before is None:
            del micropython.kbd_intr
        else:
            micropython.kbd_intr = self.before
        return False


class _Tracing:
    def __init__(self, serial):
        self.serial = serial

    def __enter__(self):
        self.before = sys.gettrace()
        sys.settrace(self.serial._call)
        return self.serial

    def __exit__(self, *exc):
        sys.settrace(self.before)
