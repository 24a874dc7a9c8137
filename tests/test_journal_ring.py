"""The journal's ring (hal/journal_setup.py, hal/journal_store.py) on the simulated flash.

The block device is NOR flash: an erase sets a block's bytes to 0xFF, a
program only clears bits, and programming over a programmed byte is an
error. The ring is a littlefs file prepared while the clock stands and only
programmed in play; a power cut at any byte of an entry's program leaves the
game restored from the entry before it or from the new one.
"""

import pytest

from firmware import files
from hal import journal_setup
from sim import vclock
from sim.flash import BLOCK_BYTES, Flash, PowerCut, pointer_bytes
from sim.world import SimBoard, fresh_flash, remove_flash

SETUP_MS = 20_000  # the ring holds 40 of its 96 blocks by then, one every 0.5 s


def _device(blocks=4):
    return Flash(blocks).device


def test_an_erased_block_reads_ff_and_a_program_clears_bits():
    device = _device()
    device.writeblocks(1, bytearray(b"\x0f" * 256))  # no offset: erase, then program
    buf = bytearray(257)
    device.readblocks(1, buf)
    assert buf == bytearray(b"\x0f" * 256 + b"\xff")


def test_a_program_over_a_programmed_byte_is_refused():
    device = _device()
    page = bytearray(b"\xff" * 256)
    page[10] = 0x00
    device.writeblocks(0, page, 256)
    page[10] = 0x7F  # the flash cannot set the bit again without an erase
    with pytest.raises(OSError):
        device.writeblocks(0, page, 256)


def test_a_0xff_byte_of_a_program_leaves_the_flash_as_it_is():
    """Two entries on one page, programmed one after the other: each program is 0xFF
    where the other entry lies, which programs nothing there."""
    device = _device()
    first = bytearray(b"\xff" * 256)
    first[0:3] = b"abc"
    second = bytearray(b"\xff" * 256)
    second[68:71] = b"xyz"
    device.writeblocks(2, first, 512)
    device.writeblocks(2, second, 512)
    buf = bytearray(71)
    device.readblocks(2, buf, 512)
    assert buf[0:3] == b"abc" and buf[68:71] == b"xyz" and buf[3:68] == b"\xff" * 65


def test_a_program_at_an_offset_takes_whole_pages():
    """The rp2's flash_range_program programs whole 256-byte pages only."""
    with pytest.raises(ValueError):
        _device().writeblocks(0, bytearray(68), 68)


def test_a_power_cut_stops_a_program_at_its_byte():
    flash = Flash(2)
    flash.cut_after(5)
    with pytest.raises(PowerCut):
        flash.device.writeblocks(0, bytearray(range(256)), 0)
    flash.power_on()
    buf = bytearray(8)
    flash.device.readblocks(0, buf)
    assert buf == bytearray([0, 1, 2, 3, 4, 255, 255, 255])


def test_the_skip_list_pointers_are_littlefs_s():
    """littlefs's on-disk specification: block n > 0 of a file opens with ctz(n) + 1
    pointers of 4 bytes."""
    assert [pointer_bytes(n) for n in range(9)] == [0, 4, 8, 4, 12, 4, 8, 4, 16]
    assert journal_setup.pointer_bytes(8) == 16


def test_a_ring_file_is_found_on_the_device_by_its_markers(tmp_path):
    """Three blocks written through the file, then located: the file's blocks in order,
    each holding its marker after littlefs's pointers; a stale block of an older ring
    (another nonce) is passed over."""
    flash = Flash(12)
    path = str(tmp_path / files.JOURNAL_RING)
    journal_setup.add_block(flash, path, 0, 111)  # an older ring
    for index in range(3):
        journal_setup.add_block(flash, path, index, 222)
    device, blocks, nonce = journal_setup.locate(flash, path)
    assert nonce == 222 and blocks == flash.device_files[path][0] and len(blocks) == 3
    assert len(flash.read_device_file(path)) == 3 * BLOCK_BYTES - 4 - 8


def _ring_game(folder, setup_ms=SETUP_MS):
    board = SimBoard(folder, board_name="pico")
    board.boot()
    board.run_due(setup_ms)
    return board


def test_the_ring_is_prepared_while_the_clock_stands_and_never_erased_in_play():
    """The ring sized to 300+3 (12 blocks: 2 x (100 + 123) entries, 10 blocks, one more
    and the event log's), prepared before the start; then 60 s of play with a move every
    3 s: every entry a program into the ring, no erase and no slot file write."""
    folder = fresh_flash("300+3")
    start = 50_000
    try:
        board = _ring_game(folder, start)
        store = board.app.journal.store
        assert len(store.ring.blocks) == 12 and not store.preparing
        erases = board.flash.device.erases
        writes = board.flash.writes
        side = "lever_right"
        for second in range(0, 60, 3):
            board.run_due(start + second * 1000)
            board.press(side)
            side = "lever_left" if side == "lever_right" else "lever_right"
        board.run_due(start + 60_000)
        assert board.flash.device.erases == erases
        assert board.app.journal.writes >= 20  # one entry a press at least
        assert store.ring.next == board.flash.writes - writes  # each entry one program
    finally:
        remove_flash(folder)


def test_a_ring_entry_cut_at_every_byte_restores_the_old_or_the_new_state():
    """Left thinks 12 s (entries at 4.98 s and 9.96 s) and presses; that entry's page
    program is cut at every byte of the entry: boot brings back the entry at 9.96 s
    (left 303 s - 9.96 s, left to move) or the new one (left 303 - 12 + 3 s, right
    to move), never anything else. The game starts 2 s after power-on, with the ring's
    first 4 blocks prepared (room for 180 entries)."""
    setup_ms = 2_000
    outcomes = set()
    probe = fresh_flash("300+3")
    try:
        board = _ring_game(probe, setup_ms)
        board.press("lever_right")
        board.run_due(setup_ms + 12_000)
        slot = board.app.journal.store.ring.next
    finally:
        remove_flash(probe)
    at = (slot % 45 % 3) * 68  # the entry's place in its page
    for budget in range(at, at + 69):
        folder = fresh_flash("300+3")
        try:
            board = _ring_game(folder, setup_ms)
            board.press("lever_right")
            board.run_due(setup_ms + 12_000)
            board.flash.cut_after(budget)
            board.press("lever_left")
            board.run_due(setup_ms + 12_100)
            assert not board.powered
            vclock.set_now(setup_ms + 13_000)
            board.power_on()
            clock = board.app.clock
            assert clock.state == 2  # paused
            left = clock.shown_ms(0, 0)
            if clock.moves() == 1:
                assert clock.mover == 1 and left == 303_000 - 12_000 + 3_000
                outcomes.add("new")
            else:
                assert clock.moves() == 0 and clock.mover == 0 and left == 303_000 - 9_960
                outcomes.add("old")
            assert board.app.journal.store.ring.capacity > 0  # the ring found again after the cut
        finally:
            remove_flash(folder)
    assert outcomes == {"old", "new"}


def test_every_step_of_the_store_lets_its_setup_code_go(tmp_path):
    """Each step of the store that loads hal.journal_setup lets it go after its call, so
    nothing of it stays on the heap in play (hal/journal_store.py); the ring's
    preparation keeps it from block to block and lets it go once the ring is whole."""
    import sys

    import hal
    from firmware import claims, engine, timecontrol
    from firmware.boot import journal_read
    from hal.journal_store import JournalStore
    from hal.storage import Storage

    def gone():
        return "hal.journal_setup" not in sys.modules and not hasattr(hal, "journal_setup")

    flash = Flash(16)
    store = JournalStore(Storage(str(tmp_path), flash), 3)
    # a flash that takes no time: the tick stays at the step's, whatever tick source an
    # earlier test of this process left (a block "took time" there and ended the step)
    store.read_ticks_from(lambda: 0)
    clock = engine.Clock(timecontrol.parse("300"))
    game_claims = claims.Claims(clock, "off", "appendix-g")
    store.open_slots(None)
    assert gone()
    store.prepare_block()
    assert not gone() and store.start_wait() == 2  # kept for the blocks to come
    store.prepare(0)  # the rest, back to back
    assert gone() and store.ring.capacity == 90 and not store.is_preparing()  # (+ the events')
    game = store.begin_game(clock, game_claims, 0, False)
    assert gone() and game == 1
    store.append_event(game, (0, "adjust", 1000), clock)
    assert gone()
    assert store.ring_entry(journal_read.valid) is None
    assert gone()
    store.drop_ring()
    assert gone()


def test_a_time_correction_in_a_paused_game_is_programmed_into_the_ring_and_kept():
    """The arbiter adds a minute to left while the game stands paused: the event-log line
    is programmed into the ring's last block (no littlefs append: no erase), a boot after
    a power cut reads it back with the game, and the next game's setup keeps it in
    events.old."""
    from firmware import files
    from hal.storage import Storage
    from sim.runner import Game
    from sim.script import parse as parse_script

    game = Game(parse_script("control 300+3\nat 0 add left +1:00\n"), board_name="pico")
    try:
        add = game.script.statements[0][3]
        game.act("press", ["right"])
        game.run_to(2_000)
        game.act("pause", [])
        game.run_to(3_000)
        erases = game.board.flash.device.erases
        game.act("add", add)
        game.run_to(game.board.stepped_at + 1_000)
        store = game.board.app.journal.store
        assert b'"add", "left 60000"' in store.event_text()
        assert game.board.flash.device.erases == erases
        storage = Storage(game.flash, game.board.flash)
        assert not storage.read_bytes(files.EVENTS)
        game.power(False)
        game.power(True)
        assert game.board.app.clock.shown_ms(0, 0) == 303_000 - 2_000 + 60_000
        assert [what for _, what, _ in game.board.app.claims.log][:1] == ["add"]
        store = game.board.app.journal.store  # the booted board's
        assert b'"add", "left 60000"' in store.event_text()
        game.board.app.new_game()
        game.run_to(game.board.stepped_at + 1_000)
        assert b'"add", "left 60000"' in storage.read_bytes(files.OLD_EVENTS)
        assert store.ring.event_at == 0 and not store.event_text()
    finally:
        game.close()
