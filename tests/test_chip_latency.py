"""The chips' latencies on the simulated board (sim/latency.py), and the clock against them.

The model's own figures are checked against the datasheets and the bus
(boards/chips/), and its rule: on the rp2 only a flash call (interrupts
off) holds a pin handler back, on the esp32 (soft handlers) any C call.
Then the clock is played on the model: a press must be charged at its
lever's edge on the chip too: the journal's entries are page programs
into its ring, prepared before the start (docs/power.md), and no erase
falls in a game; the hall link's socket calls are each short and its
messages bring no collection. An erase put in play by hand (as littlefs's
would be) shows what the chips would do with one: the rp2's PIO stamps the
levers at their edges (hal/capture.py; docs/power.md, "What a chip can
delay"), its pin handler alone (``capture=False``) when the erase ends.
"""

import os
import subprocess
import sys

import pytest

import boards
from sim.latency import ChipLatency
from sim.runner import Game
from sim.script import parse
from tests.scripting import run_once

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPLIES_SET_UP = os.path.join(ROOT, "tests", "chip", "replies-after-setup.clock")
LONG_THINKS_SET_UP = os.path.join(ROOT, "tests", "chip", "long-thinks-after-setup.clock")
SETUP_MS = 60_000  # the journal's ring is ready long before (a start is refused till then)


def _model(board_name, level="typical"):
    return ChipLatency(boards.load(board_name), level)


# --- the model -------------------------------------------------------------


def test_an_i2c_frame_takes_its_bits_at_the_bus_clock():
    """A display frame: the address and 17 bytes, 9 bits each, a start and a stop:
    164 bits at 400 kHz are 410 us."""
    model = _model("esp32")
    model.begin_pass(1000)
    model.i2c_frame(400_000, 17)
    assert model.windows == [(1_000_000, 1_000_410, False)]


@pytest.mark.parametrize(
    "level, erase_us, program_us",
    [("typical", 45_000, 700), ("max", 400_000, 3_000)],
)
def test_the_pico_flash_times_are_the_w25q16jvs(level, erase_us, program_us):
    """Winbond W25Q16JV: sector erase 45 ms typical, 400 ms max; page program
    0.7 ms typical, 3 ms max."""
    model = _model("pico", level)
    assert (model.erase_us, model.program_us) == (erase_us, program_us)


def test_on_the_rp2_only_a_flash_call_holds_an_edge_back():
    """Hard pin interrupts: an edge 10 ms into a 45 ms erase is stamped at its end;
    one inside an I2C frame or a socket call is stamped at once."""
    model = _model("pico_w")
    model.begin_pass(1000)
    model.call(45_000, True)  # an erase, interrupts off
    model.call(20_000, False)  # a socket call, interrupts on
    assert model.stamp_ms(1010) == 1045
    assert model.stamp_ms(1050) == 1050


def test_on_the_esp32_any_c_call_holds_an_edge_back():
    """Soft pin handlers run between bytecodes: an edge inside a socket call waits
    for its end, and inside a following collection for that one's end."""
    model = _model("esp32")
    model.begin_pass(1000)
    model.call(20_000, False)  # a socket call
    model.call(2_000, False)  # a collection
    assert model.stamp_ms(1005) == 1020
    assert model.stamp_ms(1020) == 1022
    assert model.stamp_ms(1022) == 1022


@pytest.mark.parametrize("board_name, commits", [("pico", 16), ("esp32", 42)])
def test_littlefs_erases_a_block_once_the_entries_fill_it(board_name, commits):
    """A 68-byte entry is one littlefs commit of about 80 bytes padded to the program
    size: 256 bytes on the rp2 (16 to a 4 KiB block), 96 on the esp32 (42 to a block);
    the commit after a full block erases one."""
    model = _model(board_name)
    for _ in range(commits):
        model.flash_commit(68)
    assert model.erases == 0
    model.flash_commit(68)
    assert model.erases == 1


def test_the_board_is_ideal_unless_asked():
    """Clock scripts and tests keep the ideal board: no model, no late stamp."""
    game = Game(parse("control 300\n"))
    try:
        assert game.board.latency is None
    finally:
        game.close()


def _run_on_the_chip(script, level, mpy):
    """``python -m sim run [--mpy] --latency=LEVEL SCRIPT``: [status, stdout, stderr],
    played once in the test run for the tests that check it (``run_once``)."""
    lane = ["--mpy"] if mpy else []
    return run_once([sys.executable, "-m", "sim", "run", *lane, "--latency=" + level, script])


def test_the_model_runs_alike_on_both_lanes():
    """``--latency=max`` prints the same lines inside MicroPython as on CPython."""
    lines = []
    for mpy in (False, True):
        _status, stdout, stderr = _run_on_the_chip(REPLIES_SET_UP, "max", mpy)
        assert "Traceback" not in stdout + stderr
        lines.append(stdout.splitlines())
    assert lines[0] == lines[1]
    assert lines[0]


def test_a_press_released_inside_an_erase_is_charged_at_its_edge_with_the_pio():
    """The PIO stamps the lever's first closing edge at 5.0 s although a 400 ms erase
    from 4.98 s holds the CPU and the press is released 80 ms later, long before the
    handler runs at 5.38 s: left 5:00 - 5.0 s = 4:55.0, right, running since 5.0 s, 4:59.5."""
    assert _press_after_a_think("pico", "max", _erase_at_4_98) == (295_000, 299_500)


def test_without_the_pio_a_press_released_inside_an_erase_is_charged_at_its_end():
    """Without the capture (the pin handler alone, ``capture=False``) the rp2 serves the
    lever's latched interrupt once, when the erase ends at 5.38 s (the periodic entry
    waits for it too: the main loop is held); the contact reads open by then, but
    ``irq.flags()`` holds its closing edge: the press counts, at 5.38 s: left 5:00 -
    5.38 s = 4:54.62, right 5:00 - 0.12 s = 4:59.88 (the press lost, left running on,
    were 4:54.5 and 5:00)."""
    values = _press_after_a_think("pico", "max", _erase_at_4_98, capture=False)
    assert values == (294_620, 299_880)


def test_the_main_loop_waits_for_an_erase_and_a_flag_inside_it_falls_at_its_instant():
    """Left (White) has 5 s from the start; a 400 ms erase from 4.98 s, put in play by
    hand (none falls there now), holds the main loop: the display
    keeps its last frame and no flag is shown while it runs; the flag, which fell at
    5.0 s inside it, is shown once it ends, and the clock reckons the turn's time to
    the flag's instant (5.0 s), not to when it was seen (5.38 s): left shows 0:00."""
    game = Game(parse("control 5\n"), board_name="pico", latency="max")
    try:
        start = _ready_ms(game)
        game.run_to(start)
        game.act("press", ["right"])
        game.run_to(start + 4_970)
        before = dict(game.values())
        _erase_at_4_98(game.board.latency, start)
        game.run_to(start + 5_200)
        during = dict(game.values())
        game.run_to(start + 5_400)
        after = dict(game.values())
    finally:
        game.close()
    assert before["flag"] == "none"
    assert during["display"] == before["display"]
    assert during["flag"] == "none"
    assert after["flag"] == "left"
    assert after["left"] == 0


def _ready_ms(game):
    """The first whole second at which a game may start: at once, or on a board whose
    levers wait for an erase (the esp32) once its ring is prepared (docs/power.md)."""
    now = 0
    while game.board.app.journal.start_wait():
        now += 100
        game.run_to(now)
    ready = game.board.latency.busy_until_ms() if game.board.latency is not None else 0
    return (max(now, ready) // 1000 + 1) * 1000 if now else 0


def _held_press_late_in_an_erase(depth):
    """The esp32 at its maxima, once its ring is prepared (from ``start``): a 400 ms erase
    from 4.98 s; left presses at 5.2 s and holds the lever 0.5 s. ``depth``: the
    scheduler's queue. Both times at 5.5 s."""
    game = Game(parse("control 300\n"), board_name="esp32", latency="max")
    try:
        start = _ready_ms(game)
        game.run_to(start)
        game.act("press", ["right"])
        game.run_to(start + 4_900)
        game.board.latency.scheduler_depth = depth
        _erase_at_4_98(game.board.latency, start)
        game.run_to(start + 5_200)
        game.act("hold", ["lever_left", 500])
        game.run_to(start + 5_500)
        values = dict(game.values())
        return values["left"], values["right"], game.board.latency.dropped_calls
    finally:
        game.close()


def test_the_esp32_scheduler_queue_keeps_a_press_in_an_erase():
    """No timer's callback takes a slot of the 8-entry queue in an erase: the main loop
    sleeps until its next step with no periodic timer (hal.sleep; the old 20 ms tick's
    callbacks filled the queue from 4.983 s and the press at 5.2 s was dropped). The
    press's first edge is the first call queued, run when the erase ends at 5.38 s:
    left 5:00 - 5.38 s = 4:54.62, right 4:59.88. Its two bounce edges queue behind it
    (a queue of three drops nothing); with a queue of one they are dropped and the
    press still counts; with none the press is dropped: left runs on, 4:54.5, right
    5:00."""
    assert _held_press_late_in_an_erase(8) == (294_620, 299_880, 0)
    assert _held_press_late_in_an_erase(3) == (294_620, 299_880, 0)
    assert _held_press_late_in_an_erase(1) == (294_620, 299_880, 2)
    assert _held_press_late_in_an_erase(0) == (294_500, 300_000, 3)


def _reply_inside_an_erase(capture):
    """From the start (once the ring is prepared): right (Black) to move from 2.0 s; a
    400 ms erase from 4.98 s, put in play by hand; right presses at 5.0 s and left
    replies at 5.1 s, both inside it. Both times at 5.5 s."""
    game = Game(parse("control 300\n"), board_name="pico", latency="max", capture=capture)
    try:
        start = _ready_ms(game)
        game.run_to(start)
        game.act("press", ["right"])
        game.run_to(start + 2_000)
        game.act("press", ["left"])
        game.run_to(start + 4_900)
        _erase_at_4_98(game.board.latency, start)
        game.run_to(start + 5_000)
        game.act("press", ["right"])
        game.run_to(start + 5_100)
        game.act("press", ["left"])
        game.run_to(start + 5_500)
        values = dict(game.values())
        return values["left"], values["right"]
    finally:
        game.close()


def test_a_move_and_its_reply_inside_an_erase_are_charged_in_their_order():
    """Both stamped by the PIO and taken oldest first, whichever handler runs first:
    right 5:00 - 3.0 s (2.0 to 5.0) = 4:57.0; left 5:00 - 2.0 s - 0.1 s (5.0 to 5.1) =
    4:57.9; right runs again from 5.1: 4:57.0 - 0.4 s = 4:56.6."""
    assert _reply_inside_an_erase(None) == (297_900, 296_600)


def test_without_the_pio_a_move_and_its_reply_inside_an_erase_are_charged_at_its_end():
    """The pin handler alone: right's press is served when the erase ends, 5.38 s, and
    the main loop's pass then writes its journal entry (a page program, 3 ms, the
    interrupts off): left's at 5.383 s. Right 5:00 - 3.38 s = 4:56.62; left 5:00 - 2.0 s
    - 0.003 s = 4:57.997; right runs from 5.383 s: 4:56.62 - 0.117 s = 4:56.503."""
    assert _reply_inside_an_erase(False) == (297_997, 296_503)


def _erase_at_4_98(model, start=0):
    """A 400 ms erase from 4.98 s after ``start`` (the chip's maximum), as littlefs's
    would be."""
    model.cursor_us = max(model.cursor_us, (start + 4_980) * 1000)
    model.erase_block()


# --- the clock on the chip ---------------------------------------------------


def _press_after_a_think(board_name, level, fill, setup_ms=0, capture=None, press_ms=5_000):
    """After ``setup_ms`` in setup (at least until a game may start: ``_ready_ms``), left
    (White) thinks on 5:00; ``fill`` readies the model at 4.9 s, before the periodic
    journal entry (due 4.981 s after the start, written at the step on the 20 ms grid
    at or after it, 5.0 s); left presses at ``press_ms`` (5.0 s). Both times at 5.5 s.
    ``capture``: the board's chip's own unless False."""
    game = Game(parse("control 300\n"), board_name=board_name, latency=level, capture=capture)
    try:
        setup_ms = max(setup_ms, _ready_ms(game))
        game.run_to(setup_ms)
        game.act("press", ["right"])
        game.run_to(setup_ms + 4_900)
        fill(game.board.latency, setup_ms)
        game.run_to(setup_ms + press_ms)
        game.act("press", ["left"])
        game.run_to(setup_ms + 5_500)
        values = dict(game.values())
        return values["left"], values["right"]
    finally:
        game.close()


# Past the step of the journal's entry at 5.0 s and its calls (a page program, the
# hall link's socket calls on the esp32, whose soft handlers wait for any call): a
# press at the very instant of that step is stamped at the calls' end on the esp32.
_AFTER_THE_ENTRY_MS = 5_050


def _full_block(model, start=0):
    model.block_used = model.sector_bytes  # the next commit erases


@pytest.mark.parametrize("board_name", ["pico", "esp32"])
@pytest.mark.parametrize("level", ["typical", "max"])
def test_an_erase_never_falls_under_a_press(board_name, level):
    """The press at 5.05 s is charged at 5.05 s (FIDE 6.2: the clock is stopped when
    the lever is pressed): left 5:00 - 5.05 s = 4:54.95; right, running since, 4:59.55.
    The game starts at power-on (the esp32's once its ring is prepared, a few seconds
    later: its levers wait for an erase): the ring's first block, prepared at boot,
    takes the entries; littlefs's metadata block, full, is never committed to in play."""
    values = _press_after_a_think(board_name, level, _full_block, press_ms=_AFTER_THE_ENTRY_MS)
    assert values == (294_950, 299_550)


@pytest.mark.parametrize("board_name", ["pico", "esp32"])
@pytest.mark.parametrize("level", ["typical", "max"])
def test_no_erase_falls_under_a_press_once_the_ring_is_prepared(board_name, level):
    """The same game after a minute in setup: the periodic entry at 5.0 s is a page program
    into the ring (0.7 ms typical, 3 ms at most), over before the press at 5.05 s, and
    littlefs's metadata block, full, is never committed to in play: 4:55.0 and 4:59.5."""
    values = _press_after_a_think(
        board_name, level, _full_block, SETUP_MS, press_ms=_AFTER_THE_ENTRY_MS
    )
    assert values == (294_950, 299_550)


def test_no_flash_erase_falls_in_play_once_the_ring_is_prepared():
    """A minute of moves 3 s apart on the pico's model at its maxima: no erase in play,
    and no flash call in play longer than one page program (3 ms)."""
    game = Game(parse("control 300\n"), board_name="pico", latency="max")
    try:
        game.run_to(SETUP_MS)
        for turn in range(20):
            game.act("press", ["right" if turn % 2 == 0 else "left"])
            game.run_to(SETUP_MS + 3_000 * (turn + 1))
        figures = game.board.latency.figures()
    finally:
        game.close()
    assert figures["erases_in_play"] == 0
    assert figures["longest_c_call_in_play_ms"] <= 3.0


def _heartbeat_due(model, start=0):
    model.beat_at = 0  # the hall link's heartbeat is due at the next pass


def test_no_socket_call_or_collection_falls_under_a_press_on_the_esp32():
    """The hall link's heartbeat due at the next pass, its writes at the socket's
    maxima: its calls, in the pass of the journal's entry at 5.0 s, are over before the
    press at 5.05 s, charged at 5.05 s: 4:54.95 and 4:59.55. (A message allocates
    nothing, so it brings no collection: bench/hall_alloc.py, tests/test_hall_faults.py.)"""
    values = _press_after_a_think("esp32", "max", _heartbeat_due, press_ms=_AFTER_THE_ENTRY_MS)
    assert values == (294_950, 299_550)


def test_an_edge_inside_a_message_waits_for_one_write_not_the_message():
    """At the esp32's maxima a message goes in writes of 96 bytes, each a call of 2 ms
    after a readiness call of 0.1 ms; the soft handler runs between two calls. From
    a pass at 5.000 s: poll to 5.0001, write to 5.0021, poll to 5.0022, write to
    5.0042. An edge at 5.001 s is stamped at 5.002 s, one at 5.003 s at 5.004 s:
    one write late at most, never the message's whole length."""
    game = Game(parse("control 300\n"), board_name="esp32", latency="max")
    try:
        game.run_to(4_000)
        model = game.board.latency
        model.beat_at = 0  # the heartbeat is due
        model.begin_pass(5_000)
        model.after_pass(game.board.app, 5_000, 5_000)
        writes = [end - start for start, end, _ in model.windows if end - start == 2_000]
        assert len(writes) == 4  # about 350 bytes: the message, its topic, the PUBLISH head
        assert model.collections == 0
        assert model.stamp_ms(5_001) == 5_002
        assert model.stamp_ms(5_003) == 5_004
    finally:
        game.close()


def _play_on_the_chip(script, level, mpy):
    status, stdout, _stderr = _run_on_the_chip(script, level, mpy)
    assert status == 0, stdout


@pytest.mark.parametrize("mpy", [False, True], ids=["cpython", "micropython"])
@pytest.mark.parametrize(
    "script, level",
    [(REPLIES_SET_UP, "max"), (LONG_THINKS_SET_UP, "typical")],
    ids=["replies-at-the-maxima", "long-thinks-typical"],
)
def test_presses_are_charged_at_their_edges_on_the_chip(script, level, mpy):
    """tests/chip/replies-after-setup.clock (replies 0.3 s apart) holds with the chips'
    maxima, and tests/chip/long-thinks-after-setup.clock (presses 40 ms after a periodic
    journal entry) with their typical figures, inside MicroPython as on CPython."""
    _play_on_the_chip(script, level, mpy)


def test_the_chip_scripts_hold_on_the_ideal_board():
    """Both scripts' expected values are the Laws': the ideal board meets them."""
    done = subprocess.run(
        [sys.executable, "-m", "sim", "run", REPLIES_SET_UP, LONG_THINKS_SET_UP],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout


def test_a_sample_of_the_benchs_games_on_the_pico_at_the_maxima():
    """bench/chip.py's method on a sample: four games started 0 and 30 s after power-on
    and after a new game's setup, while the ring is being prepared: the ring adds its
    blocks only while the clock stands, so no erase falls in play, and with the PIO every
    press is charged at its edge and none is lost."""
    from bench.chip import play

    errors, counted = play("pico", "max", presses=100, games=4)
    assert len(errors) >= 96
    assert max(errors) == 0 and counted["presses_lost"] == 0
    assert counted["erases_in_play"] == 0
