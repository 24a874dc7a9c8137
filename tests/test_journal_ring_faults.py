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

Then each of the ring's invariants (hal/journal_setup.py's docstring), on a
journal store alone where a board adds nothing to it.
"""

import pytest

from firmware import files, journal
from firmware.boot import journal_read
from hal import journal_setup
from hal.journal_store import JournalStore
from hal.storage import Storage
from sim import vclock
from sim.flash import Flash, PowerCut, pointer_bytes
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


def _new_game_bytes(folder):
    """A game played from power-on, paused, then the arbiter's new game: the board, and
    the bytes (cut points) the new game's step writes before its ring, whose 12 blocks
    (300+3: ``ring_need``) it then adds back to back (the ideal board's flash takes no
    time), each its erase, its 4,096 bytes and littlefs's commit."""
    board = SimBoard(folder, board_name="pico")
    board.boot()
    board.run_due(1_000)
    board.press("lever_right")
    board.run_due(2_000)
    board.press("play")  # paused
    board.run_due(2_500)
    written = board.flash.bytes_written
    board.app.new_game()
    return board, written


def test_a_cut_inside_a_ring_block_append_loses_no_game():
    """The new game's ring is cut 100 bytes into its fifth block's append (an
    uncommitted copy of it stays on the flash); the next boot appends the block again
    elsewhere. The game then played must come back after the next cut."""
    probe = fresh_flash("300+3")
    try:
        board, before = _new_game_bytes(probe)
        board.run_due(3_000)
        assert len(board.app.journal.store.ring.blocks) == 12
        head = board.flash.bytes_written - before - 12 * APPEND_BYTES  # the header, the log
    finally:
        remove_flash(probe)
    folder = fresh_flash("300+3")
    try:
        board, _ = _new_game_bytes(folder)
        board.flash.cut_after(head + 4 * APPEND_BYTES + 100)
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
    slot = board.app.journal.store.ring.next
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
    journal aside and starts a new game's journal, the new ring last, whole at boot
    (12 blocks for 300+3, the last one's erase, 4,096 bytes, littlefs's commit); a cut
    inside that block. The next
    boot starts afresh (setup, full times), never with the abandoned game."""
    probe = fresh_flash("300+3")
    try:
        board, written = _set_aside_game(probe, None)
        assert "Err3" in board.display_text() and board.app.clock.state == SETUP
        # the new ring, whole: 11 blocks of entries, the 12th the event log's
        assert board.app.journal.store.ring.capacity == 45 * 11
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


# --- the ring's invariants (hal/journal_setup.py), one by one ------------------


def _store(folder, ring_blocks=3, device_blocks=16):
    """A journal store with a ring of ``ring_blocks`` on a fresh simulated flash."""
    flash = Flash(device_blocks)
    return flash, JournalStore(Storage(folder, flash), ring_blocks)


def _reboot(flash, folder, ring_blocks=3):
    """Power back on and find the ring as a boot does: ``(store, its newest whole entry)``."""
    flash.power_on()
    store = JournalStore(Storage(folder, flash), ring_blocks)
    return store, store.ring_entry(journal_read.valid)


def _set_up_a_game(store, control="300"):
    """``store``'s new game of ``control`` (as a boot that finds no game starts one): the
    ring sized to it, at most the store's."""
    from firmware import claims, engine, timecontrol

    clock = engine.Clock(timecontrol.parse(control))
    store.begin_game(clock, claims.Claims(clock, "off", "appendix-g"), 0, False)


def _markers(flash):
    """Every ring marker on the device, ``(nonce, index)`` once per block holding it."""
    found = []
    buf = bytearray(64)
    for block in range(flash.device.count):
        flash.device.readblocks(block, buf, 0)
        for at in range(0, 64 - 12 + 1, 4):
            if buf[at : at + 4] == journal_setup.MAGIC:
                index = int.from_bytes(buf[at + 8 : at + 12], "little")
                if pointer_bytes(index) == at:
                    found.append((int.from_bytes(buf[at + 4 : at + 8], "little"), index))
    return found


def _entry(seq, game=1):
    """A whole journal entry (magic, version, size, sequence, game id, checksum)."""
    buf = bytearray(journal.RECORD_SIZE)
    journal.put(buf, 0, journal.MAGIC, 2)
    buf[2] = journal.VERSION
    buf[3] = journal.RECORD_SIZE
    journal.put(buf, 4, seq, 4)
    journal.put(buf, 8, game, 4)
    journal.seal(buf)
    return buf


APPEND_BYTES = 1 + 4096 + 1  # block 1's append: its erase, its bytes (pointers too), the commit


@pytest.mark.parametrize("budget", list(range(0, APPEND_BYTES, 211)) + [APPEND_BYTES - 1])
def test_invariants_1_2_an_append_cut_anywhere_resumes_to_the_ring_littlefs_committed(
    tmp_path, budget
):
    """Block 1's append is cut after ``budget`` bytes (its erase counts one, littlefs's
    commit one); the ring is found again, prepared to its end, and then each index
    of the ring's nonce marks one device block only, the one the file holds."""
    folder = str(tmp_path)
    flash, store = _store(folder)
    store.prepare_block()
    flash.cut_after(budget)
    with pytest.raises(PowerCut):
        store.prepare_block()
    store, _ = _reboot(flash, folder)
    assert store.ring.capacity == 45 * len(store.ring.blocks)
    _set_up_a_game(store)  # as a boot that finds no game does: the ring grows
    while store.is_preparing():
        store.prepare_block()
    committed = flash.device_files[folder + "/" + files.JOURNAL_RING][0]
    assert store.ring.blocks == committed and len(committed) == 3
    ours = sorted(mark for mark in _markers(flash) if mark[0] == store.ring.nonce)
    assert ours == [(store.ring.nonce, 0), (store.ring.nonce, 1), (store.ring.nonce, 2)]
    again, _ = _reboot(flash, folder)
    assert again.ring.blocks == committed  # what a boot finds is what the store programs


def test_invariant_1_a_ring_a_boot_could_not_find_takes_no_entry(tmp_path):
    """A second block marked as the ring's block 1 (what no append leaves now, but a
    boot would meet it), made while the ring is prepared: the ring, located once its
    blocks are all added, is ambiguous, and the entries go to the slot files instead."""
    folder = str(tmp_path)
    flash, store = _store(folder, ring_blocks=4)
    store.prepare_block()
    store.prepare_block()
    _device, blocks, _nonce = journal_setup.locate(flash, folder + "/" + files.JOURNAL_RING)
    copy = bytearray(256)
    flash.device.readblocks(blocks[1], copy, 0)
    spare = [b for b in range(flash.device.count) if b not in blocks][-1]
    flash.device.writeblocks(spare, copy)
    store.prepare_block()
    assert store.is_preparing() and store.start_wait() == 1
    store.prepare_block()
    assert store.ring.capacity == 0 and not store.is_preparing()
    store.open_slots(None)
    store.write_record(_entry(1), 1)
    assert journal_read.sequence(Storage(folder, flash).read_bytes(files.JOURNAL_SLOTS[1])) == 1


@pytest.mark.parametrize("torn_at", [0, 1, 30, 67])
def test_invariant_3_a_torn_slot_is_used_and_never_programmed_again(tmp_path, torn_at):
    """Entries 1 to 4 whole; entry 5's page program cut ``torn_at`` bytes into the entry:
    boot finds entry 4 and the next slot past the torn one (the same slot if the cut
    came before the entry's first byte); the next entry is programmed there without
    the flash refusing a program over programmed bytes."""
    folder = str(tmp_path)
    flash, store = _store(folder, ring_blocks=1)
    store.prepare_block()
    for seq in range(1, 5):
        store.write_record(_entry(seq), seq)
    at = (4 % 3) * 68  # slot 4's place in its page
    flash.cut_after(at + torn_at)
    with pytest.raises(PowerCut):
        store.write_record(_entry(5), 5)
    store, newest = _reboot(flash, folder, 1)
    assert journal_read.sequence(newest) == 4
    assert store.ring.next == (4 if torn_at == 0 else 5)
    store.write_record(_entry(5), 5)
    store, newest = _reboot(flash, folder, 1)
    assert journal_read.sequence(newest) == 5


def test_invariant_4_the_newest_whole_entry_past_any_torn_ones(tmp_path):
    """Entries 1 to 7 whole, then four entries torn in a row, each by a cut and each
    after a boot (a supply that keeps failing): entry 7 comes back every time."""
    folder = str(tmp_path)
    flash, store = _store(folder, ring_blocks=1)
    store.prepare_block()
    for seq in range(1, 8):
        store.write_record(_entry(seq), seq)
    for _ in range(4):
        slot = store.ring.next
        flash.cut_after((slot % 3) * 68 + 20)
        with pytest.raises(PowerCut):
            store.write_record(_entry(8), 8)
        store, newest = _reboot(flash, folder, 1)
        assert journal_read.sequence(newest) == 7 and store.ring.next == slot + 1


def _ring_slots(store):
    """The whole entries of ``store``'s ring, oldest first."""
    found = []
    for slot in range(store.ring.next):
        entry = journal_setup.read(store.ring, slot)
        if journal_read.valid(entry):
            found.append(entry)
    return found


def _header(folder):
    import json

    with open(folder + "/" + files.JOURNAL_HEADER) as handle:
        return json.load(handle)


def test_invariants_5_6_a_new_game_has_its_own_ring_and_id():
    """Game 1 is played and paused; the arbiter's new game, with the same controls, gets
    id 2 and a fresh ring (another nonce) whose entries are all game 2's. Switched off
    and on in setup, the clock keeps id 2 and writes no header."""
    folder = fresh_flash("300+3")
    try:
        board = SimBoard(folder, board_name="pico")
        board.boot()
        board.run_due(3_000)
        board.press("lever_right")
        board.run_due(8_000)
        board.press("play")  # paused
        board.run_due(9_000)
        store = board.app.journal.store
        first = store.ring.nonce
        assert {journal_read.game_id(e) for e in _ring_slots(store)} == {1}
        board.app.new_game()
        board.run_due(12_000)
        assert _header(folder)["game"] == 2 and board.app.journal.game == 2
        assert store.ring.nonce != first and store.ring.capacity > 0
        assert {journal_read.game_id(e) for e in _ring_slots(store)} <= {2}
        board.press("lever_right")
        board.run_due(20_000)
        games = [journal_read.game_id(e) for e in _ring_slots(store)]
        assert games and set(games) == {2}
        board.press("play")
        board.run_due(21_000)
        board.app.new_game()
        board.run_due(22_000)
        board.power_off()
        renames = board.flash.renames
        _power_on(board, 23_000)
        board.run_due(24_000)
        assert _header(folder)["game"] == 3 and board.app.journal.game == 3
        assert board.flash.renames == renames  # no header written: nothing was played
    finally:
        remove_flash(folder)


def test_invariant_6_ids_go_on_above_a_journal_set_aside():
    """The abandoned game was id 1: the game after the Err3 is id 2, its entries go on
    from the abandoned game's sequence numbers."""
    folder = fresh_flash("300+3")
    try:
        board, _ = _set_aside_game(folder, None)
        assert "Err3" in board.display_text()
        board.run_due(30_000)
        board.press("lever_right")
        board.run_due(31_000)
        assert _header(folder)["game"] == 2
        entries = _ring_slots(board.app.journal.store)
        assert entries and {journal_read.game_id(e) for e in entries} == {2}
        assert journal_read.sequence(entries[0]) > 6  # game 1 wrote 6 entries
    finally:
        remove_flash(folder)


@pytest.mark.parametrize("renames", [0, 1, 2, 3])
def test_invariant_7_a_journal_set_aside_whole_even_if_cut(renames):
    """The Err3 boot's setting aside is cut after ``renames`` of its four renames
    (header, ring, slot 0, slot 1); the next boot never brings the abandoned game
    back, and in the end the header and the ring are set aside, and the slots too
    unless empty."""
    folder = fresh_flash("300+3")
    try:
        board, _ = _set_aside_game(folder, renames)
        assert not board.powered
        _power_on(board, 28_000)
        clock = board.app.clock
        assert clock.state == SETUP and clock.shown_ms(0, 0) == 303_000
        board.run_due(29_000)
        storage = Storage(folder, board.flash)
        for name in (files.JOURNAL_HEADER, files.JOURNAL_RING):
            assert storage.exists(name + ".bad"), name
        for name in files.JOURNAL_SLOTS:  # set aside, or empty (the game was in the ring)
            assert storage.exists(name + ".bad") or not storage.read_bytes(name), name
    finally:
        remove_flash(folder)


def test_the_sim_board_journals_into_its_ring_and_its_flash_outlives_it():
    """The `sim` board of the clock scripts runs the ring's path: its three blocks are
    prepared at power-on, the game's entries are programmed into them, and a board
    booted again on the same flash folder (a reset) finds the game there."""
    folder = fresh_flash("300+3")
    try:
        board = SimBoard(folder)
        board.boot()
        store = board.app.journal.store
        assert len(store.ring.blocks) == 3 and not store.is_preparing()
        board.run_due(1_000)
        board.press("lever_right")
        board.run_due(8_000)
        assert store.ring.next >= 2 and not Storage(folder, board.flash).read_bytes("game.j0")
        board.power_off()
        again = SimBoard(folder)
        vclock.set_now(9_000)
        again.boot()
        clock = again.app.clock
        assert clock.state == PAUSED and clock.shown_ms(0, 0) == 303_000 - 4_980
    finally:
        remove_flash(folder)


def test_the_esp32_programs_the_entry_alone_and_a_cut_in_it_keeps_old_or_new():
    """On the esp32 (esp32.Partition programs any bytes) each ring entry is its 68 bytes,
    not a page; a cut at every byte of the move's entry brings back the entry before
    it (9.96 s into left's turn) or the move, never anything else."""
    outcomes = set()
    for budget in [None] + list(range(journal.RECORD_SIZE)):
        folder = fresh_flash("300+3")
        try:
            board = SimBoard(folder, board_name="esp32")
            board.boot()
            board.run_due(2_000)
            board.press("lever_right")
            board.run_due(14_000)
            written = board.flash.bytes_written
            if budget is not None:
                board.flash.cut_after(budget)
            board.press("lever_left")
            board.run_due(14_100)
            if budget is None:  # the move's entry: its 68 bytes, nothing else
                assert board.flash.bytes_written - written == journal.RECORD_SIZE
                board.power_off()
            assert not board.powered
            _power_on(board, 15_000)
            clock = board.app.clock
            assert clock.state == PAUSED
            if clock.moves() == 1:
                assert clock.shown_ms(0, 0) == 303_000 - 12_000 + 3_000
                outcomes.add("new")
            else:
                assert clock.shown_ms(0, 0) == 303_000 - 9_960
                outcomes.add("old")
        finally:
            remove_flash(folder)
    assert outcomes == {"old", "new"}


def test_esp_idf_programs_at_most_64_bytes_at_a_time_never_across_a_page():
    """The latency model's programs: an esp32 entry at a page's offset 68 is two programs
    (64 + 4 bytes), a whole page four; the rp2 programs a page in one."""
    from boards import esp32, pico
    from sim.latency import ChipLatency

    chip = ChipLatency(esp32, "max")
    chip.program_range(256 + 68, 68)
    assert chip.programs == 2 and chip.longest_us == 2 * 800
    chip.program_range(512, 256)
    assert chip.programs == 6 and chip.longest_us == 3_200
    chip.program_range(256 - 4, 8)  # across a page: two
    assert chip.programs == 8
    rp2 = ChipLatency(pico, "max")
    rp2.program_range(256, 256)
    assert rp2.programs == 1 and rp2.longest_us == 3_000
