"""The journal's ring under the faults that once lost or invented a game.

Each test plays a game on the Pico's board definition (its ring on the
simulated block device, ``sim.flash``) and cuts the power where a
campaign of cuts at single bytes found the ring wrong:

1. inside a block's append while the ring is prepared (an uncommitted copy
   of the block is left on the flash);
2. inside an entry's program, then again inside the first entry the boot
   writes (two torn entries in a row, whole ones before them);
3. after an ``Err3`` boot set the journal aside, before the new ring's first
   block is written (the abandoned game must stay abandoned).
"""

from firmware import files
from sim import vclock
from sim.flash import PowerCut
from sim.world import SimBoard, fresh_flash, remove_flash

PAUSED = 2  # firmware.engine.PAUSED
SETUP = 0


def _boot(folder, at_ms):
    vclock.set_now(at_ms)
    board = SimBoard(folder, board_name="pico")
    board.boot()
    return board


def _power_on(board, at_ms):
    """Power on at ``at_ms``; a cut armed before it may fall during the boot."""
    vclock.set_now(at_ms)
    try:
        board.power_on()
    except PowerCut:
        board.power_off()


def _cut(board, at_ms):
    board.run_due(at_ms)
    board.power_off()


def test_a_cut_inside_a_ring_block_append_loses_no_game():
    """The append of the ring's fifth block is cut 100 bytes in (an uncommitted copy of
    it stays on the flash); the next boot appends the block again elsewhere. The game
    then played must come back after the next cut."""
    folder = fresh_flash("300+3")
    try:
        board = SimBoard(folder, board_name="pico")
        board.boot()
        board.run_due(2_300)  # blocks 0-4 at 0.02, 0.5, 1.0, 1.5, 2.0 s
        assert len(board.app.journal.store.blocks) == 5
        board.flash.cut_after(100)  # the next bytes written: block 5's append
        board.run_due(3_000)
        assert not board.powered
        _power_on(board, 4_000)
        board.run_due(30_000)  # the preparation goes on after the cut
        board.press("lever_right")
        board.run_due(40_000)
        board.press("lever_left")  # left moved after 10 s
        board.run_due(52_000)  # right thinks 12 s
        _cut(board, 52_000)
        _power_on(board, 53_000)
        clock = board.app.clock
        assert clock.state == PAUSED and clock.moves() == 1
        assert clock.shown_ms(0, 0) == 303_000 - 10_000 + 3_000
        right = clock.shown_ms(1, 0)
        assert 303_000 - 12_000 <= right <= 303_000 - 12_000 + 5_000
    finally:
        remove_flash(folder)


def _torn_twice(folder, boot_cut):
    """Left thinks 12 s; the entry of left's move is cut 30 bytes in; the boot after
    it is cut ``boot_cut`` bytes in (None: not cut). Returns the board, powered off
    after that boot, and the bytes the boot wrote."""
    board = SimBoard(folder, board_name="pico")
    board.boot()
    board.run_due(20_000)
    board.press("lever_right")
    board.run_due(32_000)  # entries at 4.98 s and 9.96 s of left's turn
    slot = board.app.journal.store.next
    board.flash.cut_after((slot % 3) * 68 + 30)  # inside the entry, in its page's program
    board.press("lever_left")
    board.run_due(32_100)
    assert not board.powered
    if boot_cut is not None:
        board.flash.cut_after(boot_cut)
    written = board.flash.bytes_written
    _power_on(board, 33_000)
    return board, board.flash.bytes_written - written, (slot + 1) % 3 * 68


def test_two_torn_entries_in_a_row_restore_the_whole_one_before_them():
    """Left's move is cut inside its entry; the boot that follows is cut inside its own
    first entry (after its event-log line). The entry before both, 9.96 s into left's
    turn, comes back."""
    probe = fresh_flash("300+3")
    try:
        board, written, at = _torn_twice(probe, None)
        assert board.powered and board.app.clock.moves() == 0  # the entry before the cut
        before_entry = written - 256  # the boot's event-log line, then its entry's page
    finally:
        remove_flash(probe)
    folder = fresh_flash("300+3")
    try:
        board, _, _ = _torn_twice(folder, before_entry + at + 30)
        assert not board.powered
        _power_on(board, 34_000)
        clock = board.app.clock
        assert clock.state == PAUSED and clock.moves() == 0 and clock.mover == 0
        assert clock.shown_ms(0, 0) == 303_000 - 9_960
    finally:
        remove_flash(folder)


def _set_aside_game(folder, boot_cut):
    """A game of two moves in the ring, its header then spoiled; the boot after it
    is cut ``boot_cut`` bytes in (None: not cut). Returns the board and the bytes the
    boot wrote."""
    board = SimBoard(folder, board_name="pico")
    board.boot()
    board.run_due(5_000)
    board.press("lever_right")
    board.run_due(15_000)
    board.press("lever_left")
    board.run_due(25_000)
    board.power_off()
    with open(folder + "/" + files.JOURNAL_HEADER, "wb") as handle:
        handle.write(b"{")
    if boot_cut is not None:
        board.flash.cut_after(boot_cut)
    written = board.flash.bytes_written
    _power_on(board, 26_000)
    return board, board.flash.bytes_written - written


def test_a_game_set_aside_never_comes_back():
    """A game in the ring, then its header spoiled: the boot shows Err3, sets the
    journal aside and starts a new game's journal, the new ring's first block last
    (its erase, 4,096 bytes, littlefs's commit); a cut inside that block. The next
    boot starts afresh (setup, full times), never with the abandoned game."""
    probe = fresh_flash("300+3")
    try:
        board, written = _set_aside_game(probe, None)
        assert "Err3" in board.display_text() and board.app.clock.state == SETUP
        assert board.app.journal.store.capacity == 45  # the new ring's first block
    finally:
        remove_flash(probe)
    folder = fresh_flash("300+3")
    try:
        board, _ = _set_aside_game(folder, written - 4098 + 100)
        assert not board.powered
        _power_on(board, 28_000)
        clock = board.app.clock
        assert clock.state == SETUP and clock.moves() == 0
        assert clock.shown_ms(0, 0) == 303_000 and clock.shown_ms(1, 0) == 303_000
    finally:
        remove_flash(folder)
