"""No game starts while its journal's ring is prepared, on any board: the ring comes first.

A flash erase holds the main loop (45 to 50 ms typically, 0.4 s at most): on the
RP2040 the whole core (no display, no key stamped: boards/chips/rp2040.py), on
the ESP32 the levers' soft handlers too (a press inside it would be charged
late). So no erase may fall in a game (running or paused): the ring is sized to
what the time control can need, its blocks erased back to back before the
start, the first at boot, while the clock shows ``PrEP`` and the blocks left; a
start press meanwhile, or stamped at or before the first step after the last
block, is refused visibly (the arbiter's refusal: ``no`` and the reason for
3 s), never charged. The ideal simulated board's flash takes no time: its ring
is whole before any input is read. Issue 43, item 3; docs/power.md, "Before
the start".
"""

import pytest

import boards
from firmware import engine
from firmware.timecontrol import parse as parse_control
from hal import board_check, journal_setup
from sim.latency import chip_of
from sim.runner import Game
from sim.script import parse

TICK_MS = 20
FULL_RING_BLOCKS = 128  # boards/esp32.py, boards/pico.py


class _Clock:
    """What ``ring_need`` reads of a clock: each side's control."""

    def __init__(self, left, right=None):
        controls = (parse_control(left), parse_control(right or left))
        self.sides = [type("Side", (), {"control": control})() for control in controls]


def _game(control, board_name="esp32", latency=None):
    return Game(parse("control %s\n" % control), board_name=board_name, latency=latency)


def _prepared_at(game, limit_ms=60_000, step_ms=TICK_MS, now=0):
    """The first instant after ``now`` (on the step grid) at which no block is left to
    prepare."""
    while game.board.app.journal.start_wait():
        now += step_ms
        assert now <= limit_ms, "the ring is still being prepared after %d ms" % limit_ms
        game.run_to(now)
    return now


# --- the board's property ---------------------------------------------------------


@pytest.mark.parametrize("name", board_check.board_names())
def test_each_board_says_whether_its_levers_are_stamped_during_an_erase(name):
    """A board's ``LEVERS_STAMPED_IN_ERASE`` is its chip's data: an erase holds the pin
    handlers back on both chips (``FLASH_MASKS_INTERRUPTS``), and only the RP2040's
    PIO stamps the levers without the CPU (``PIO_LEVER_CAPTURE``, with the board's
    state machines named)."""
    board = boards.load(name)
    chip = chip_of(board)
    captured = chip.PIO_LEVER_CAPTURE and bool(getattr(board, "CAPTURE_MACHINES", None))
    assert board.LEVERS_STAMPED_IN_ERASE == (captured or not chip.FLASH_MASKS_INTERRUPTS)


# --- the ring's size --------------------------------------------------------------


def test_a_rapid_game_needs_a_ring_of_24_blocks():
    """15+10: each side can use 15 min + 100 x 10 s = 1,900 s, an entry every 4.9 s of
    it at most (388) and one a move (100): 976 entries, 22 blocks of 45, one more
    for pauses, flags and the arbiter's entries, one for the event log: 24, not the
    full ring of 128."""
    assert journal_setup.ring_need(_Clock("900+10"), FULL_RING_BLOCKS) == 24


def test_a_delay_runs_the_clock_without_charging_it():
    """15 min with a 10 s simple delay: each move may run 10 s more than it charges, as
    with 15+10: the same 24 blocks. Bronstein 10 s the same. Sudden death 15 min:
    2 x (100 + 184) = 568 entries, 13 blocks, 15."""
    assert journal_setup.ring_need(_Clock("900d10"), FULL_RING_BLOCKS) == 24
    assert journal_setup.ring_need(_Clock("900b10"), FULL_RING_BLOCKS) == 24
    assert journal_setup.ring_need(_Clock("900"), FULL_RING_BLOCKS) == 15


def test_a_classical_control_and_its_periods():
    """FIDE's classical control: 90 min for 40 moves, then 30 min, 30 s a move from the
    first: 100 moves take 2 h + 100 x 30 s = 10,200 s, 2,082 entries every 4.9 s, and
    100 moves: 2 x 2,182 = 4,364 entries, 97 blocks, 99. With the 30 s from move 41
    only: 9,000 s, 1,837 entries, 2 x 1,937 = 3,874, 87 blocks, 89."""
    assert journal_setup.ring_need(_Clock("40/5400+30:1800+30"), FULL_RING_BLOCKS) == 99
    assert journal_setup.ring_need(_Clock("40/5400:1800+30"), FULL_RING_BLOCKS) == 89


def test_an_hourglass_takes_the_whole_ring():
    """The time one side uses goes to the other: a game's running time has no bound."""
    assert journal_setup.ring_need(_Clock("*300"), FULL_RING_BLOCKS) == FULL_RING_BLOCKS


def test_the_ring_stops_at_the_boards_maximum():
    """13,401 s a side needs exactly 128 blocks (2 x (100 + 2,735) = 5,670 entries, 126
    blocks, and two); 13,402 s needs 129 (2 x (100 + 2,736) = 5,672 entries, 127, and
    two): the board's 128 at most."""
    assert journal_setup.ring_need(_Clock("13401"), FULL_RING_BLOCKS) == 128
    assert journal_setup.ring_need(_Clock("13401"), 200) == 128
    assert journal_setup.ring_need(_Clock("13402"), 200) == 129
    assert journal_setup.ring_need(_Clock("13402"), FULL_RING_BLOCKS) == FULL_RING_BLOCKS


def test_two_controls_add_both_sides_needs():
    """Time odds: 900+10 against 300: 488 + (100 + 62) = 650 entries, 15 blocks, 17."""
    assert journal_setup.ring_need(_Clock("900+10", "300"), FULL_RING_BLOCKS) == 17


# --- the preparation before the start -----------------------------------------------


@pytest.mark.parametrize("name", ["esp32", "pico"])
def test_the_board_shows_the_preparation_and_the_blocks_left(name):
    """At power-on, with the chip's typical figures: the first of the 24 blocks of a
    15+10 ring erased at boot, then ``PrEP`` on the left and the 23 left on the right,
    counting down, one block a main-loop step; then the times."""
    game = _game("900+10", name, "typical")
    try:
        assert dict(game.values())["display"] == "PrEP|  23"
        game.run_to(300)
        shown = dict(game.values())["display"]
        assert shown.startswith("PrEP|") and 0 < int(shown[5:]) < 23
        ready = _prepared_at(game, now=300)
        game.run_to(ready + 1_000)
        assert dict(game.values())["display"] == "15.10|15.10"
        store = game.board.app.journal.store
        assert len(store.ring.blocks) == 24 and not store.is_preparing()
    finally:
        game.close()


@pytest.mark.parametrize("name", ["esp32", "pico"])
def test_a_press_during_the_preparation_is_refused_visibly_and_starts_nothing(name):
    """A lever at 100 ms: the game does not start, nothing is charged, and the displays
    say ``no`` and ``PrEP`` (the arbiter's refusal) for 3 s from the step that takes
    the press (the block under way ends first: at most a block's erase and its work
    at the port's pace, ~0.1 s); a press once the times show starts the game at its
    edge."""
    game = _game("900+10", name, "typical")
    try:
        game.run_to(100)
        game.act("press", ["right"])
        game.run_to(300)
        values = dict(game.values())
        assert values["state"] == "setup" and values["moves"] == "0"
        assert values["display"] == "no  |PrEP"
        assert (values["left"], values["right"]) == (910_000, 910_000)
        game.run_to(3_400)
        assert dict(game.values())["display"] == "15.10|15.10"
        game.act("press", ["right"])
        game.run_to(4_400)
        values = dict(game.values())
        assert values["state"] == "running" and values["running"] == "left"
        assert values["left"] == 909_000 and values["right"] == 910_000
    finally:
        game.close()


@pytest.mark.parametrize("name", ["esp32", "pico"])
def test_a_rapid_game_waits_under_3_s_at_the_typical_figures(name):
    """24 blocks, each a sector erase (45 ms on the Pico's W25Q16JV, 50 ms on the
    GD25Q32C), its page programs and the work around it (the Pico's at the port's
    pace, ``ERASE_CPU_US``), back to back, then the ring located once: under 3 s
    (issue 43's goal), where the Pico's ring at a block every 1.16 s took 28 s."""
    game = _game("900+10", name, "typical")
    try:
        ready = _prepared_at(game, step_ms=10)
        held = game.board.latency.busy_until_ms()
    finally:
        game.close()
    assert 24 * 45 <= ready <= max(ready, held) <= 3_000


@pytest.mark.parametrize("name", ["esp32", "pico"])
def test_a_press_inside_the_last_blocks_erase_is_refused_not_charged(name):
    """At the maxima each block's erase holds the main loop 0.4 s. A lever closed 100 ms
    into the last block's erase (the PIO stamps it there on the Pico; the ESP32's
    handler when the erase is over) falls before the first step after the last block:
    that press must not start the game (the core was erasing, and on the ESP32 it would
    be charged some 300 ms late): it is refused, and the next press starts it."""
    game = _game("300", name, "max")
    try:
        store = game.board.app.journal.store
        now = 0
        while store.start_wait() > 1:
            now += 1
            game.run_to(now)
        while store.start_wait():
            now += 1
            game.run_to(now)
        erase_end = game.board.latency.busy_until_ms()
        assert erase_end - now >= 400  # the pass that adds the last block, in its erase
        game.run_to(now + 100)
        game.act("hold", ["lever_right", 600])
        game.run_to(erase_end + 700)
        values = dict(game.values())
        assert values["state"] == "setup" and values["moves"] == "0"
        assert values["display"] == "no  |PrEP"
        game.act("press", ["right"])
        game.run_to(erase_end + 1_700)
        values = dict(game.values())
        assert values["state"] == "running" and values["left"] == 299_000
    finally:
        game.close()


@pytest.mark.parametrize("name", ["esp32", "pico"])
def test_a_restored_game_is_not_held_by_a_preparation(name):
    """A game that comes back after a power cut goes on with its ring: no erase while
    it stands paused, and ``play`` resumes it at once."""
    game = _game("300", name, "typical")
    try:
        ready = _prepared_at(game) + 1_000
        game.run_to(ready)
        game.act("press", ["right"])
        game.run_to(ready + 1_000)
        game.act("press", ["left"])
        game.run_to(ready + 2_000)
        game.act("power", ["off"])
        game.run_to(ready + 3_000)
        erases = game.board.latency.erases
        game.act("power", ["on"])
        store = game.board.app.journal.store
        assert game.board.app.clock.state == engine.PAUSED
        assert not store.is_preparing() and game.board.app.journal.start_wait() == 0
        game.run_to(ready + 6_100)
        game.act("key", ["play"])
        game.run_to(ready + 6_200)
        assert dict(game.values())["state"] == "running"
        assert game.board.latency.erases == erases  # not one at the boot, nor paused
    finally:
        game.close()


@pytest.mark.parametrize("name", ["sim", "pico", "esp32"])
def test_the_ideal_board_starts_at_once(name):
    """Without the chip's latencies the flash takes no time: the ring, sized to the
    control (at most the board's), is whole at power-on, no preparation screen is
    shown, and a press at once starts the game."""
    game = _game("900+10", board_name=name)
    try:
        store = game.board.app.journal.store
        assert store.wanted == min(24, boards.load(name).JOURNAL_RING_BLOCKS)
        assert len(store.ring.blocks) == store.wanted
        assert game.board.app.journal.start_wait() == 0
        assert dict(game.values())["display"] == "15.10|15.10"
        game.act("press", ["right"])
        game.run_to(100)
        assert dict(game.values())["state"] == "running"
    finally:
        game.close()


def test_a_sample_of_the_benchs_games_on_the_esp32_at_the_maxima():
    """bench/chip.py's method on a sample: four games of 3600+5 started 0 and 30 s after
    power-on and after a new game's setup, at the esp32's maxima. A start press while
    the ring is prepared is refused and pressed again 0.5 s later; every press of
    play is charged within the issue's goal (3.5 ms) and none is lost. The ring of
    44 blocks (2 x (100 + 837) entries, 42 blocks, and two) takes at least its
    erases, 44 x 0.4 s = 17.6 s, and less than 0.5 s a block with its page programs
    and the ring's one scan."""
    from bench.chip import play

    errors, counted = play("esp32", "max", presses=100, games=4)
    assert len(errors) >= 96
    assert max(errors) <= 3.5 and counted["presses_lost"] == 0
    assert counted["erases_in_play"] == 0
    assert counted["starts_refused"] >= 1
    assert 17_600 <= counted["longest_start_wait_ms"] < 22_000


def test_a_longer_control_chosen_in_setup_grows_the_ring_before_the_start():
    """The ring of 5 min (10 blocks: 2 x (100 + 62) entries, 8 blocks, and two) is
    ready; 15+10 chosen then needs 24: ``PrEP`` with the 14 blocks left (one erased in
    the step that set the game up, which lasts about 0.3 s on the port: the settings
    and the header written, the ring's first block), and a start press is refused
    until they are."""
    from firmware.settings import Settings

    game = _game("300", "pico", "typical")
    try:
        ready = _prepared_at(game) + 1_000
        game.run_to(ready)
        store = game.board.app.journal.store
        assert len(store.ring.blocks) == 10
        settings = Settings()
        settings.control_left = settings.control_right = "900+10"
        game.board.app.apply_settings(settings)
        game.run_to(ready + TICK_MS)
        assert store.wanted == 24
        game.run_to(ready + 400)
        assert dict(game.values())["display"].startswith("PrEP|  1")
        game.act("press", ["right"])
        game.run_to(ready + 500)
        assert dict(game.values())["state"] == "setup"
        _prepared_at(game, now=ready + 500)
        assert len(store.ring.blocks) == 24
    finally:
        game.close()


def test_the_benchs_figures_meet_the_goals_on_the_pico_over_littlefs():
    """bench/preparation.py on the pico's model over the real littlefs: a rapid game
    (15+10, 24 blocks) waits under 3 s from a new game's setup at the typical figures,
    and a game in progress at the maxima has no erase and no frame later than 50 ms
    after the one before (a 20 ms tick and a page program, I2C frames)."""
    from bench import preparation

    wait_ms, blocks = preparation.wait_to_start("pico", "rp2", "typical", "900+10")
    assert blocks == 24 and 24 * 45 <= wait_ms <= preparation.GOAL_RAPID_WAIT_MS
    hold_ms, erases = preparation.game_holds("pico", "rp2", "max")
    assert erases == 0 and preparation.TICK_MS + hold_ms <= preparation.GOAL_GAP_MS


def _burst_at_the_end_of_the_preparation(offset_ms, board_name="pico", latency="max"):
    """A lever burst as the ring's last block is prepared (left, then right 50 ms
    later, inside its erase and scan), then left again ``offset_ms`` after the first
    step past the last block (``App.ready_at``, the refusal's edge). The values 1 s on,
    and the edge."""
    game = _game("300", board_name, latency)
    try:
        app = game.board.app
        now = 0
        while app.journal.start_wait():
            now += 1
            game.run_to(now)
        busy = game.board.latency.busy_until_ms() if latency else now
        game.run_to(busy - 100)
        game.act("hold", ["lever_left", 30])
        game.run_to(busy - 50)
        game.act("hold", ["lever_right", 30])
        now = busy - 50
        ready = None
        while ready is None:
            now += 1
            game.run_to(now)
            ready = app.ready_at
        game.run_to(max(now, ready + offset_ms))
        game.act("hold", ["lever_left", 30])
        game.run_to(ready + 1_000)
        return dict(game.values()), ready
    finally:
        game.close()


def test_a_lever_burst_as_the_preparation_ends_starts_the_game_just_past_the_edge():
    """The Pico at the maxima (issue 44's lead: a lever burst in setup during the ring's
    preparation started no game where the ideal board started one). The presses of the
    burst inside the last block's erase are refused (``no`` / ``PrEP``), as is one
    stamped at the first step after it; one a millisecond later starts the game at its
    edge, the message still up: left pressed, right runs from it, 0.999 s at 1 s."""
    values, _ready = _burst_at_the_end_of_the_preparation(0)
    assert values["state"] == "setup" and values["display"] == "no  |PrEP"
    assert (values["left"], values["right"]) == (300_000, 300_000)
    values, _ready = _burst_at_the_end_of_the_preparation(1)
    assert values["state"] == "running" and values["running"] == "right"
    assert (values["left"], values["right"]) == (300_000, 299_001)


def test_the_timed_entries_are_rounded_up():
    """An entry every 4.9 s of running time: 58 s a side is 11.8 of them, 12 (2 x 112 =
    224 entries, 5 blocks, one for the setup's: 6, and the event block: 7); 59 s is
    12.04, 13 (2 x 113 = 226 entries: 6 blocks, 7, and 8), where rounding down would
    leave the 13th entry no slot."""
    assert journal_setup.ENTRY_EVERY_MS == 4_900 and journal_setup.SLOTS_PER_BLOCK == 45
    assert journal_setup.ring_need(_Clock("58"), FULL_RING_BLOCKS) == 7
    assert journal_setup.ring_need(_Clock("59"), FULL_RING_BLOCKS) == 8
