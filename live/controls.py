"""What the live simulator offers the hands and shows the eyes, for the window and the terminal.

``CONTROLS`` names each lever and key of the board with its label and its
keyboard shortcuts: Tk key names for the window, characters for the
terminal. ``shown_ram`` is what an HT16K33 really lights from its display
RAM: nothing while its oscillator or display is off, nothing in the dark
half of a blink period, otherwise the RAM as it is.
"""


class Control:
    def __init__(self, name, label, window_keys, terminal_keys, hint):
        self.name = name  # the firmware's input name (firmware.input_codes.NAMES)
        self.label = label
        self.window_keys = window_keys  # Tk keysyms
        self.terminal_keys = terminal_keys  # characters
        self.hint = hint  # how the window's shortcut is written on screen

    def terminal_hint(self):
        """The terminal's shortcuts as its help line writes them (``A or Z``), from
        the very characters it accepts: a letter in either case, ``space``."""
        names = []
        for char in self.terminal_keys:
            name = "space" if char == " " else char.upper()
            if name not in names:
                names.append(name)
        return " or ".join(names)


CONTROLS = (
    Control("lever_left", "left lever", ("a", "z", "A", "Z"), "azAZ", "A or Z"),
    Control("play", "play / pause", ("space", "p", "P"), " pP", "space"),
    Control("set", "set", ("s", "S"), "sS", "S"),
    Control("plus", "plus", ("plus", "equal", "KP_Add", "Up"), "+=", "+ or Up"),
    Control("minus", "minus", ("minus", "underscore", "KP_Subtract", "Down"), "-_", "- or Down"),
    Control("lever_right", "right lever", ("l", "m", "L", "M"), "lmLM", "L or M"),
)
POWER_WINDOW_KEYS = ("o", "O")  # the power switch, where the board has one in the simulator
POWER_TERMINAL_KEYS = "oO"
QUIT_WINDOW_KEYS = ("q", "Q", "Escape")
QUIT_TERMINAL_KEYS = "qQ"
HOLD_TERMINAL_KEYS = "hH"  # the terminal has no key releases: h, then a key, holds that key

_BLINK_PERIOD_MS = (0, 500, 1000, 2000)  # HT16K33 blink rates off, 2 Hz, 1 Hz, 0.5 Hz
_DARK = bytes(16)


def control_for_window_key(keysym):
    for control in CONTROLS:
        if keysym in control.window_keys:
            return control
    return None


def control_for_terminal_key(char):
    for control in CONTROLS:
        if char in control.terminal_keys:
            return control
    return None


def shown_ram(chip, now_ms):
    """The 16 bytes of display RAM that ``chip`` lights at virtual ``now_ms``."""
    if not (chip.oscillator_on and chip.display_on):
        return _DARK
    period = _BLINK_PERIOD_MS[chip.blink_rate]
    if period and now_ms % period >= period // 2:
        return _DARK
    return bytes(chip.ram)
