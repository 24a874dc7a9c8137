"""The ESP32 is never silently late: no game starts while its journal's ring is prepared.

On the ESP32 a flash erase (up to 0.4 s) holds the levers' soft pin handlers
back and nothing else stamps them (boards/chips/esp32.py), so a press that
starts a game inside an erase would be charged late. Issue 33, item 4: while
the ring is being prepared the clock shows a preparation screen and does not
start a game; the blocks are erased back to back; the ring is sized to what
the time control can need (a rapid game waits about a second, not the 48 s
of a full ring of 96 blocks at 0.5 s each); a press meanwhile is refused
visibly (the arbiter's refusal: ``no`` and the reason for 3 s), not charged
late. The RP2040 boards, whose PIO stamps the levers during an erase, and the
ideal ``sim`` board keep preparing their whole ring while the clock stands,
and a game may start at any time.
"""

import pytest

import boards
from firmware import engine
from firmware.timecontrol import parse as parse_control
from hal import journal_setup
from sim.latency import chip_of
from sim.runner import Game
from sim.script import parse

TICK_MS = 20
FULL_RING_BLOCKS = 96  # boards/esp32.py, boards/pico.py


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


@pytest.mark.parametrize("name", ["pico", "pico_w", "pico_big", "esp32"])
def test_each_board_says_whether_its_levers_are_stamped_during_an_erase(name):
    """A board's ``LEVERS_STAMPED_IN_ERASE`` is its chip's data: an erase holds the pin
    handlers back on both chips (``FLASH_MASKS_INTERRUPTS``), and only the RP2040's
    PIO stamps the levers without the CPU (``PIO_LEVER_CAPTURE``, with the board's
    state machines named)."""
    board = boards.load(name)
    chip = chip_of(board)
    captured = chip.PIO_LEVER_CAPTURE and bool(getattr(board, "LEVER_CAPTURE_MACHINES", None))
    assert board.LEVERS_STAMPED_IN_ERASE == (captured or not chip.FLASH_MASKS_INTERRUPTS)


def test_only_the_esp32_prepares_its_ring_before_a_game_may_start():
    assert boards.load("esp32").LEVERS_STAMPED_IN_ERASE is False
    assert boards.load("sim").LEVERS_STAMPED_IN_ERASE is True  # the ideal board


# --- the ring's size --------------------------------------------------------------


def test_a_rapid_game_needs_a_ring_of_23_blocks():
    """15+10: each side can use 15 min + 100 x 10 s = 1,900 s, an entry every 4.9 s of
    it at most (388) and one a move (100): 976 entries, 22 blocks of 45, and one more
    for pauses, flags and the arbiter: 23, not the full ring of 96."""
    assert journal_setup.ring_need(_Clock("900+10"), FULL_RING_BLOCKS) == 23


def test_a_delay_runs_the_clock_without_charging_it():
    """15 min with a 10 s simple delay: each move may run 10 s more than it charges, as
    with 15+10: the same 23 blocks. Sudden death 15 min: 2 x (100 + 184) = 568
    entries, 13 blocks, 14."""
    assert journal_setup.ring_need(_Clock("900d10"), FULL_RING_BLOCKS) == 23
    assert journal_setup.ring_need(_Clock("900"), FULL_RING_BLOCKS) == 14


def test_an_hourglass_takes_the_whole_ring():
    """The time one side uses goes to the other: a game's running time has no bound."""
    assert journal_setup.ring_need(_Clock("*300"), FULL_RING_BLOCKS) == FULL_RING_BLOCKS


def test_the_ring_stops_at_the_boards_maximum():
    """9,898 s a side needs exactly 96 blocks (2 x (100 + 2,020) = 4,240 entries, 95
    blocks, and one); 10,045 s needs 97 (2 x (100 + 2,050) = 4,300 entries, 96, and
    one): the board's 96 at most."""
    assert journal_setup.ring_need(_Clock("9898"), FULL_RING_BLOCKS) == 96
    assert journal_setup.ring_need(_Clock("9898"), 200) == 96
    assert journal_setup.ring_need(_Clock("10045"), 200) == 97
    assert journal_setup.ring_need(_Clock("10045"), FULL_RING_BLOCKS) == FULL_RING_BLOCKS


def test_a_bronstein_delay_runs_the_clock_as_a_simple_delay_does():
    """15 min with a 10 s Bronstein delay: a move may run 10 s more than it charges (the
    delay given back), as with 900d10: 23 blocks, not the 14 of 15 min alone."""
    assert journal_setup.ring_need(_Clock("900b10"), FULL_RING_BLOCKS) == 23


def test_the_timed_entries_are_rounded_up():
    """An entry every 4.9 s of running time: 58 s a side is 11.8 of them, 12 (2 x 112 =
    224 entries, 5 blocks, and one: 6); 59 s is 12.04, 13 (2 x 113 = 226 entries: 6
    blocks, and one: 7), where rounding down would leave the 13th entry no slot."""
    assert journal_setup.ENTRY_EVERY_MS == 4_900 and journal_setup.SLOTS_PER_BLOCK == 45
    assert journal_setup.ring_need(_Clock("58"), FULL_RING_BLOCKS) == 6
    assert journal_setup.ring_need(_Clock("59"), FULL_RING_BLOCKS) == 7


def test_two_controls_add_both_sides_needs():
    """Time odds: 900+10 against 300: 488 + (100 + 62) = 650 entries, 15 blocks, 16."""
    assert journal_setup.ring_need(_Clock("900+10", "300"), FULL_RING_BLOCKS) == 16


# --- the preparation before the start -----------------------------------------------


def test_the_esp32_shows_the_preparation_and_the_blocks_left():
    """At power-on: ``PrEP`` on the left, the 23 blocks of a 15+10 ring on the right;
    the blocks are erased back to back, one a main-loop pass (20 ms apart on the ideal
    board, not 0.5 s): the times show within 23 passes."""
    game = _game("900+10")
    try:
        assert dict(game.values())["display"] == "PrEP|  23"
        game.run_to(200)
        shown = dict(game.values())["display"]
        assert shown.startswith("PrEP|") and 0 < int(shown[5:]) < 23
        ready = _prepared_at(game, now=200)
        assert ready <= 23 * TICK_MS
        game.run_to(ready + TICK_MS)
        assert dict(game.values())["display"] == "15.10|15.10"
        store = game.board.app.journal.store
        assert len(store.blocks) == 23 and not store.is_preparing()
    finally:
        game.close()


def test_a_press_during_the_preparation_is_refused_visibly_and_starts_nothing():
    """A lever at 100 ms: the game does not start, nothing is charged, and the displays
    say ``no`` and ``PrEP`` (the arbiter's refusal) for 3 s; a press once the times
    show starts the game at its edge."""
    game = _game("900+10")
    try:
        game.run_to(100)
        game.act("press", ["right"])
        game.run_to(200)
        values = dict(game.values())
        assert values["state"] == "setup" and values["moves"] == "0"
        assert values["display"] == "no  |PrEP"
        assert (values["left"], values["right"]) == (910_000, 910_000)
        game.run_to(3_200)
        assert dict(game.values())["display"] == "15.10|15.10"
        game.act("press", ["right"])
        game.run_to(4_200)
        values = dict(game.values())
        assert values["state"] == "running" and values["running"] == "left"
        assert values["left"] == 909_000 and values["right"] == 910_000
    finally:
        game.close()


def test_a_rapid_game_waits_about_a_second_at_the_esp32s_typical_figures():
    """23 blocks, each a 50 ms sector erase (GD25Q32C, typical) and its page programs,
    back to back: about a second (under 2 s), where the full ring at a block every
    0.5 s took 48 s."""
    game = _game("900+10", latency="typical")
    try:
        ready = _prepared_at(game, step_ms=10)
    finally:
        game.close()
    assert 23 * 50 <= ready <= 2_000


def test_a_press_inside_the_last_blocks_erase_is_refused_not_charged_late():
    """At the maxima each block's erase holds the main loop 0.4 s. A lever closed 100 ms
    into the last block's erase is stamped when its handler runs, after the erase,
    once no block is left: that press must not start the game (it would be charged
    some 300 ms late): it is refused, and the next press starts it."""
    game = _game("300", latency="max")
    try:
        store = game.board.app.journal.store
        now = 0
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


@pytest.mark.parametrize("after_ms", [0, 1])
def test_a_lever_stamped_at_the_tick_the_ring_is_ready_is_refused_and_a_ms_later_starts(after_ms):
    """The step that finds the last block added is ``ready_at``: a lever stamped at that
    very tick may have waited for the erase (its handler ran once it was over), so it is
    refused; one stamped a millisecond after it starts the game at its edge."""
    game = _game("300")
    try:
        app = game.board.app
        now = 0
        while app.ready_at is None:  # a pass every ms: the first step with no block left
            now += 1
            assert now <= 1_000
            game.run_to(now)
        assert app.journal.start_wait() == 0 and app.ready_at == now
        game.run_to(now + after_ms)
        game.act("press", ["right"])
        game.run_to(now + 500)
        values = dict(game.values())
        if after_ms == 0:
            assert values["state"] == "setup" and values["display"] == "no  |PrEP"
            assert values["left"] == 300_000
        else:  # left runs from the press's edge
            assert values["state"] == "running" and values["left"] == 300_000 - 499
    finally:
        game.close()


def test_a_restored_game_is_not_held_by_a_preparation():
    """A game that comes back after a power cut goes on with its ring: no erase while
    it stands paused, and ``play`` resumes it at once."""
    game = _game("300")
    try:
        ready = _prepared_at(game)
        game.run_to(ready + 100)
        game.act("press", ["right"])
        game.run_to(ready + 1_100)
        game.act("press", ["left"])
        game.run_to(ready + 2_000)
        game.act("power", ["off"])
        game.run_to(ready + 3_000)
        game.act("power", ["on"])
        store = game.board.app.journal.store
        assert game.board.app.clock.state == engine.PAUSED
        assert not store.is_preparing() and store.start_wait() == 0
        game.run_to(ready + 6_100)
        game.act("key", ["play"])
        game.run_to(ready + 6_200)
        assert dict(game.values())["state"] == "running"
    finally:
        game.close()


@pytest.mark.parametrize("name", ["sim", "pico"])
def test_the_rp2040_boards_and_the_ideal_board_start_at_once(name):
    """A press at power-on starts the game there: the levers are stamped during an
    erase, so the ring is prepared whole (``JOURNAL_RING_BLOCKS``), a block every
    0.5 s, while the clock stands, and no preparation screen is shown."""
    game = _game("900+10", board_name=name)
    try:
        store = game.board.app.journal.store
        assert store.wanted == boards.load(name).JOURNAL_RING_BLOCKS
        assert store.start_wait() == 0
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
    43 blocks (2 x (100 + 837) entries, 42 blocks, and one) takes at least its
    erases, 43 x 0.4 s = 17.2 s, and less than 0.5 s a block with its 16 page
    programs (3.2 ms each): under 21.5 s, where the full ring at a block every
    0.5 s took 48 s."""
    from bench.chip import play

    errors, counted = play("esp32", "max", presses=100, games=4)
    assert len(errors) >= 96
    assert max(errors) <= 3.5 and counted["presses_lost"] == 0
    assert counted["erases_in_play"] == 0
    assert counted["starts_refused"] >= 1
    assert 17_200 <= counted["longest_start_wait_ms"] < 21_500


def test_a_longer_control_chosen_in_setup_grows_the_ring_before_the_start():
    """The ring of 5 min (9 blocks: 2 x (100 + 62) entries, 8 blocks, and one) is ready;
    15+10 chosen then needs 23: ``PrEP`` with the 14 blocks left, and a start press is
    refused until they are erased."""
    from firmware.settings import Settings

    game = _game("300")
    try:
        ready = _prepared_at(game)
        store = game.board.app.journal.store
        assert len(store.blocks) == 9
        settings = Settings()
        settings.control_left = settings.control_right = "900+10"
        game.board.app.apply_settings(settings)
        game.run_to(ready + TICK_MS)
        assert store.wanted == 23
        game.run_to(ready + 2 * TICK_MS)
        assert dict(game.values())["display"].startswith("PrEP|  1")
        game.act("press", ["right"])
        game.run_to(ready + 100)
        assert dict(game.values())["state"] == "setup"
        _prepared_at(game, now=ready + 100)
        assert len(store.blocks) == 23
    finally:
        game.close()
