"""The Pico's journal ring prepared at the port's pace (boards/chips/rp2040.py, measured on
the image under rp2040js): a block is one step of the main loop and the next step is the
grid's next tick after it (hal.ticker reads the tick once the step's calls are over);
a block's 4 KiB go through littlefs's 1 KiB cache, 16 page programs and the commit's;
the ring's scan costs more on a block that holds a ring's marker (parsed in Python) than
on one it skips in C."""

from collections import Counter

from boards.chips import rp2040
from hal import journal_setup
from sim import latency as latency_module
from sim.runner import Game
from sim.script import parse

TICK_MS = 20  # boards/pico.py
PORT_BOOT_COMPACTION_BYTES = 512  # the port's compaction at the boot (boards/chips/rp2040.py)


def _ring_steps(control="900+10"):
    """The boot's ring preparation on the Pico's model at the typical figures: for each
    erase, (the pass's instant in us, the erase's start in us, page programs before it)."""
    game = Game(parse("control %s\n" % control), board_name="pico", latency="typical")
    model = game.board.latency
    erases = []
    erase = model.erase_block

    def logged():
        erases.append((model.pass_us, model.cursor_us, model.programs))
        erase()

    model.erase_block = logged
    try:
        now = 0
        while game.board.app.journal.start_wait():
            now += TICK_MS
            game.run_to(now)
        grid = game.board.app.hardware.ticker.grid
    finally:
        game.close()
    return erases, grid


def test_a_ring_block_is_a_step_and_the_next_comes_at_the_grids_next_tick():
    """A block's step (74.8 ms on the port) ends before the fourth tick after its own: the
    next block's step is that tick, 80 ms on, as on the port. A step with littlefs's
    compaction as well runs past its eighth tick (164 ms on the port): the next step
    follows at once, the one after it is on the grid again. No step falls at the end
    of one that ended before its tick."""
    erases, _grid = _ring_steps()
    steps = [at // 1000 for at, start, _ in erases if at == start][1:]  # (after the boot's)
    gaps = [later - earlier for earlier, later in zip(steps, steps[1:], strict=False)]
    assert len(gaps) >= 15
    assert Counter(gaps).most_common(1)[0][0] == 4 * TICK_MS
    for index, step in enumerate(steps[1:]):
        if (step - steps[0]) % TICK_MS:  # off the grid: only right after an overrun
            assert gaps[index] > 8 * TICK_MS, (index, gaps)


def test_a_ring_block_programs_16_pages_and_its_commit():
    """4 KiB through a 1 KiB cache: 4 programs of 4 pages, then littlefs's commit (1 page;
    after a compaction the live metadata with the commit's change, the port's 512 bytes
    at the boot: 2 pages): 17 or 18 pages a block, as the port programs them, not a page
    program for each 256-byte write that straddles two pages."""
    erases, _grid = _ring_steps()
    blocks = [pages for at, start, pages in erases if at == start][1:]
    per_block = Counter(later - earlier for earlier, later in zip(blocks, blocks[1:], strict=False))
    compacted = 16 + PORT_BOOT_COMPACTION_BYTES // rp2040.PAGE_BYTES
    assert per_block[17] >= 10 and set(per_block) == {17, compacted}, per_block


def test_a_scan_read_costs_more_where_the_ring_is_marked():
    """A read of 64 bytes without the marker: ``DEVICE_READ_US``; with it anywhere in
    them, ``MARKED_READ_US`` more (the port's 62 us and 1,453 us)."""
    assert latency_module._RING_MARK == journal_setup.MAGIC
    game = Game(parse("control 300\n"), board_name="pico", latency="typical")
    try:
        model = game.board.latency
        model.begin_pass(10_000_000)
        start = model.cursor_us
        model.device_read(bytearray(b"\xff" * 64))
        assert model.cursor_us - start == rp2040.DEVICE_READ_US
        marked = bytearray(b"\xff" * 64)
        marked[60:64] = journal_setup.MAGIC  # the last 4 bytes: the marker still in them
        start = model.cursor_us
        model.device_read(marked)
        assert model.cursor_us - start == rp2040.DEVICE_READ_US + rp2040.MARKED_READ_US
        marked[63] = 0  # cut short at the end: no marker
        start = model.cursor_us
        model.device_read(marked)
        assert model.cursor_us - start == rp2040.DEVICE_READ_US
    finally:
        game.close()


def test_a_preparations_first_block_pays_for_the_setup_module_loaded_again():
    """hal.journal_setup is let go after each scan of the device: the ring's file opened
    to be written after a read costs ``RING_START_CPU_US`` (the port's 43 and 40 ms), a
    later block's opening without a read between nothing."""
    game = Game(parse("control 300\n"), board_name="pico", latency="typical")
    try:
        model = game.board.latency
        model.begin_pass(10_000_000)
        model.device_read(bytearray(64))
        start = model.cursor_us
        model.ring_opened()
        assert model.cursor_us - start == rp2040.RING_START_CPU_US
        start = model.cursor_us
        model.ring_opened()
        assert model.cursor_us == start
    finally:
        game.close()


def test_a_file_replaced_whole_costs_the_steps_cpu_outside_a_game_only():
    """The settings or the header written whole (hal.storage: NAME.new, then renamed) cost
    ``FILE_WRITE_CPU_US`` (the port's 82 to 84 ms a file) while the clock is set up; a
    slot file written in a game, nothing beyond its commit."""
    game = Game(parse("control 300\n"), board_name="pico", latency="typical")
    try:
        board = game.board
        model = board.latency
        flash = board.flash
        model.begin_pass(10_000_000)
        start = model.cursor_us
        with flash.open(board.flash_root + "/x.json.new", "wb") as handle:
            handle.write(b"{}")
        assert model.cursor_us - start >= rp2040.FILE_WRITE_CPU_US
        start = model.cursor_us
        with flash.open(board.flash_root + "/x.log", "wb") as handle:
            handle.write(b"{}")
        assert model.cursor_us - start < rp2040.FILE_WRITE_CPU_US
        model.in_game = lambda: True
        start = model.cursor_us
        with flash.open(board.flash_root + "/y.json.new", "wb") as handle:
            handle.write(b"{}")
        assert model.cursor_us - start < rp2040.FILE_WRITE_CPU_US
    finally:
        game.close()
