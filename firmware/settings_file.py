"""The settings file: reading it at boot, checking a settings document, writing it.

Loaded for boot, the setup menus and a settings push from the hall; the
settings in force are a
``firmware.settings.Settings``.

The event's penalty amounts (7.5.5, A.4, B) are ``penalty_s`` in the file:
whole seconds per class of game, ``{"standard": 120, "rapid": 60, "blitz":
60}`` say. Without it (or ``null``) the amounts follow the edition
(``claims.PENALTY_DEFAULT_MS``), and a change of edition changes them; amounts
in the file stay as they are set.

A missing or unreadable settings file, or a control that cannot be played,
leaves the defaults in force; ``error`` then says what was wrong.
"""

from firmware import claims, files, timecontrol
from firmware.settings import DEFAULT_BRIGHTNESS, DEFAULT_CONTROL, Settings

# The on/off settings, in the order ``checked`` gives them, and their defaults.
SWITCHES = ("sound", "warn_last10", "tenths", "locked")
SWITCH_DEFAULTS = (True, False, False, False)
_MAX_PENALTY_S = 600
BRIGHTNESS_STEPS = 16  # the HT16K33's dimming: 1/16 to 16/16 of full duty


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


def brightness(data):
    """The ``brightness`` of a settings file (1..16, the default if absent);
    ValueError says what is wrong."""
    step = data.get("brightness", DEFAULT_BRIGHTNESS) if isinstance(data, dict) else 0
    if step is True or step is False or not isinstance(step, int):
        raise ValueError("brightness must be a whole number, got %r" % (step,))
    if not 1 <= step <= BRIGHTNESS_STEPS:
        raise ValueError("brightness %d is not 1 to %d" % (step, BRIGHTNESS_STEPS))
    return step


def checked(data):
    """The settings of a decoded settings file (a dict) in the order ``Settings.apply``
    assigns them: left and right control, quickplay, edition, the ``SWITCHES``
    and the penalties in ms. ValueError says what is wrong."""
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
    penalties = None  # the edition's default
    if data.get("penalty_s") is not None:
        penalties = penalty_ms(data["penalty_s"])
    sound, warn_last10, tenths, locked = switches
    return left, right, quickplay, edition, sound, warn_last10, tenths, locked, penalties


def penalty_s(settings):
    """The penalty amounts as the file keeps them: seconds per class (None: the
    edition's default)."""
    if settings.penalty_ms is None:
        return None
    amounts = {}
    for index in range(len(claims.CLASSES)):
        amounts[claims.CLASSES[index]] = settings.penalty_ms[index] // 1000
    return amounts


def to_dict(settings):
    """The settings as the file keeps them."""
    data = {
        "control_left": settings.control_left,
        "control_right": settings.control_right,
        "quickplay": settings.quickplay,
        "edition": settings.edition,
        "sound": settings.sound,
        "warn_last10": settings.warn_last10,
        "tenths": settings.tenths,
        "locked": settings.locked,
        "brightness": settings.brightness,
    }
    if settings.penalty_ms is not None:
        data["penalty_s"] = penalty_s(settings)
    return data


def load(storage):
    """Read the settings from ``storage``; fall back to the defaults on any problem.

    A file the clock cannot use (firmware.boot.documents) is set aside as
    ``settings.json.bad``; ``error`` says why and ``error_code`` is the code the
    display shows at boot (``Err1`` or ``vEr1``).
    """
    from firmware.boot import documents  # boot alone reads files (docs/architecture.md)

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
