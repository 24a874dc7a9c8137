"""The two clock displays: HT16K33 7-segment backpacks through ``adafruit_ht16k33``.

``SegmentDisplay`` owns one backpack on a bus and shows firmware frames on it.
It drives the chip through the library's ``HT16K33`` base class (oscillator,
display on, blink, brightness, the display buffer and its I2C device) and
places a frame's bytes in that buffer where a 4-digit 7-segment backpack
(the library's ``Seg7x4``) wires them: digits 1-4 in RAM rows 0, 1, 3, 4,
the colon in bit 1 of row 2. The ``segments`` module with its character
tables, which the clock never uses, is not loaded: about 13 KB of heap.
A frame that equals the last one shown is not sent again, and one that
differs from it in one byte only (the running mark's turn, the count of a
second) is sent as that byte's RAM row alone: two bytes on the bus (its RAM
address and the row) instead of seventeen, the other rows being what the chip
took last. The driver's own
``show()`` slices its buffer on every call (96 bytes a call inside
MicroPython, measured against 0 for ``show_frame``), and its I2C device's
``write`` and the bus's ``writeto`` take keywords, which puts each call's frame
on MicroPython's heap (tools/heap_frames.py): so frames and restores are
written straight to the bus (``I2CBus.write``), whole buffers, which
allocates nothing. That is the one place the driver is reached behind its
public interface: ``connect`` takes its buffer (``_buffer``), and nothing
else touches it. An I2C error
(a loose cable, a missing backpack, a NACK) is counted and never reaches
the timing; the display is set up again on a later frame,
so it comes back by itself when it answers again. A backpack whose supply
drops and comes back says nothing on the bus: it restarts in standby, its
display off and its RAM clear (the HT16K33's power-on state), so ``restore``
sends it its whole setup and frame again, on the schedule of
``hal.display_restore``. The 1.2" backpack
(``big``) has no decimal points: ``hal.display_big``, loaded only for it,
puts each point of a frame on the lamp of row 2 that stands for it.
"""

from micropython import const

_FRAME_DIGITS = const(4)
_FRAME_SIZE = const(5)
# The driver's buffer: byte 0 the RAM address, then 16 bytes of RAM (row r at 1 + 2 * r).
_DIGIT_INDEXES = b"\x01\x03\x07\x09"  # rows 0, 1, 3, 4: digits 1-4
_COLON_INDEX = const(5)  # row 2
_COLON_BIT = const(0x02)
_SEVERAL = const(-2)  # more than one byte of the frame changed: the whole buffer is sent
# The HT16K33's setup commands (its datasheet; the driver sends the same at its start).
_OSCILLATOR_ON = const(0x21)
_DISPLAY_ON = const(0x81)  # display on, no blink
_DIMMING = const(0xE0)  # | duty - 1, in sixteenths


class SegmentDisplay:
    """One 4-digit display at ``address`` on ``bus`` (a busio-style I2C), driven by
    ``driver_class`` (``adafruit_ht16k33.ht16k33.HT16K33`` on a board).

    The app asks ``show_frame`` and ``took_last()``."""

    def __init__(self, bus, address, driver_class, big=False):
        self.place_big = None  # the 1.2" backpack: no decimal points, lamps in row 2
        if big:
            from hal.display_big import place

            self.place_big = place
        self.bus = bus
        self.address = address
        self.driver_class = driver_class
        self.driver = None
        self.buffer = None
        self.last = bytearray(_FRAME_SIZE)
        self.one_row = bytearray(2)  # a RAM address and one row: a frame with one change
        self.command = bytearray(1)  # one setup command (``restore``)
        self.valid = False
        self.errors = 0
        self.step = 16  # the brightness in sixteenths of full duty (``dim``)
        self.connect()

    def connect(self):
        """Set the backpack up (oscillator, display on); False if it does not answer."""
        try:
            driver = self.driver_class(
                self.bus, address=self.address, auto_write=False, brightness=(self.step - 1) / 15
            )
        except (OSError, ValueError):  # ValueError: adafruit_bus_device's probe found nothing
            self.errors += 1
            return False
        self.driver = driver
        self.buffer = driver._buffer  # address byte + 16 bytes of display RAM
        self.valid = False
        return True

    def dim(self, step):
        """Light the LEDs ``step`` sixteenths of the time (1..16), now and after a reconnect."""
        self.step = step
        if self.driver is not None:
            try:
                self.driver.brightness = (step - 1) / 15  # the driver's 0..1 scale
            except OSError:
                self.errors += 1
                self.driver = None  # set up again, at this brightness, at the next tick:
                self.valid = False  # the app draws a display that did not take its frame

    def restore(self):
        """Send the backpack its setup (oscillator on, display on without blink, the
        dimming of ``dim``) and the whole frame it took last, in four writes: 24 bytes on
        the bus with their address bytes. A chip whose supply dropped shows its frame
        again. True if the display holds its frame; False if it did not take the last one
        or a write failed (it is set up again, and drawn, on the next frame)."""
        if not self.valid:
            return False
        try:
            self._send_setup(_DIMMING | (self.step - 1))
        except OSError:
            self._lost()
            return False
        return True

    def _send_setup(self, dimming):
        """The chip's setup and the frame it took last, in four writes."""
        bus = self.bus
        command = self.command
        command[0] = _OSCILLATOR_ON
        bus.write(self.address, command)
        command[0] = dimming
        bus.write(self.address, command)
        bus.write(self.address, self.buffer)
        command[0] = _DISPLAY_ON
        bus.write(self.address, command)

    def _lost(self):
        """A write failed: counted, and the chip set up again on a later frame (it may
        have lost power)."""
        self.errors += 1
        self.valid = False
        self.driver = None

    def deadline(self):
        """The tick this display next needs a step at by itself, or None (never): it
        is sent a frame only when the app draws one."""
        return None

    def took_last(self):
        """Whether the display took the last frame sent (else it is sent again)."""
        return self.valid

    def show_frame(self, frame):
        """Show ``frame`` (4 digit bytes and the colon byte)."""
        if self.valid and frame == self.last:
            return
        if self.driver is None and not self.connect():
            return
        if self.place_big is not None:
            self.place_big(self.buffer, frame)
            out = self.buffer
        else:
            out = self._place(frame)
        if self._sent(out):
            self._took(frame)

    def _sent(self, out):
        """Whether the chip took ``out`` (else it is set up again on a later frame)."""
        try:
            self.bus.write(self.address, out)
        except OSError:
            self._lost()
            return False
        return True

    def _took(self, frame):
        last = self.last
        index = 0
        while index < _FRAME_SIZE:
            last[index] = frame[index]
            index += 1
        self.valid = True

    def _place(self, frame):
        """``frame`` in the driver's buffer; what to send: the whole buffer, or the one
        row that changed from its RAM address (the chip holds the rest)."""
        changed = self._one_change(frame)
        buffer = self.buffer
        index = 0
        while index < _FRAME_DIGITS:
            buffer[_DIGIT_INDEXES[index]] = frame[index]
            index += 1
        if frame[4]:
            buffer[_COLON_INDEX] |= _COLON_BIT
        else:
            buffer[_COLON_INDEX] &= ~_COLON_BIT
        if changed < 0:
            return buffer
        row = _DIGIT_INDEXES[changed] if changed < _FRAME_DIGITS else _COLON_INDEX
        out = self.one_row
        out[0] = row - 1  # buffer[1 + 2r] is RAM byte 2r
        out[1] = buffer[row]
        return out

    def _one_change(self, frame):
        """The index of the one byte ``frame`` changes from the frame the chip took
        last; -1 if the chip may not hold that frame, or ``_SEVERAL``."""
        if not self.valid:
            return -1
        last = self.last
        changed = -1
        index = 0
        while index < _FRAME_SIZE:
            if frame[index] != last[index]:
                if changed >= 0:
                    return _SEVERAL
                changed = index
            index += 1
        return changed
