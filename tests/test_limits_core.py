"""The core's stated bounds at the limit and one past it (issue 36: far past proves
little): the readers of text from outside (a hall message's numbers, a document's
nesting, the hall file), the journal's fields at boot, the settings file, the user
slots and the unlock's 5 s. Each bound is taken from where it is stated (docs, the
constant's comment), and each side of it is asserted with the refusal it gives."""

import pytest

from firmware import (
    claims,
    engine,
    files,
    flat_json,
    hall_settings,
    journal,
    settings_file,
    strict_json,
    timecontrol,
)
from firmware.boot import documents, journal_read
from firmware.input_codes import KEY_MINUS, KEY_PLUS, KEY_SET
from firmware.menu import items, screens
from tests import records

# --- a hall message's numbers (firmware/flat_json.py, ``_MAX_DIGITS``) --------------


def test_a_number_of_the_most_digits_is_read_and_one_digit_more_is_refused():
    # "a hall message's numbers are below 2**30": the largest has 10 digits
    assert len(str(2**30 - 1)) == flat_json._MAX_DIGITS == 10
    most = "9" * flat_json._MAX_DIGITS
    assert flat_json.read_object(('{"n":%s}' % most).encode()) == {"n": int(most)}
    with pytest.raises(ValueError) as refused:
        flat_json.read_object(('{"n":%s}' % (most + "9")).encode())
    assert str(refused.value) == "a number of more than 10 digits at byte 5"


# --- a document's nesting (firmware/strict_json.py, ``_DEPTH``) ----------------------


@pytest.mark.parametrize("open_, close", [("[", "]"), ('{"k":', "}")])
def test_a_document_nested_16_deep_is_read_and_17_deep_refused(open_, close):
    # the module's docstring: "nested at most 16 deep"
    assert strict_json._DEPTH == 16
    deepest = open_ * strict_json._DEPTH + "0" + close * strict_json._DEPTH
    value = strict_json.loads(deepest)
    for _ in range(strict_json._DEPTH):
        value = value[0] if isinstance(value, list) else value["k"]
    assert value == 0
    deeper = open_ * (strict_json._DEPTH + 1) + "0" + close * (strict_json._DEPTH + 1)
    with pytest.raises(ValueError) as refused:
        strict_json.loads(deeper)
    assert str(refused.value) == "nested more than 16 deep"


# --- the hall file (firmware/hall_settings.py) ---------------------------------------

PEM = "-----BEGIN CERTIFICATE-----\n%s\n-----END CERTIFICATE-----\n"


def hall_file(**changes):
    data = {"broker": "192.168.1.10", "board": 12, "password": "pw", "ca": PEM % "A"}
    data.update(changes)
    return data


def pem_of(size):
    """A CA text of ``size`` characters, PEM-framed."""
    frame = len(PEM % "")
    return PEM % ("A" * (size - frame))


def hall_refusal(**changes):
    with pytest.raises(ValueError) as refused:
        hall_settings.Hall(hall_file(**changes))
    return str(refused.value)


def test_a_ca_of_4096_characters_is_taken_and_one_more_refused():
    # docs/hall.md: the hall's CA (PEM); the constant: at most 4096 characters
    assert hall_settings.MAX_CA == 4096
    ca = pem_of(hall_settings.MAX_CA)
    assert len(ca) == 4096 and hall_settings.Hall(hall_file(ca=ca)).ca == ca
    said = "ca must be a PEM certificate of at most 4096 characters"
    assert hall_refusal(ca=pem_of(hall_settings.MAX_CA + 1)) == said


def test_a_ca_that_is_not_a_pem_certificate_is_refused():
    # docs/hall.md: the CA as its PEM text; a DER's base64 without its frame, a key,
    # or a file name is no certificate, and the link would fail at every handshake
    said = "ca must be a PEM certificate of at most 4096 characters"
    body = pem_of(600).split("\n")[1]
    for ca in (body, "hall-ca.pem", "-----BEGIN PRIVATE KEY-----\n%s\n" % body):
        assert hall_refusal(ca=ca) == said, ca
    assert hall_settings.Hall(hall_file(ca=pem_of(600))).ca == pem_of(600)
    # plain MQTT, no CA at all: only to a broker on the loopback (off it, refused)
    assert hall_settings.Hall(hall_file(ca="", broker="127.0.0.1")).ca == ""
    assert hall_refusal(ca="") == "no ca: plain MQTT only to a broker on 127.0.0.1"


def test_a_board_number_is_1_to_9999():
    assert hall_settings.MAX_BOARD == 9999
    for board in (1, hall_settings.MAX_BOARD):
        assert hall_settings.Hall(hall_file(board=board)).board == board
    for board in (0, hall_settings.MAX_BOARD + 1):
        said = "board must be a whole number 1..9999, got %d" % board
        assert hall_refusal(board=board) == said


def test_a_port_is_1_to_65535():
    for port in (1, 65535):
        assert hall_settings.Hall(hall_file(port=port)).port == port
    for port in (0, 65536):
        assert hall_refusal(port=port) == "port must be 1..65535, got %d" % port


# --- a document's version (firmware/boot/documents.py, files.FORMAT_VERSION) --------


def test_a_documents_version_is_1_to_this_firmwares():
    for version in (1, files.FORMAT_VERSION):
        documents.check_version({"version": version})
    with pytest.raises(documents.Unusable) as newer:
        documents.check_version({"version": files.FORMAT_VERSION + 1})
    assert newer.value.kind == documents.NEWER
    with pytest.raises(documents.Unusable) as bad:
        documents.check_version({"version": 0})
    assert bad.value.kind == documents.BAD
    assert bad.value.why == "version 0 is not a version number"


# --- the journal's fields at boot (firmware/boot/journal_read.py) -------------------

MAX_MS = 2**30 - 1  # "a time the clock can hold: a small integer on a 32-bit board"
MAX_SHOWN_MS = 359_999_999  # 99:59:59.999, the most a correction leaves
MAX_GAME = 2**31 - 2  # a game id whose next one still fits the record's 32 bits


def test_the_journals_bounds_are_the_stated_ones():
    assert journal_read._MAX_MS == MAX_MS
    assert journal_read._MAX_SHOWN_MS == MAX_SHOWN_MS == claims._MAX_SHOWN_MS
    assert journal_read._MAX_GAME == MAX_GAME


def record(left, right=None):
    """A whole record of a game on controls ``left``/``right``, paused after a move,
    and the controls."""
    controls = (timecontrol.parse(left), timecontrol.parse(right or left))
    clock = engine.Clock(*controls)
    clock.press(1, 0)
    clock.press(0, 1000)
    clock.pause(1500)
    buf = bytearray(journal.RECORD_SIZE)
    records.encode(buf, 3, 7, clock, claims.Claims(clock, "off", "appendix-g"), 500, 0)
    return buf, controls


def side_at(index, field):
    return journal.SIDE_AT[index] + field


# (what, offset, size, lowest, highest, the refusal's words): times are 4 signed bytes
TIMES = [
    ("turn time", journal._TURN_AT, 0, MAX_MS, "turn time %d ms is no time"),
    ("left's time", side_at(0, journal._TIME_AT), 0, MAX_MS, "time %d ms is no time"),
    ("right's time", side_at(1, journal._TIME_AT), 0, MAX_MS, "time %d ms is no time"),
    ("left's block", side_at(0, journal._BLOCK_AT), 0, MAX_SHOWN_MS, "byo-yomi time %d ms"),
    ("right's block", side_at(1, journal._BLOCK_AT), 0, MAX_SHOWN_MS, "byo-yomi time %d ms"),
    ("G.6 left", journal._RECORD_LEFT_AT, 0, MAX_MS, "recorded time %d ms is no time"),
    ("G.6 right", journal._RECORD_RIGHT_AT, 0, MAX_MS, "recorded time %d ms is no time"),
]


def checked(buf, controls, at, value, size=4):
    """``journal_read.check`` of ``buf`` with ``value`` put at ``at``, sealed again."""
    buf = bytearray(buf)
    journal.put(buf, at, value, size)
    journal.seal(buf)
    assert journal_read.valid(buf)
    journal_read.check(buf, controls)


@pytest.mark.parametrize("what, at, lowest, highest, words", TIMES, ids=[t[0] for t in TIMES])
def test_a_journalled_time_is_taken_at_its_bounds_and_refused_past_them(
    what, at, lowest, highest, words
):
    buf, controls = record("300")
    for value in (lowest, highest):
        checked(buf, controls, at, value)
    for value in (lowest - 1, highest + 1):
        with pytest.raises(ValueError) as refused:
            checked(buf, controls, at, value)
        assert str(refused.value) == "journal entry: " + words % value


# (what, controls, offset, size, highest taken, the refusal's words): the codes and counts
BYO_LEFT = journal._BYO_LEFT_AT
FIELDS = [
    ("state", "300", journal._STATE_AT, 1, engine.OVER, "state %d"),
    ("first flag", "300", journal._FIRST_FLAG_AT, 1, 2, "first flag %d"),  # a side + 1
    ("result", "300", journal._RESULT_AT, 1, 1, "result or mode"),  # none, a draw
    ("mode", "300", journal._MODE_AT, 1, 2, "result or mode"),  # none, 0+5, 0d5
    ("flag bits", "300", side_at(0, journal._FLAGS_AT), 1, 15, "flag bits %d"),  # 4 bits
    ("period", "40/5400:1800", side_at(0, journal._PERIOD_AT), 1, 1, "period %d"),
    ("byo-yomi periods", "60j30x5", side_at(0, BYO_LEFT), 2, 5, "byo-yomi count"),
    ("Canadian moves", "60c20/300", side_at(1, BYO_LEFT), 2, 20, "byo-yomi count"),
]


@pytest.mark.parametrize(
    "what, control, at, size, highest, words", FIELDS, ids=[f[0] for f in FIELDS]
)
def test_a_journalled_field_is_taken_at_its_most_and_refused_one_past(
    what, control, at, size, highest, words
):
    buf, controls = record(control)
    checked(buf, controls, at, highest, size)
    with pytest.raises(ValueError) as refused:
        checked(buf, controls, at, highest + 1, size)
    shown = highest + 2 if what == "period" else highest + 1  # a period is named from 1
    assert str(refused.value) == "journal entry: " + (words % shown if "%" in words else words)


class Files:
    def __init__(self, header):
        self.header = header

    def read_bytes(self, name):
        assert name == files.JOURNAL_HEADER
        return self.header


def header_with(game):
    text = (
        '{"version": 1, "game": %d, "control_left": "300", "control_right": "300",'
        ' "quickplay": "off", "edition": "appendix-g"}' % game
    )
    return journal_read.read_header(Files(text.encode()))


def test_a_game_id_is_taken_up_to_the_last_whose_next_fits_32_bits():
    for game in (0, MAX_GAME):
        assert header_with(game)["game"] == game
    for game in (-1, MAX_GAME + 1):
        with pytest.raises(documents.Unusable) as refused:
            header_with(game)
        assert refused.value.why == "game.json: game id %d is no 32-bit id" % game


# --- the settings file (firmware/settings_file.py) -----------------------------------


@pytest.mark.parametrize("name", claims.CLASSES)
def test_a_penalty_is_1_to_600_s_in_each_class(name):
    # settings_file: penalty_s in whole seconds, "1 to 600"
    assert settings_file._MAX_PENALTY_S == 600
    amounts = {"standard": 120, "rapid": 60, "blitz": 60}
    for seconds in (1, settings_file._MAX_PENALTY_S):
        taken = settings_file.penalty_ms(dict(amounts, **{name: seconds}))
        assert taken[claims.CLASSES.index(name)] == seconds * 1000
    for seconds in (0, settings_file._MAX_PENALTY_S + 1):
        with pytest.raises(ValueError) as refused:
            settings_file.penalty_ms(dict(amounts, **{name: seconds}))
        assert str(refused.value) == "penalty_s: %s of %d s is not 1 to 600" % (name, seconds)


def test_a_brightness_is_1_to_16_sixteenths():
    # the HT16K33's dimming: 1/16 to 16/16 of full duty
    assert settings_file.BRIGHTNESS_STEPS == 16
    for step in (1, settings_file.BRIGHTNESS_STEPS):
        assert settings_file.brightness({"brightness": step}) == step
    for step in (0, settings_file.BRIGHTNESS_STEPS + 1):
        with pytest.raises(ValueError) as refused:
            settings_file.brightness({"brightness": step})
        assert str(refused.value) == "brightness %d is not 1 to 16" % step


def test_the_menus_offer_what_the_files_take():
    # the menu's lists end where the files' bounds do (docs/menus.md)
    assert items.choices("brIt") == (settings_file.BRIGHTNESS_STEPS, 1)
    assert items.choices(items.BOARD_ITEM) == (hall_settings.MAX_BOARD, 1)
    assert items.choices("LoAd") == items.choices("SAvE") == (items.SLOT_COUNT, 1)


# --- the menu: the user slots and the unlock (firmware/menu/) -------------------------


class Storage:
    def __init__(self):
        self.documents = {}

    def read_json(self, name):
        return self.documents.get(name)

    def write_json(self, name, data):
        self.documents[name] = data


class App:
    """What the menu screens ask of the app: the settings, the storage, the clock."""

    def __init__(self, locked=False):
        from firmware import settings as settings_module

        self.settings = settings_module.Settings()
        self.settings.apply({"control_left": "300", "locked": locked})
        self.clock = engine.Clock(timecontrol.parse("300"))
        self.store = Storage()

    def has_network(self):
        return False

    def storage(self):
        return self.store

    def keep_settings(self, settings):
        self.settings = settings

    def apply_settings(self, settings):
        self.settings = settings


def opened(name):
    """Menu screens with item ``name`` open, its first value chosen."""
    menu = screens.MenuScreens(App())
    menu.on_press(KEY_SET, 0)
    while menu.items[menu.item] != name:
        menu.on_press(KEY_PLUS, 0)
    menu.on_press(KEY_SET, 0)
    return menu


def test_nine_user_slots_the_ninth_saved_and_none_past_it():
    # docs/menus.md: "Nine slots", user slot 1-9
    assert items.SLOT_COUNT == 9
    menu = opened("SAvE")
    for _ in range(items.SLOT_COUNT - 1):
        menu.on_press(KEY_PLUS, 0)
    assert menu.choice == 9
    menu.on_press(KEY_PLUS, 0)
    assert menu.choice == 1  # past the ninth: the first again, never a tenth
    menu.on_press(KEY_MINUS, 0)
    assert menu.choice == 9
    menu.on_press(KEY_SET, 0)
    assert menu.texts == ("Sv 9", "donE")
    assert sorted(menu.app.store.documents[files.USER_SLOTS]) == ["9"]


UNLOCK_FROM = 10_000  # the long press of minus on a locked clock


def unlocked_after(plus_ms, tick_ms=None):
    """Whether a locked clock is unlocked by a long press of plus ``plus_ms`` after
    that of minus (the menu's tick at ``tick_ms`` after it, if given, in between)."""
    menu = screens.MenuScreens(App(locked=True))
    menu.on_long_press(KEY_MINUS, UNLOCK_FROM)
    if tick_ms is not None:
        menu.tick(UNLOCK_FROM + tick_ms)
    menu.on_long_press(KEY_PLUS, UNLOCK_FROM + plus_ms)
    return not menu.app.settings.locked


def test_the_unlock_takes_a_plus_5_s_after_minus_and_not_a_ms_later():
    # docs/menus.md: the second hold must reach its 2 s within 5 s of the first
    assert screens.UNLOCK_MS == 5000
    assert unlocked_after(screens.UNLOCK_MS)
    assert unlocked_after(screens.UNLOCK_MS, tick_ms=screens.UNLOCK_MS)
    assert not unlocked_after(screens.UNLOCK_MS + 1)
    assert not unlocked_after(screens.UNLOCK_MS + 1, tick_ms=screens.UNLOCK_MS + 1)


def built(counted):
    """A control of periods built on the menu, the first ``counted`` of them with a move
    count (the builder stops at a period without one, or at the last it offers)."""
    from firmware.input_codes import KEY_PLAY
    from firmware.menu import control as menu_control

    builder = menu_control.PeriodsBuilder()
    period = 0
    while not builder.done:
        period += 1
        builder.on_key(KEY_PLUS)  # a time: 10 minutes
        builder.on_key(KEY_PLAY)
        if period <= counted:
            builder.on_key(KEY_PLUS)  # 10 moves
        builder.on_key(KEY_PLAY)
        builder.on_key(KEY_PLAY)  # nothing added a move
    return builder.text()


def test_the_menu_builds_five_periods_and_offers_no_sixth():
    # docs/menus.md: "a move count of 0, or one on the last period (5 periods at most)"
    from firmware.menu import control as menu_control

    assert menu_control.MAX_PERIODS == 5
    five = built(menu_control.MAX_PERIODS - 1)
    assert five == "10/600:" * 4 + "600"
    assert len(timecontrol.parse(five).periods) == 5
    counted = built(menu_control.MAX_PERIODS)  # a count on the fifth: no sixth to follow
    assert counted == "10/600:" * 4 + "10/600"
    with pytest.raises(ValueError) as refused:
        timecontrol.parse(counted)
    assert items.error_code(str(refused.value)) == "no"


# --- what shows for 3 s (boot codes, the menu's and the arbiter's messages) -----------


def test_each_boot_code_shows_3_s_then_the_next():
    # firmware/notices.py: each shows for 3 s from the first step of the main loop
    from firmware.notices import SHOW_MS, Notices

    assert SHOW_MS == 3000
    notices = Notices()
    notices.add("Err1")
    notices.add("Err2")
    notices.tick(1000)  # the first step
    shown = []
    # the second from the first one's end, even where the step came a tick late
    for now in (
        1000 + SHOW_MS - 1,
        1000 + SHOW_MS + 20,
        1000 + 2 * SHOW_MS - 1,
        1000 + 2 * SHOW_MS,
    ):
        notices.tick(now)
        shown.append(notices.texts[0] if notices.active else None)
    assert shown == ["Err1", "Err2", "Err2", None]


def test_a_menu_message_shows_3_s():
    assert screens.MESSAGE_MS == 3000
    menu = screens.MenuScreens(App(locked=True))
    menu.on_press(KEY_SET, 1000)  # locked: "LoC | on"
    assert menu.screen == screens.MESSAGE and menu.texts == ("LoC", "on")
    menu.tick(1000 + screens.MESSAGE_MS - 1)
    assert menu.screen == screens.MESSAGE
    menu.tick(1000 + screens.MESSAGE_MS)
    assert menu.screen == screens.IDLE


def test_an_arbiters_refusal_shows_3_s():
    # docs/arbiter.md: the display says why, for 3 seconds
    from firmware import arbiter

    assert arbiter.MESSAGE_MS == 3000
    clock = engine.Clock(timecontrol.parse("300"))
    procedures = arbiter.Arbiter(clock, claims.Claims(clock, "off", "appendix-g"))
    procedures.refuse("bad-time", 1000)
    procedures.tick(1000 + arbiter.MESSAGE_MS - 1)
    assert procedures.screen == arbiter.MESSAGE
    procedures.tick(1000 + arbiter.MESSAGE_MS)
    assert procedures.screen == arbiter.IDLE
