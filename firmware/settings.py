"""The clock's settings: each side's time control and the event's claim rules.

A missing or unreadable settings file, or a control that cannot be played,
leaves the defaults in force; ``error`` then says what was wrong.
"""

from firmware import claims, timecontrol

FILE_NAME = "settings.json"
DEFAULT_CONTROL = "5400+30"
# The on/off settings, in the order ``apply`` assigns them, and their defaults.
SWITCHES = ("sound", "warn_last10", "tenths", "locked")
SWITCH_DEFAULTS = (True, False, False, False)


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
        self.error = None

    def controls(self):
        """The parsed controls, left and right."""
        return timecontrol.parse(self.control_left), timecontrol.parse(self.control_right)

    def apply(self, data):
        """Take the controls from a decoded settings dict, all or nothing."""
        if not isinstance(data, dict):
            raise ValueError("settings are not an object")
        left = data.get("control_left", DEFAULT_CONTROL)
        right = data.get("control_right", left)
        quickplay = data.get("quickplay", "off")
        edition = data.get("edition", "appendix-g")
        switches = []
        for name in SWITCHES:
            value = data.get(name, SWITCH_DEFAULTS[SWITCHES.index(name)])
            if value is not True and value is not False:
                raise ValueError("%s must be true or false, got %r" % (name, value))
            switches.append(value)
        timecontrol.parse(left)
        timecontrol.parse(right)
        claims.check_setting(quickplay, edition)
        self.control_left = left
        self.control_right = right
        self.quickplay = quickplay
        self.edition = edition
        self.sound, self.warn_last10, self.tenths, self.locked = switches

    def to_dict(self):
        return {
            "control_left": self.control_left,
            "control_right": self.control_right,
            "quickplay": self.quickplay,
            "edition": self.edition,
            "sound": self.sound,
            "warn_last10": self.warn_last10,
            "tenths": self.tenths,
            "locked": self.locked,
        }


def load(storage):
    """Read the settings from ``storage``; fall back to the defaults on any error."""
    settings = Settings()
    try:
        data = storage.read_json(FILE_NAME)
    except (OSError, ValueError) as error:
        settings.error = "unreadable settings: %s" % error
        return settings
    if data is None:
        return settings
    try:
        settings.apply(data)
    except ValueError as error:
        settings.error = "bad settings: %s" % error
    return settings
