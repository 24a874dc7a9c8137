"""The ring before the start, and a game with no erase: what a player waits, what freezes.

On the chip models (``sim.latency``: boards/chips/, the flash's typical and
maximum times, the CPU of each device read calibrated on the port) over the
real littlefs (``sim.littlefs_flash``, each board's geometry), for the `pico`
and the `esp32`:

- **the wait from a new game's setup to a start**: a short game is played and
  paused, the arbiter's new game asked with the keys as the port's scene keys
  it (hold set, hold set, set: its ring prepared again, sized to the control),
  the wait counted from that set's press; then the first instant at which a
  lever press starts the game (after the last block and the first main-loop
  step after it, before which a press is refused: docs/power.md, "Before the
  start"). For a rapid control
  (15+10), a classical one (FIDE's 90 min/40 + 30 min, 30 s a move from the
  first) and a blitz (3+2).
- **the ring's preparation at power-up**, the clock's default control (90+30,
  83 blocks): from its first block's erase to the first step that allows a
  start, the port lane's boot without a settings file (on the image: 7,288 ms
  at the typical times, docs/port.md).
- **the longest gap between due frames while a game is in progress**: a game of
  60 moves (replies of 0.3 s and thinks up to 12 s, periodic journal entries
  among them), paused, a time correction by the arbiter, resumed, played on;
  a frame is due at each 20 ms tick, and a pass whose calls hold the main loop
  sends its frame late: the gap is the tick and the longest such hold. The
  erases counted meanwhile (goal 0).

``python -m bench.preparation`` prints the figures (``--write``: and puts them in
bench/latest.json under ``preparation``); ``make bench`` writes them there too.
"""

import random
import sys

from bench import figure_rows, results
from bench.figure_rows import Figure
from sim import script as script_module
from sim.littlefs_flash import LittleFsFlash
from sim.runner import Game

BOARDS = (("pico", "rp2"), ("esp32", "esp32"))
LEVELS = ("typical", "max")
CONTROLS = (
    ("rapid", "900+10"),
    ("classical", "40/5400+30:1800+30"),
    ("blitz", "180+2"),
)
TICK_MS = 20  # boards/pico.py, boards/esp32.py: a frame may be due at each tick
GOAL_GAP_MS = 50  # issue 43: the longest gap between due frames in a game
_LONG_PRESS_MS = 2_100  # a long press of set (the menus take 2 s), as the port's scene
_KEY_GAP_MS = 70  # from a key's release to the next press
GOAL_RAPID_WAIT_MS = 3_000  # issue 43: a rapid control's wait at the typical figures


def _game(board_name, port, level, control):
    def filesystem(folder):
        return LittleFsFlash(port, folder)

    script = script_module.parse("control %s\n" % control)
    return Game(script, board_name, latency=level, filesystem=filesystem)


def _first_start(game, since):
    """The first instant from ``since`` at which a lever press starts the game: once no
    block is left, the first step after the last one (``App.ready_at``: a press stamped
    at or before it is refused), a millisecond later. The press is made there and the
    game checked running; returns that instant."""
    app = game.board.app
    now = since + TICK_MS  # (a new game is set up, its ring sized, at the next step)
    game.run_to(now)
    while app.journal.start_wait() or app.preparing:
        now += 10
        game.run_to(now)
    ready = app.ready_at
    if ready is not None and ready + 1 > now:
        now = ready + 1
    now = max(now, game.board.latency.busy_until_ms())
    game.run_to(now)
    game.act("press", ["right"])
    game.run_to(now + 100)
    values = dict(game.values())
    if values["state"] != "running":
        raise AssertionError("no game started at %d ms: %s" % (now, values["display"]))
    return now


def wait_to_start(board_name, port, level, control):
    """``(ms from a new game's setup to a start, the ring's blocks)``."""
    game = _game(board_name, port, level, control)
    try:
        now = _first_start(game, 0)
        for turn in range(4):
            now += 1_000
            game.run_to(now)
            game.act("press", ["left" if turn % 2 == 0 else "right"])
        now += 1_000
        game.run_to(now)
        game.act("pause", [])
        # The arbiter's new game, keyed as the port's scene keys it (tools/port/scenes.mjs,
        # docs/menus.md): hold set, hold set (nEU GAnE), set; the wait from that set.
        for _ in range(2):
            now += 1_000 if _ == 0 else _KEY_GAP_MS
            game.run_to(now)
            game.act("hold", ["set", _LONG_PRESS_MS])
            now += _LONG_PRESS_MS
        now += _KEY_GAP_MS
        game.run_to(now)
        setup = now
        game.act("key", ["set"])
        while not game.board.app.journal.start_wait():  # the key taken: the ring sized again
            now += 1
            if now > setup + 1_000:
                raise AssertionError("the new game was not set up by its keys")
            game.run_to(now)
        started = _first_start(game, now - TICK_MS)
        blocks = len(game.board.app.journal.store.ring.blocks)
    finally:
        game.close()
    return started - setup, blocks


def boot_preparation(board_name, port, level):
    """The ring's preparation at power-up with the clock's default control
    (``firmware.settings.DEFAULT_CONTROL``, the port lane's boot without a settings file):
    ``(ms from its first block's erase to the first step that allows a start, the ring's
    blocks)``, as measured on the image (tools/port/lane.mjs, docs/port.md)."""
    from firmware.settings import DEFAULT_CONTROL
    from sim import ready

    game = Game(
        script_module.parse("control %s\n" % DEFAULT_CONTROL),
        board_name,
        latency=level,
        filesystem=lambda folder: LittleFsFlash(port, folder),
    )
    try:
        model = game.board.latency
        first = None
        for start, end, masks in model.windows:  # the boot's calls: its first erase
            if masks and end - start == model.erase_us:
                first = start
                break
        ready_ms = ready.ready_at_ms(game.board)
        blocks = len(game.board.app.journal.store.ring.blocks)
    finally:
        game.close()
    return ready_ms - first // 1000, blocks


def _statement_arguments(text):
    """The arguments of one clock-script statement (``add left +1:00``)."""
    return script_module.parse("control 60\nat 0 %s\n" % text).statements[0][3]


def game_holds(board_name, port, level, seed=43):
    """A game in progress on ``board_name``'s model: ``(the longest hold of the main loop
    by its calls from a pass's instant, ms; the erases meanwhile)``."""
    draw = random.Random(seed)
    game = _game(board_name, port, level, "900+10")
    try:
        now = _first_start(game, 0)
        side = 0
        for move in range(60):
            now += draw.choice((300, 300, 700, 2_000, 5_100, 12_000))
            game.run_to(now)
            game.act("press", ["left" if side == 0 else "right"])
            side = 1 - side
            if move == 30:
                now += 1_000
                game.run_to(now)
                game.act("pause", [])
                now += 2_000
                game.run_to(now)
                game.act("add", _statement_arguments("add left +1:00"))
                now += 5_000
                game.run_to(now)
                game.act("resume", [])
        game.run_to(now + 1_000)
        model = game.board.latency
        hold_ms = model.longest_hold_in_game_us / 1000
        erases = model.erases_in_game
    finally:
        game.close()
    return round(hold_ms, 3), erases


def preparation_figures():
    result = {}
    for board_name, port in BOARDS:
        entry = {}
        for level in LEVELS:
            for name, control in CONTROLS:
                wait_ms, blocks = wait_to_start(board_name, port, level, control)
                entry.setdefault("wait_to_start_ms", {}).setdefault(name, {})[level] = wait_ms
                entry.setdefault("ring_blocks", {})[name] = blocks
            boot_ms, blocks = boot_preparation(board_name, port, level)
            entry.setdefault("boot_preparation_ms", {})[level] = boot_ms
            entry["boot_ring_blocks"] = blocks
            hold_ms, erases = game_holds(board_name, port, level)
            entry.setdefault("longest_hold_in_game_ms", {})[level] = hold_ms
            entry.setdefault("longest_frame_gap_in_game_ms", {})[level] = round(
                TICK_MS + hold_ms, 3
            )
            entry.setdefault("erases_in_game", {})[level] = erases
        result[board_name] = entry
    return result


BOARD_NAMES = {"pico": "Pico", "esp32": "ESP32"}
LEVEL_NAMES = {"typical": "typical", "max": "datasheet maxima"}
CONTROL_NAMES = {"rapid": "15+10", "classical": "90/40+30+30 s", "blitz": "3+2"}
ON_PAGE = ("rapid", "classical")  # the page's named rows; the blitz under "Other figures"


def declared():
    """Each board and level's figures (bench/figure_rows.py)."""
    figures = []
    for board_name, _port in BOARDS:
        path = "preparation.%s." % board_name
        for level in LEVELS:
            where = "%s: %%s, %s" % (BOARD_NAMES[board_name], LEVEL_NAMES[level])
            figures += [
                Figure(
                    where % "longest gap between due frames in a game",
                    path + "longest_frame_gap_in_game_ms." + level,
                    "ms",
                    "≤ %d ms" % GOAL_GAP_MS,
                ),
                Figure(
                    where % "erases while a game is in progress",
                    path + "erases_in_game." + level,
                    "",
                    "0",
                ),
            ]
            figures.append(
                Figure(
                    where % "the ring's preparation at power-up, the default control",
                    path + "boot_preparation_ms." + level,
                    "ms",
                    "report",
                    False,
                )
            )
            for name, _control in CONTROLS:
                wanted = name == "rapid" and level == "typical"
                figures.append(
                    Figure(
                        where % ("wait from a new game's setup to a start, " + CONTROL_NAMES[name]),
                        "%swait_to_start_ms.%s.%s" % (path, name, level),
                        "ms",
                        "≤ {:,} ms".format(GOAL_RAPID_WAIT_MS) if wanted else "report",
                        name in ON_PAGE,
                    )
                )
        for name, _control in CONTROLS:
            figures.append(
                Figure(
                    "%s: the ring's blocks, %s" % (BOARD_NAMES[board_name], CONTROL_NAMES[name]),
                    path + "ring_blocks." + name,
                    "",
                    "report",
                    False,
                )
            )
    return tuple(figures)


def rows(figures):
    """The section's table (``make bench``, ``python -m bench.preparation``)."""
    return figure_rows.table_rows(declared(), "preparation", figures)


def main(argv):
    return results.command("preparation", preparation_figures(), rows, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
