"""What the manuals state about the firmware's times and counts, checked against its
constants: the long press, the unlock's window, the user slots, the brightness
steps and default, tenths below 20 s, the last seconds' warning, the running
point's blink, the battery mark's schedule, the boot notices' time and the buzzer's
tones (the flags, the warning, a control passed).

A fact a manual states more than once (``hold `set` 2 s`` in three manuals) is
checked at every place (``Every``). Each check was seen failing on a wrong value
written into its document (tests/manual_facts.py makes each value wrong in memory).
"""

import pytest

from firmware import battery_mark, frames, input_codes, notices, settings, settings_file, sound
from firmware.menu import items, screens
from tests.manual_facts import Every, Fact


def seconds(ms):
    return "%g" % (ms / 1000)


def tones(pattern):
    """(tones, their seconds, their kHz) of a buzzer pattern of (Hz, ms) pairs (0 Hz:
    a rest); every tone of it alike."""
    sounding = {(pattern[i], pattern[i + 1]) for i in range(0, len(pattern), 2) if pattern[i]}
    assert len(sounding) == 1, pattern
    ((hertz, ms),) = sounding
    count = sum(1 for i in range(0, len(pattern), 2) if pattern[i])
    return count, seconds(ms), "%g" % (hertz / 1000)


NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four"}


def _flags():
    first, ms, khz = tones(sound.FIRST_FLAG)
    later, later_ms, later_khz = tones(sound.LATER_FLAG)
    assert (later_ms, later_khz) == (ms, khz)
    return NUMBERS[first], ms, khz, NUMBERS[later]


LONG_S = seconds(input_codes.LONG_PRESS_MS)

FACTS = [
    Every(doc, r"\bhold `(?:set|plus|minus)` (\d+) s\b", lambda: (LONG_S,), doc + ": long press")
    for doc in ("docs/menus.md", "docs/arbiter.md", "docs/quick-card.md")
] + [
    Fact("docs/menus.md", r"is known to be short \(at its release\) or long \(held (\d+) s\)",
         lambda: (LONG_S,)),
    Fact("docs/menus.md", r"the second hold must reach its \d+ s within (\d+) s of the first",
         lambda: (seconds(screens.UNLOCK_MS),)),
    Every("docs/menus.md", r"user slot 1–(\d+)", lambda: (items.SLOT_COUNT,)),
    Fact("docs/menus.md", r"^\| `brIt` \| `   1` to `  (\d+)` \| .*?`   (\d+)`, the default",
         lambda: (settings_file.BRIGHTNESS_STEPS, settings.DEFAULT_BRIGHTNESS)),
    Fact("docs/menus.md", r"^\| `L 10` \| `on` / `oFF` \| warning beeps in the last (\d+) s",
         lambda: (sound._WARN_FROM_S,)),
    Fact("docs/menus.md", r"^\| `tEn` \| `on` / `oFF` \| tenths of a second below (\d+) s",
         lambda: (frames.TENTHS_BELOW // 10,)),
    Fact("docs/display.md", r"^### Tenths below (\d+) seconds",
         lambda: (frames.TENTHS_BELOW // 10,)),
    Fact("docs/display.md", r"^under (\d+) s \(after rounding up to the tenth\)",
         lambda: (frames.TENTHS_BELOW // 10,)),
    Fact("docs/display.md", r"lit in the second half of every second of the turn \(dark for"
         r" ([\d.]+) s right after", lambda: (seconds(frames._BLINK_ON_MS),)),
    Fact("docs/display.md", r"before the start and while paused only: (\d+) s at once, then (\d+)"
         r" s in every (\d+) s", lambda: (seconds(battery_mark.FIRST_MS),
                                          seconds(battery_mark.SHOW_MS),
                                          seconds(battery_mark.CYCLE_MS))),
    Fact("docs/display.md", r"With sound on, a short tone \(([\d.]+) kHz, ([\d.]+) s\) at the move",
         lambda: tones(sound.PASSED)[:0:-1]),
    Fact("docs/boards.md", r"the game's first flag (\w+) tones of ([\d.]+) s at (\d+) kHz,"
         r" any later flag (\w+);", _flags),
    Fact("docs/boards.md", r"with the setting `warn_last10` a (\d+) ms beep at (\d+) kHz",
         lambda: (sound.WARNING[1], "%g" % (sound.WARNING[0] / 1000))),
    Fact("docs/quick-card.md", r"After a power cut the clock says `rESt`\s+for (\d+) s",
         lambda: (seconds(notices.SHOW_MS),)),
]  # fmt: skip


@pytest.mark.parametrize("fact", FACTS, ids=repr)
def test_the_manual_states_what_the_firmware_does(fact):
    assert fact.check() == []


@pytest.mark.parametrize("fact", FACTS, ids=repr)
def test_each_value_stated_wrong_is_caught(fact):
    assert fact.wrongs_missed() == []
