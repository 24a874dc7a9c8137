"""Figures of the journal (docs/power.md): flash writes, wear, restored error, boot time.

- Flash writes per hour of play, counted by the simulated flash on a game
  of 40 moves per hour per side (turns of 10 to 80 s, 45 s on average).
- The wear this means over 10,000 games of 4 hours on each board's flash,
  from a model of littlefs (stated in ``FLASHES`` and docs/power.md).
- The restored error after a power cut: the time the side to move gets
  back, over many random cuts (typical and worst).
- Time from power-on to a ready clock in the simulator: virtual and wall.

``python -m bench.power`` prints the figures (``--write``: and puts them in
bench/latest.json under ``power``); ``make bench`` writes them there too.
"""

import os
import random
import statistics
import sys
import time

from bench import figure_rows, results
from bench.figure_rows import Figure
from firmware import journal
from sim.runner import Game
from sim.script import parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAME_HOURS = 4  # a long classical game; 10,000 of them
GAMES = 10_000
BLOCK = 4096  # littlefs block = the flash's 4 KiB erase sector on both boards

# What the wear model assumes about each board (docs/power.md, "Wear").
FLASHES = {
    "pico": {
        "flash": "Winbond W25Q16JV, 2 MiB: 4 KiB sectors, 256 B pages",
        "endurance_cycles": 100_000,  # the datasheet's minimum per sector
        "filesystem_bytes": 1408 * 1024,  # MicroPython's rp2 build for the Pico
        "prog_size": 256,  # rp2 mounts littlefs with progsize=256
    },
    "esp32": {
        "flash": "the ESP32-WROOM-32's 4 MiB SPI NOR flash: 4 KiB sectors, 256 B pages",
        "endurance_cycles": 100_000,
        "filesystem_bytes": 960 * 1024,  # the vfs partition of the 4 MiB table (older: 2 MiB)
        "prog_size": 32,  # littlefs's default in MicroPython's VfsLfs2
    },
}
# One entry rewrites a 68-byte inline file: one littlefs commit of the data,
# its tags and a CRC (about 80 bytes), padded to the program size.
COMMIT_OVERHEAD = 12


def _at(ms):
    return "%d.%03d" % (ms // 1000, ms % 1000)


def writes_per_hour(hours=2, seed=7):
    """Journal entries and flash writes per hour on a game of 40 moves/hour/side."""
    rng = random.Random(seed)
    game = Game(parse("control 5400+30\n"))
    now = 0
    game.act("press", ["right"])
    side = "left"
    while now < hours * 3_600_000:
        now += rng.randint(10_000, 80_000)
        game.run_to(now)
        game.act("press", [side])
        side = "right" if side == "left" else "left"
    board = game.board
    entries = board.app.journal.writes
    flash = board.flash
    moves = board.app.clock.sides[0].moves + board.app.clock.sides[1].moves
    game.close()
    scale = 3_600_000 / now
    return {
        "play_hours": round(now / 3_600_000, 2),
        "moves_per_hour": round(moves * scale, 1),
        "journal_entries_per_hour": round(entries * scale, 1),
        "flash_writes_per_hour": round(flash.writes * scale, 1),
        "bytes_written_per_hour": round(flash.bytes_written * scale),
    }


def _firmware_blocks():
    """Blocks the compiled firmware takes on the filesystem (build/mpy, one file a block
    or more; `make mpy` first)."""
    blocks = 0
    for folder, _, names in os.walk(os.path.join(ROOT, "build", "mpy")):
        for name in names:
            size = os.path.getsize(os.path.join(folder, name))
            blocks += max(1, -(-size // BLOCK))
    return blocks


def wear(entries_per_hour):
    """Erase cycles per block over ``GAMES`` games of ``GAME_HOURS``, per board."""
    entries = entries_per_hour * GAME_HOURS * GAMES
    firmware = _firmware_blocks()
    result = {}
    for board, flash in FLASHES.items():
        prog = flash["prog_size"]
        commit = -(-(journal.RECORD_SIZE + COMMIT_OVERHEAD) // prog) * prog
        erases = entries * commit / BLOCK  # a metadata block is erased once it is full
        free = flash["filesystem_bytes"] // BLOCK - firmware - 4  # superblocks, root, files
        per_block = erases / free  # block_cycles=100: littlefs moves the pair over free blocks
        result[board] = dict(
            flash,
            commit_bytes=commit,
            erases_total=round(erases),
            free_blocks=free,
            erase_cycles_per_block=round(per_block),
            share_of_endurance=round(per_block / flash["endurance_cycles"], 3),
        )
    return {"entries_over_10000_games": round(entries), "boards": result}


def restored_error(cuts=500, seed=11):
    """Time the side to move gets back after a cut at a random instant, in ms."""
    rng = random.Random(seed)
    lost = []
    for _ in range(cuts):
        game = Game(parse("control 5400+30\n"))
        now = rng.randint(0, 3000)
        game.run_to(now)
        game.act("press", ["right"])
        side = "left"
        for _ in range(rng.randint(0, 3)):  # a few short moves: the turn's phase
            now += rng.randint(1_000, 9_000)
            game.run_to(now)
            game.act("press", [side])
            side = "right" if side == "left" else "left"
        now += rng.randint(1, 80_000)
        game.run_to(now)
        truth = dict(game.values(settle=False))
        running = truth["running"]
        game.act("power", ["off"])
        game.act("power", ["on"])
        back = dict(game.values())
        other = "right" if running == "left" else "left"
        assert back[other] == truth[other], (truth, back)
        lost.append(back[running] - truth[running])
        game.close()
    return {
        "cuts": cuts,
        "typical_ms": round(statistics.median(lost)),
        "mean_ms": round(statistics.mean(lost)),
        "worst_ms": max(lost),
        "bound_ms": journal.ENTRY_MS,
    }


def boot_time(runs=30):
    """From power-on to a clock that takes a press and shows the times (simulator)."""
    fresh = []
    restored = []
    for _ in range(runs):
        began = time.perf_counter()
        game = Game(parse("control 300+3\n"))  # the flash, the board, the boot
        fresh.append(time.perf_counter() - began)
        game.act("press", ["right"])
        game.run_to(10_000)
        game.act("power", ["off"])
        began = time.perf_counter()
        game.act("power", ["on"])  # boot again, restoring the game
        restored.append(time.perf_counter() - began)
        game.close()
    return {
        "virtual_ms_to_ready": 0,  # the first pass of the main loop runs at power-on
        "virtual_ms_to_times_after_restore": 3000,  # rESt, unless a press clears it
        "wall_ms_fresh_boot_cpython": round(statistics.median(fresh) * 1000, 2),
        "wall_ms_restoring_boot_cpython": round(statistics.median(restored) * 1000, 2),
    }


def power_figures():
    per_hour = writes_per_hour()
    return {
        "writes_per_hour": per_hour,
        "wear_10000_games": wear(per_hour["journal_entries_per_hour"]),
        "restored_error": restored_error(),
        "boot": boot_time(),
    }


def declared():
    """The journal's figures (bench/figure_rows.py)."""
    wear_path = "power.wear_10000_games.boards.%s.erase_cycles_per_block"
    wear_name = "flash erase cycles per block, {:,} games of {} h, %s".format(GAMES, GAME_HOURS)
    return (
        Figure(
            "journal: entries per hour of play (40 moves/h/side)",
            "power.writes_per_hour.journal_entries_per_hour",
            "",
            "report",
            False,
        ),
        Figure(
            "journal: flash writes per hour of play",
            "power.writes_per_hour.flash_writes_per_hour",
            "",
            "report",
        ),
        Figure(wear_name % "Pico", wear_path % "pico", "", "< 100,000"),
        Figure(wear_name % "ESP32", wear_path % "esp32", "", "< 100,000"),
        Figure(
            "time lost by the side to move after a power cut, typical",
            "power.restored_error.typical_ms",
            "ms",
            "report",
        ),
        Figure(
            "time lost by the side to move after a power cut, worst",
            "power.restored_error.worst_ms",
            "ms",
            "≤ 5,000 ms",
        ),
        Figure("power cuts tried", "power.restored_error.cuts", "", "report", False),
        Figure(
            "power-on to a ready clock, virtual",
            "power.boot.virtual_ms_to_ready",
            "ms",
            "report",
            False,
        ),
        Figure(
            "power-on to a ready clock, wall (CPython, fresh)",
            "power.boot.wall_ms_fresh_boot_cpython",
            "ms",
            "report",
            False,
        ),
        Figure(
            "power-on to a restored game, wall (CPython)",
            "power.boot.wall_ms_restoring_boot_cpython",
            "ms",
            "report",
            False,
        ),
    )


def rows(figures):
    """The section's table (``make bench``, ``python -m bench.power``)."""
    return figure_rows.table_rows(declared(), "power", figures)


def main(argv):
    return results.command("power", power_figures(), rows, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
