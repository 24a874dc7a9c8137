"""No flash erase while a game is in progress: every clock script on the real littlefs.

An erase holds the main loop (on the RP2040 the whole core: no display frame,
no key stamped) for 45 ms typically, 0.4 s at most (boards/chips/). So the
journal's ring is prepared before a start, the game's entries and its event
log's lines are programmed into it, and nothing else writes the flash in a game
(hal/journal_store.py, docs/power.md, "No erase in a game"). Each script of
tests/scenarios and docs/pictures is played on the `pico` board's definition
(its ring sized to the script's control, at most ``JOURNAL_RING_BLOCKS``) over
the real littlefs on a simulated NOR flash (``sim.littlefs_flash``, the rp2's
geometry), and every erase littlefs or the ring makes is counted with the
clock's state at that moment: none may fall while the clock runs or stands
paused, across the new file, the file's growth, the ring's end, settings, a
time correction, a claim, a power cut's return and the end of a game that the
scripts play.
"""

import os

import pytest

from firmware import engine
from sim import script as script_module
from sim.littlefs_flash import LittleFsFlash
from sim.runner import Game, Player
from tests.scripting import ROOT, expected_exit, micropython_sample, scenario_names

IN_PROGRESS = (engine.RUNNING, engine.PAUSED)


class ErasesInGame(list):
    """The flash's operation log (``NorFlash.log``) reduced to a count: the erases made
    while ``board``'s game was in progress, with the instant and the state of each."""

    def __init__(self):
        list.__init__(self)
        self.board = None
        self.erases = 0

    def append(self, operation):
        if operation[0] != "erase":
            return
        self.erases += 1
        board = self.board
        app = board.app if board is not None else None
        if app is not None and app.clock.state in IN_PROGRESS:
            list.append(self, (board.stepped_at, app.clock.state, operation[1]))


def play_on_littlefs(name, board_name="pico"):
    """Play script ``name`` on ``board_name`` over the real littlefs: ``(status, the erases
    in a game, every erase)``."""
    with open(os.path.join(ROOT, name)) as source:
        script = script_module.parse(source.read())
    log = ErasesInGame()

    def filesystem(folder):
        files = LittleFsFlash("rp2", folder)
        files.nor.log = log
        return files

    game = Game(script, board_name, filesystem=filesystem)
    log.board = game.board
    try:
        status = Player(game).play(script.statements)
    finally:
        game.close()
    return status, list(log), log.erases


def _played_scripts():
    return [name for name in scenario_names() if expected_exit(name) == 0]


# make test plays the sample the MicroPython lane plays (one script in 12 of each
# folder, every topic); make scenarios, which CI runs after it, plays them all
# (the environment's SCENARIOS_MPY=all).
ON_LITTLEFS = micropython_sample(_played_scripts(), os.environ.get("SCENARIOS_MPY") == "all")


def test_the_scripts_are_played():
    assert len(_played_scripts()) >= 200


@pytest.mark.parametrize("name", ON_LITTLEFS)
def test_no_erase_falls_while_a_game_is_in_progress(name):
    status, in_game, erases = play_on_littlefs(name)
    assert status == 0, "the script's expectations hold on littlefs too"
    assert in_game == [], "erases in a game (ms, state, block): %r" % in_game[:5]
    assert erases > 0  # the flash was written: the ring's preparation at least


def test_a_game_longer_than_its_ring_would_erase():
    """The check sees an erase in a game: six hours of sudden death on a ring of at
    most 96 blocks (the board's before this check) run past the ring's end, and the
    entries that follow go to the slot files, whose littlefs commits erase."""
    import boards

    pico = boards.load("pico")
    kept = pico.JOURNAL_RING_BLOCKS
    pico.JOURNAL_RING_BLOCKS = 96
    try:
        status, in_game, _ = play_on_littlefs("tests/scenarios/games/six-hours.clock")
    finally:
        pico.JOURNAL_RING_BLOCKS = kept
    assert status == 0
    assert in_game and all(state in IN_PROGRESS for _, state, _ in in_game)
