"""The setup menu's items and what the displays call them; the user slots on flash.

Texts use only characters a 7-segment digit can show (``frames.TEXT_CHARS``;
``S`` reads like ``5``). The user slots are ``slots.json``: ``{"1":
{"control_left": ..., "control_right": ...}, ...}``, written atomically by
``hal.storage``. Nothing here runs during a game.
"""

from micropython import const

from firmware import claims, files, timecontrol
from firmware.menu import control as menu_control
from firmware.menu import presets

SLOT_COUNT = const(9)

# The menu's items, in the order plus steps through them (labels as displayed).
ITEMS = (
    "PrE",  # a built-in preset
    "CUSt",  # a custom control with periods
    "HG",  # hourglass
    "JAP",  # Japanese byo-yomi
    "CAn",  # Canadian byo-yomi
    "LoAd",  # a user slot
    "SAvE",  # store the controls in force in a user slot
    "APPG",  # the quickplay-finish setting (Appendix G)
    "Ed",  # the edition of the claim rules
    "PEn",  # the quick penalty's minutes per class: standard, rapid, blitz
    "brIt",  # the displays' brightness, 1 to 16 sixteenths (docs/build.md)
    "bEEP",  # sound on/off
    "L 10",  # warning beeps in the last 10 s
    "tEn",  # tenths below 20 s
    "CAt",  # the class of the controls by the edition (read only)
    "LoC",  # lock
)
# A board with a network (docs/hall.md) has one more: its board number in the hall.
BOARD_ITEM = "bd"
HALL_ITEMS = ITEMS + (BOARD_ITEM,)
BUILDERS = {
    "CUSt": menu_control.PeriodsBuilder,
    "HG": menu_control.HourglassBuilder,
    "JAP": menu_control.JapaneseBuilder,
    "CAn": menu_control.CanadianBuilder,
}
SWITCHES = {"bEEP": "sound", "L 10": "warn_last10", "tEn": "tenths", "LoC": "locked"}
QUICKPLAY_TEXT = ("oFF", "G4 F", "G4 d", "G5", "G6")  # in the order of claims.QUICKPLAY
EDITION_TEXT = ("APPG", "2015", "oLd")  # in the order of claims.EDITIONS
CLASS_TEXT = {"blitz": "bLIt", "rapid": "rAPd", "standard": "StAn"}
# The quick penalty's amounts the menu offers, minutes per class (claims.CLASSES):
# the edition's default (None: shown ``d211`` or ``d221``), then by hand the current
# Laws (7.5.5, A.3, B.3), rapid as standard (earlier editions), all 2, all 1.
PENALTY_CHOICES = (None, (2, 1, 1), (2, 2, 1), (2, 2, 2), (1, 1, 1))
# The first preset of each group; a long press of plus/minus jumps between them.
PRESET_GROUPS = (1, 8, 15, 23, 31, 32, 34, 36)


def error_code(message):
    """A four-character reason for a refused control or setting."""
    for words, code in (
        ("no time", "t 0"),
        ("9:59:59", "10 H"),
        ("over 60", "60 S"),
        ("move count", "no"),
        ("without a move count", "no"),
        ("older edition", "oLd"),
        ("byo-yomi", "bYo"),
        ("hourglass", "HG"),
    ):
        if words in message:
            return code
    return "Err"


def class_text(control_text, edition):
    """``bLIt``, ``rAPd`` or ``StAn`` of a control by the edition's definition
    (``claims.classify``), ``Err`` if it is none."""
    try:
        return CLASS_TEXT[claims.classify(timecontrol.parse(control_text), edition)]
    except (ValueError, TypeError):
        return "Err"


def penalty_text(minutes, edition="appendix-g"):
    """`` 211``: the minutes of the standard, rapid and blitz penalty set by hand;
    ``d221``: ``minutes`` None, the edition's default."""
    if minutes is None:
        default = claims.PENALTY_DEFAULT_MS[claims.EDITIONS.index(edition)]
        return "d%d%d%d" % tuple(amount // 60_000 for amount in default)
    return " %d%d%d" % minutes


def penalty_choice(settings):
    """The index of the settings' penalty amounts in ``PENALTY_CHOICES``, or -1."""
    if settings.penalty_ms is None:
        return 0
    for index in range(1, len(PENALTY_CHOICES)):
        minutes = PENALTY_CHOICES[index]
        if all(minutes[k] * 60_000 == settings.penalty_ms[k] for k in range(3)):
            return index
    return -1


def penalty_file(choice):
    """Choice ``choice`` as the settings file keeps it (``penalty_s``; None: the
    edition's default)."""
    minutes = PENALTY_CHOICES[choice]
    if minutes is None:
        return None
    return {claims.CLASSES[k]: minutes[k] * 60 for k in range(3)}


def preset_of(settings):
    """The number of the preset the settings' controls are, or 0."""
    for number, _, left, right in presets.PRESETS:
        if left == settings.control_left and right == settings.control_right:
            return number
    return 0


def read_slots(storage):
    """The user slots, ``({"3": {"control_left": ...}, ...}, error)``: a missing file
    is no slots; an unreadable one is no slots and ``error`` says why."""
    try:
        data = storage.read_json(files.USER_SLOTS)
    except (OSError, ValueError) as error:
        return {}, "unreadable %s: %s" % (files.USER_SLOTS, error)
    slots = {}
    if isinstance(data, dict):
        for name in data:
            slot = data[name]
            if isinstance(slot, dict) and isinstance(slot.get("control_left"), str):
                slots[name] = slot
    return slots, None


def write_slot(storage, number, settings):
    """Store the controls of ``settings`` in slot ``number``; OSError if flash fails."""
    slots, _ = read_slots(storage)
    slots[str(number)] = {
        "control_left": settings.control_left,
        "control_right": settings.control_right,
    }
    storage.write_json(files.USER_SLOTS, slots)


def value_text(settings, name):
    """What the right display shows next to item ``name`` on the menu."""
    if name == "PrE":
        number = preset_of(settings)
        return presets.get(number)[1] if number else "----"
    if name == "APPG":
        return QUICKPLAY_TEXT[claims.QUICKPLAY.index(settings.quickplay)]
    if name == "Ed":
        return EDITION_TEXT[claims.EDITIONS.index(settings.edition)]
    if name == "CAt":  # the game's one class: the higher of the two sides'
        left = class_text(settings.control_left, settings.edition)
        right = class_text(settings.control_right, settings.edition)
        for text in ("StAn", "rAPd"):
            if text == left or text == right:
                return text
        return left
    if name == "PEn":
        choice = penalty_choice(settings)
        if choice < 0:
            return "----"
        return penalty_text(PENALTY_CHOICES[choice], settings.edition)
    if name == "brIt":
        return "%4d" % settings.brightness
    if name in SWITCHES:
        return "on" if getattr(settings, SWITCHES[name]) else "oFF"
    return ""


def choices(name):
    """How many values item ``name`` offers, and the number of the first."""
    if name == "PrE":
        return presets.count(), 1
    if name == "LoAd" or name == "SAvE":
        return SLOT_COUNT, 1
    if name == "APPG":
        return len(claims.QUICKPLAY), 0
    if name == "Ed":
        return len(claims.EDITIONS), 0
    if name == "PEn":
        return len(PENALTY_CHOICES), 0
    if name == "brIt":
        return 16, 1  # the HT16K33's dimming steps (firmware.settings_file)
    if name == BOARD_ITEM:
        return 9999, 1  # the hall's board numbers (firmware.hall_settings.MAX_BOARD)
    return 2, 0


def choice_text(name, choice, side, slots, edition="appendix-g"):
    """The text of value ``choice`` of item ``name`` on display ``side`` (0 left)."""
    if name == "PrE":
        return "P%3d" % choice if side == 0 else presets.get(choice)[1]
    if name == "LoAd" or name == "SAvE":
        if side == 0:
            return ("Ld %d" if name == "LoAd" else "Sv %d") % choice
        slot = slots.get(str(choice))
        return class_text(slot["control_left"], edition) if slot is not None else "----"
    if side == 0:
        return name
    if name == BOARD_ITEM or name == "brIt":
        return "%4d" % choice
    if name == "APPG":
        return QUICKPLAY_TEXT[choice]
    if name == "Ed":
        return EDITION_TEXT[choice]
    if name == "PEn":
        return penalty_text(PENALTY_CHOICES[choice], edition)
    return "on" if choice else "oFF"
