"""A tournament day on the chip's heap: ten games back to back in one MicroPython process.

``node tools/mpy/run.mjs --compiled bench.tournament_heap pico`` boots the
firmware (``.mpy``) on the named board and plays ten games on it, each set up
from the menu with another preset, with moves 0.5 to 5 s apart and, game by
game, a time correction, a time and a move-counter correction, or a power
cut in the middle of the game, and the arbiter's new-game sequence at its
end (claims are not played yet). On a board with a network (``pico_w``,
``esp32``) a hall file is on the flash, the simulator's Wi-Fi goes down and
comes back from game to game, and the link gets its turn after every
statement as the main loop gives it one (its client never reaches a broker:
the WebAssembly port has no sockets, so each connect fails and backs off).
After each game, and a full collection, it reads the heap in use. It prints
one JSON object: the heap in use game by game (the firmware's and the
simulated board's objects together) and how much it grew past the first
game. The WebAssembly port's heap is far larger than a board's, so the
largest free block it finds says nothing of a board and is not reported.
"""

import gc
import json

from sim import network
from sim.runner import Game, NotApplied
from sim.script import parse

GAMES = 10
_HALL = {"broker": "127.0.0.1", "port": 1883, "user": "clock-1", "board": 1}


def _game_text(index, rng):
    """The statements of game ``index``, from 0 s; returns (text, its length in ms)."""
    lines = ["at 0 key set", "at 0.4 key set"]  # the menu, then the preset list
    now = 800
    for _ in range(index % 5 + 1):
        lines.append("at %d.%03d key plus" % (now // 1000, now % 1000))
        now += 400
    lines.append("at %d.%03d key set" % (now // 1000, now % 1000))  # the preset chosen
    now += 600
    side = "right"
    lines.append("at %d.%03d press right" % (now // 1000, now % 1000))  # left is White
    for move in range(20 + rng.randint(0, 20)):
        now += rng.randint(500, 5000)
        side = "left" if side == "right" else "right"
        lines.append("at %d.%03d press %s" % (now // 1000, now % 1000, side))
        if move == 10:
            now += 1000
            lines.append("at %d.%03d pause" % (now // 1000, now % 1000))
            if index % 3 == 0:
                lines.append("at %d.%03d add left -1:00" % (now // 1000 + 1, now % 1000))
            elif index % 3 == 1:
                lines.append("at %d.%03d add right +1:00" % (now // 1000 + 1, now % 1000))
                lines.append("at %d.%03d setmoves 12" % (now // 1000 + 2, now % 1000))
            else:
                lines.append("at %d.%03d power off" % (now // 1000 + 1, now % 1000))
                lines.append("at %d.%03d power on" % (now // 1000 + 2, now % 1000))
            now += 3000
            lines.append("at %d.%03d resume" % (now // 1000, now % 1000))
    now += 1000
    lines.append("at %d.%03d pause" % (now // 1000, now % 1000))
    now += 1000
    lines.append("at %d.%03d hold set 2.1" % (now // 1000, now % 1000))  # the time screen
    now += 2500
    lines.append("at %d.%03d hold set 2.1" % (now // 1000, now % 1000))  # nEU GAnE
    now += 2500
    lines.append("at %d.%03d key set" % (now // 1000, now % 1000))  # yes: a new game
    now += 4000
    return "control 300\n" + "\n".join(lines) + "\n", now


class _Rng:
    """A small linear congruential generator: the same games on every port."""

    def __init__(self, seed):
        self.state = seed

    def randint(self, low, high):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return low + self.state % (high - low + 1)


def main(argv):
    name = argv[0] if argv else "pico"
    hall = name != "pico"
    network.install()
    rng = _Rng(20)
    state = {"game": None, "base": 0, "index": 0, "in_use": [], "skipped": 0}

    def boot():
        game = Game(parse("control 300\nquickplay g5\n"), board_name=name)
        if hall:
            document = dict(_HALL)
            document["password"] = "password"
            document["version"] = 1
            with open(game.flash + "/hall.json", "w") as handle:
                handle.write(json.dumps(document))
            game.act("power", ["off"])
            game.act("power", ["on"])  # boots again, with the hall file
        state["game"] = game
        gc.collect()
        return play

    def play():
        index = state["index"]
        if index > 0:
            state["in_use"].append(gc.mem_alloc())
        if index == GAMES:
            return report()
        state["index"] = index + 1
        game = state["game"]
        text, length = _game_text(index, rng)
        network.set_link(index % 2 == 0)
        base = state["base"]
        for _, time_ms, action, arguments in parse(text).statements:
            game.run_to(base + time_ms)
            try:
                game.act(action, arguments)
            except NotApplied:
                state["skipped"] += 1
            app = game.board.app
            link = getattr(app, "hall", None) if app is not None else None
            if link is not None:
                link.poll(app, game.board.runtime.ticks_ms())
        state["base"] = base + length
        game.run_to(base + length)  # the new game set up
        del text
        gc.collect()
        return play

    def report():
        in_use = state["in_use"]
        app = state["game"].board.app
        figures = {
            "board": name,
            "games": GAMES,
            "statements_not_applied": state["skipped"],
            "state_at_the_end": app.clock.state,
            "heap_in_use_after_each_game_bytes": in_use,
            "heap_growth_after_the_first_game_bytes": max(in_use) - in_use[0],
            "hall_link": getattr(app, "hall", None) is not None,
        }
        print(json.dumps(figures))
        state["game"].close()
        return 0

    return boot
