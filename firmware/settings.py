"""The clock's settings in force: each side's time control, the event's claim rules
and the on/off switches.

The settings file's reading, checking and writing (``firmware.settings_file``)
is imported at boot, in the setup menus or for a settings push from the hall,
whichever comes first, and stays loaded (nothing is let go: docs/architecture.md,
"What the heap pays for"); ``Settings.apply`` and ``Settings.to_dict`` import it.
"""

from firmware import timecontrol

DEFAULT_CONTROL = "5400+30"
# The displays' brightness in sixteenths of full duty (the HT16K33's 16 dimming steps):
# 2/16 reads at 3 m in a lit hall and lets one 18650 last a 9-round open (docs/build.md).
DEFAULT_BRIGHTNESS = 2


class Settings:
    """The settings in force, with the parsed controls."""

    def __init__(self):
        self.control_left = DEFAULT_CONTROL
        self.control_right = DEFAULT_CONTROL
        self.quickplay = "off"
        self.edition = "appendix-g"
        self.sound = True  # the buzzer sounds at a flag (FIDE: it can be switched off)
        self.warn_last10 = False  # warning beeps in the last 10 s of a side's time
        self.tenths = False  # tenths of a second below 20 s (docs/display.md)
        self.locked = False  # a locked clock keeps its settings (docs/menus.md)
        self.penalty_ms = None  # the quick penalty per class; None: the edition's default
        self.brightness = DEFAULT_BRIGHTNESS  # 1..16: the displays' duty in sixteenths
        self.error = None

    def controls(self):
        """The parsed controls, left and right."""
        return timecontrol.parse(self.control_left), timecontrol.parse(self.control_right)

    def apply(self, data):
        """Take the settings of a decoded settings file (a dict), all or nothing
        (``firmware.settings_file.checked``); ValueError says what is wrong."""
        from firmware import settings_file

        brightness = settings_file.brightness(data)
        (
            self.control_left,
            self.control_right,
            self.quickplay,
            self.edition,
            self.sound,
            self.warn_last10,
            self.tenths,
            self.locked,
            self.penalty_ms,
        ) = settings_file.checked(data)
        self.brightness = brightness

    def to_dict(self):
        """The settings as the file keeps them (``firmware.settings_file.to_dict``)."""
        from firmware import settings_file

        return settings_file.to_dict(self)
