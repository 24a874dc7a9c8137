"""The clock's settings: each side's time control and the event's claim rules.

The event's penalty amounts (7.5.5, A.4, B) are ``penalty_s`` in the file:
whole seconds per class of game, ``{"standard": 120, "rapid": 60, "blitz":
60}`` by default (the current Laws).

A missing or unreadable settings file, or a control that cannot be played,
leaves the defaults in force; ``error`` then says what was wrong.
"""

from firmware import claims, files, timecontrol

DEFAULT_CONTROL = "5400+30"
# The on/off settings, in the order ``apply`` assigns them, and their defaults.
SWITCHES = ("sound", "warn_last10", "tenths", "locked")
SWITCH_DEFAULTS = (True, False, False, False)
_MAX_PENALTY_S = 600


def penalty_ms(data):
    """The ``penalty_s`` object of a settings file as ms per class (``claims.CLASSES``);
    ValueError names what is wrong."""
    if not isinstance(data, dict):
        raise ValueError("penalty_s must be an object of seconds per class")
    amounts = []
    for name in claims.CLASSES:
        value = data.get(name)
        if value is True or value is False or not isinstance(value, int):
            raise ValueError("penalty_s: %s must be whole seconds, got %r" % (name, value))
        if value < 1 or value > _MAX_PENALTY_S:
            raise ValueError("penalty_s: %s of %d s is not 1 to %d" % (name, value, _MAX_PENALTY_S))
        amounts.append(value * 1000)
    for name in data:
        if name not in claims.CLASSES:
            raise ValueError("penalty_s: no class %r" % (name,))
    return tuple(amounts)


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
        self.penalty_ms = claims.PENALTY_DEFAULT_MS  # the quick penalty per class
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
        timecontrol.check_pair(timecontrol.parse(left), timecontrol.parse(right))
        claims.check_setting(quickplay, edition)
        penalties = claims.PENALTY_DEFAULT_MS
        if "penalty_s" in data:
            penalties = penalty_ms(data["penalty_s"])
        self.control_left = left
        self.control_right = right
        self.quickplay = quickplay
        self.edition = edition
        self.sound, self.warn_last10, self.tenths, self.locked = switches
        self.penalty_ms = penalties

    def penalty_s(self):
        """The penalty amounts as the file keeps them: seconds per class."""
        amounts = {}
        for index in range(len(claims.CLASSES)):
            amounts[claims.CLASSES[index]] = self.penalty_ms[index] // 1000
        return amounts

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
            "penalty_s": self.penalty_s(),
        }


def load(storage):
    """Read the settings from ``storage``; fall back to the defaults on any problem.

    A file the clock cannot use (firmware.boot.documents) is set aside as
    ``settings.json.bad``; ``error`` says why and ``error_code`` is the code the
    display shows at boot (``Err1`` or ``vEr1``).
    """
    from firmware.boot import documents  # boot alone reads files: let go after it (hal.boot)

    settings = Settings()
    settings.error_code = None

    def take(data):
        if "control_left" not in data:
            raise ValueError("no control_left: not a settings file")
        settings.apply(data)

    problem = documents.load(storage, files.SETTINGS, take)
    if problem is not None:
        settings.error = "%s: %s" % (files.SETTINGS, problem.why)
        settings.error_code = documents.code(problem.kind, documents.SETTINGS)
    return settings
