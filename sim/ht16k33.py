"""A model of the HT16K33 LED driver as an I2C device, and a decoder for what it shows.

``HT16K33`` is attached to the simulated bus with ``machine.attach_i2c``. It
keeps the chip's 16 bytes of display RAM and its setup registers, and
understands what the Adafruit driver sends: a write whose first byte is a
RAM address (0x00-0x0F) followed by data written with auto-increment
(wrapping at 16), 0x21/0x20 oscillator on/off, 0x80 | on | blink << 1
display setup, and 0xE0 | n brightness. Other commands are accepted and
ignored; so are bytes after a command byte. ``write`` allocates nothing.

``decode_seg7x4`` reads a 4-digit 7-segment backpack (the wiring of the
driver's ``Seg7x4``) back from that RAM as text: docs/spec/scripts.md, "Decoding
the display".
"""

_RAM_SIZE = 16
_RAM_MASK = 0x0F
_SYSTEM_SETUP = 0x20  # bit 0: oscillator on
_DISPLAY_SETUP = 0x80  # bit 0: display on, bits 1-2: blink rate
_DIMMING = 0xE0  # bits 0-3: brightness 0..15
_FULL_BRIGHTNESS = 15

# Seg7x4: the RAM byte of digits 1..4, and the colon (bit 1 of RAM byte 4).
DIGIT_BYTES = (0, 2, 6, 8)
COLON_BYTE = 4
COLON_BIT = 0x02
DOT_BIT = 0x80
_SEGMENTS = 0x7F

# Segments a..g (bits 0..6) of every pattern the Seg7x4 driver draws, and the
# character it stands for. Letters keep the case their shape shows ("A" but
# "b", "r"); a pattern shared by a digit and a letter (5 and S) is the digit.
CHARACTERS = {
    0x00: " ",
    0x3F: "0",
    0x06: "1",
    0x5B: "2",
    0x4F: "3",
    0x66: "4",
    0x6D: "5",
    0x7D: "6",
    0x07: "7",
    0x7F: "8",
    0x6F: "9",
    0x77: "A",
    0x7C: "b",
    0x39: "C",
    0x58: "c",
    0x5E: "d",
    0x79: "E",
    0x71: "F",
    0x3D: "G",
    0x76: "H",
    0x30: "I",
    0x1E: "J",
    0x38: "L",
    0x54: "n",
    0x5C: "o",
    0x73: "P",
    0x67: "q",
    0x50: "r",
    0x78: "t",
    0x3E: "U",
    0x1C: "v",
    0x6E: "y",
    0x40: "-",
}
UNKNOWN = "?"


class HT16K33:
    """One HT16K33 on the bus: display RAM, setup registers, and whether it answers."""

    def __init__(self):
        self.ram = bytearray(_RAM_SIZE)
        self.present = True  # False: unplugged, the bus NACKs and the chip is not touched
        self.writes = 0  # write transactions received
        self.power_on()

    def power_on(self):
        """The chip's state after power comes (back): standby, display off, RAM clear."""
        ram = self.ram
        index = 0
        while index < _RAM_SIZE:
            ram[index] = 0
            index += 1
        self.pointer = 0  # the RAM address the next data byte goes to (or comes from)
        self.oscillator_on = False
        self.display_on = False
        self.blink_rate = 0
        self.brightness = _FULL_BRIGHTNESS

    def write(self, buf):
        """One write transaction: a command byte, or a RAM address and data."""
        self.writes += 1
        count = len(buf)
        if count == 0:
            return
        command = buf[0]
        if command <= _RAM_MASK:
            ram = self.ram
            pointer = command
            index = 1
            while index < count:
                ram[pointer] = buf[index]
                pointer = (pointer + 1) & _RAM_MASK
                index += 1
            self.pointer = pointer
            return
        kind = command & 0xF0
        if kind == _SYSTEM_SETUP:
            self.oscillator_on = (command & 0x01) == 1
        elif kind == _DISPLAY_SETUP:
            self.display_on = (command & 0x01) == 1
            self.blink_rate = (command >> 1) & 0x03
        elif kind == _DIMMING:
            self.brightness = command & 0x0F

    def read_into(self, buf):
        """One read transaction: RAM bytes from the current address, auto-incrementing."""
        ram = self.ram
        pointer = self.pointer
        count = len(buf)
        index = 0
        while index < count:
            buf[index] = ram[pointer]
            pointer = (pointer + 1) & _RAM_MASK
            index += 1
        self.pointer = pointer


def shown_text(chip):
    """What ``chip`` lights, as ``decode_seg7x4`` reads it: four spaces while it is in
    standby or its display is off."""
    if not (chip.oscillator_on and chip.display_on):
        return "    "
    return decode_seg7x4(chip.ram)


def decode_seg7x4(ram):
    """What a 4-digit backpack with display RAM ``ram`` shows, e.g. ``" 4.51"``, ``" 1:30"``.

    Each digit is its character (a space when dark, ``?`` for a pattern that
    is none), a lit decimal point adds ``.`` after its digit, and a lit colon
    adds ``:`` between the second and third digit.
    """
    if len(ram) < _RAM_SIZE:
        raise ValueError("HT16K33 display RAM is 16 bytes, got %d" % len(ram))
    text = ""
    for position, address in enumerate(DIGIT_BYTES):
        if position == 2 and ram[COLON_BYTE] & COLON_BIT:
            text += ":"
        pattern = ram[address]
        text += CHARACTERS.get(pattern & _SEGMENTS, UNKNOWN)
        if pattern & DOT_BIT:
            text += "."
    return text
