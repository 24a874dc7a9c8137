"""A tournament day on the chip's heap: ten games back to back in one MicroPython process.

``node tools/mpy/run.mjs --compiled bench.tournament_heap pico`` boots the
firmware (``.mpy``) on the named board and plays ten games on it, each set up
from the menu with another preset, with moves 0.5 to 5 s apart and, game by
game, a time correction, a time and a move-counter correction, or a power
cut in the middle of the game, and the arbiter's new-game sequence at its
end, after which the menu sets the day's first control again (claims are
not played yet). On a board with a network (``pico_w``, ``esp32``) a hall
file is on the flash, the simulator's Wi-Fi goes down and comes back from
game to game (up again at each game's end), and the link gets its turn
after every statement as the main loop gives it one (its client never
reaches a broker: the WebAssembly port has no sockets, and the hall file
names a port where none listens, so each connect fails and backs off). It prints one JSON object:

- ``heap_in_use_after_each_game_bytes``: the heap in use after each game and
  a full collection, every game ending in the same state (the same control
  set up, the link up, the journal's ring whole), and
  ``heap_growth_after_the_first_game_bytes``: the most any of them stands
  above the first. The figure holds the simulated board's objects too (its
  block device's 4 KiB blocks among them), the same after every game. The
  collector takes any word of a live block that holds a heap address for a
  pointer; in this port the heap's addresses are small numbers, in the
  range of the clock's times in ms, so a time in a buffer (a journal page,
  the simulated flash, a display's memory) would keep garbage alive at
  random, which it cannot do on a chip (its heap's addresses start at
  0x2000_0000 on the RP2040, 0x3FF8_0000 on the ESP32). So the collection
  that is measured runs with every bytearray and array reachable from the
  board and the modules zeroed (their bytes kept in a file meanwhile): a
  buffer holds no references. Words this cannot reach (the bytecode of the
  loaded modules, among them) still hold a dead object now and then (a
  module let go, its functions and their bytecode: 2.5 to 5.6 KB seen),
  held after one game and gone after another, and where they fall depends
  on where every object of the run lies. So the figure moves by up to a
  few KB from game to game without climbing; what the firmware holds,
  container by container, is the same after every game
  (tests/test_tournament_heap.py).
- ``a_game_needs_bytes``: the most the heap in use stands above its level
  after the previous game while a game goes on, read after every statement
  and a full collection (the statements are played one per call): what the
  game holds at once, the setup menu's modules and screens at the most.
  What a statement allocates and drops on the way is collected as it goes.
- ``largest_free_block_after_each_game_bytes``: after each game's
  collection, the largest bytearray that can be allocated without the heap
  growing (``largest_free_block``, a probe that runs on a chip as well),
  bounded by the chip's heap (``largest_free_block_bound_bytes``); this
  port's heap is larger than a board's and grows on demand, so here the
  figure says only that a game's need fits between games, not how a board's
  heap is cut up. ``largest_free_block_holds_a_game``: it never dropped
  below ``a_game_needs_bytes``.
- ``firmware_holds_the_same_after_each_game``: what the firmware holds, every
  container and buffer reachable from the app and the modules of firmware/
  and hal/ with its length (``firmware_shape``), is the same after each game
  as after the first: the exact check that the heap figure cannot be here.

The day's games are played through ``start_day``, ``day_games``,
``play_statement`` and ``finish_game``, which tests/test_tournament_heap.py
plays on CPython as well.
"""

import gc
import json

import boards
from sim import network
from sim.latency import chip_of
from sim.runner import Game, NotApplied
from sim.script import parse

GAMES = 10
# The hall file: a broker where none listens (port 1), so that the link's connects
# fail alike on CPython (tests/test_tournament_heap.py), whatever runs on the host,
# and inside the WebAssembly port, which has no sockets.
_HALL = {"broker": "127.0.0.1", "port": 1, "user": "clock-1", "board": 1}


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
    lines.append("at %d.%03d key set" % (now // 1000, now % 1000))  # the menu again
    now += 400
    lines.append("at %d.%03d key set" % (now // 1000, now % 1000))
    for _ in range(index % 5 + 1):  # back to the day's first control
        now += 400
        lines.append("at %d.%03d key minus" % (now // 1000, now % 1000))
    now += 400
    lines.append("at %d.%03d key set" % (now // 1000, now % 1000))
    now += 4000
    return "control 300\n" + "\n".join(lines) + "\n", now


class _Rng:
    """A small linear congruential generator: the same games on every port. Its state
    stays below 2**30, a small int of MicroPython, never an object on the heap: the
    digits of a long int are raw words, which the collector could take for pointers."""

    def __init__(self, seed):
        self.state = seed

    def randint(self, low, high):
        self.state = (self.state * 1103515245 + 12345) & 0x3FFFFFFF
        return low + (self.state >> 8) % (high - low + 1)


def play_statement(game, base, statement):
    """Play one statement of a game that began at ``base`` ms on ``game``, then give
    the hall link, if any, its turn; False if the statement could not apply."""
    _, time_ms, action, arguments = statement
    game.run_to(base + time_ms)
    applied = True
    try:
        game.act(action, arguments)
    except NotApplied:
        applied = False
    app = game.board.app
    link = getattr(app, "hall", None) if app is not None else None
    if link is not None:
        link.poll(app, game.board.runtime.ticks_ms())
    return applied


def finish_game(game, base, length):
    """End the game that began at ``base`` ms and lasts ``length`` ms as every game of
    the day ends: the link up, the next game set up, and, while the clock stands
    (as before a next round), the journal's ring given back its blocks, 0.5 s each
    (hal/journal_store.py), so that it is whole. Returns the instant it ends."""
    network.set_link(True)
    base += length
    game.run_to(base)
    store = game.board.app.journal.store
    while store.is_preparing():
        base += 1000
        game.run_to(base)
    return base


def start_day(name):
    """A ``Game`` on board ``name`` booted for the day: on a board with a network, with
    the hall file on its flash (booted again to read it)."""
    network.install()
    game = Game(parse("control 300\nquickplay g5\n"), board_name=name)
    if name != "pico":
        document = dict(_HALL)
        document["password"] = "password"
        document["version"] = 1
        with open(game.flash + "/hall.json", "w") as handle:
            handle.write(json.dumps(document))
        game.act("power", ["off"])
        game.act("power", ["on"])  # boots again, with the hall file
    return game


def day_games(count):
    """The statements and lengths of the day's first ``count`` games, in order."""
    rng = _Rng(20)
    games = []
    for index in range(count):
        text, length = _game_text(index, rng)
        games.append((parse(text).statements, length))
    return games


def _shape(root, path, out, seen):
    """(path, kind, length) of every container and buffer reachable from ``root``
    through attributes, lists, tuples, sets and dict values, into ``out``; the
    simulator's objects (hardware on a chip), classes, functions and modules end
    the walk."""
    kind = type(root)
    if root is None or kind in (bool, int, str) or id(root) in seen:
        return
    seen.add(id(root))
    name = kind.__name__
    if kind in (bytes, bytearray) or name == "array":
        out.append((path, name, len(root)))
    elif kind in (list, tuple):
        out.append((path, name, len(root)))
        for index, item in enumerate(root):
            _shape(item, "%s[%d]" % (path, index), out, seen)
    elif kind in (set, frozenset):
        out.append((path, name, len(root)))
        for index, item in enumerate(sorted(root, key=repr)):
            _shape(item, "%s[%d]" % (path, index), out, seen)
    elif kind is dict:
        out.append((path, "dict", len(root)))
        for key, item in root.items():
            _shape(item, "%s{%s}" % (path, key), out, seen)
    elif not isinstance(root, type) and name not in ("module", "function"):
        if getattr(kind, "__module__", "").startswith("sim"):
            return
        try:
            attributes = root.__dict__
        except AttributeError:
            return
        for key in sorted(attributes):
            _shape(attributes[key], "%s.%s" % (path, key), out, seen)


def firmware_shape(app):
    """What the firmware holds, as (path, kind, length) of every container and buffer
    reachable from ``app`` and from the globals of the modules of firmware/ and
    hal/ but the interpreter's own (``__spec__``) (``_shape``): after every game of
    the day it should be the same. Nothing is let go, so a module first loaded in
    a later game (the move-counter correction's) adds only its globals, once."""
    import sys

    out = []
    seen = set()
    _shape(app, "app", out, seen)
    for name in sorted(sys.modules):
        if name.split(".")[0] in ("firmware", "hal"):
            attributes = sys.modules[name].__dict__
            for key in sorted(attributes):
                if key.startswith("__"):
                    continue  # the interpreter's own (CPython's __spec__ of a module loaded late)
                _shape(attributes[key], "%s.%s" % (name, key), out, seen)
    return out


def _digest(shape):
    """A small int that changes with any entry of ``shape`` (kept between games
    instead of the list, which would be on the heap that is measured), whatever
    their order: MicroPython's dicts keep no insertion order, so the same entries
    may be listed in another."""
    total = 0
    for path, kind, length in shape:
        total = (total + (hash(path) * 31 + 7 * hash(kind) + length) * 1_000_003) & 0x3FFFFFF
    return total


def fits(size):
    """True if a bytearray of ``size`` bytes can be allocated now without the heap
    growing (its total, ``gc.mem_alloc() + gc.mem_free()``, the same after); let go
    at once. On a chip the heap never grows: True if there is a free block that large."""
    total = gc.mem_alloc() + gc.mem_free()
    try:
        block = bytearray(size)
    except MemoryError:
        return False
    grew = gc.mem_alloc() + gc.mem_free() != total
    block = None  # noqa: F841
    return not grew


def largest_free_block(bound, step=16):
    """The largest free block, up to ``bound`` bytes, to ``step`` bytes: a bisection
    of ``fits`` (about 14 tries for 192 KiB), for a chip, where the heap never
    grows. Where it adds room on demand (the WebAssembly port) a try that made it
    grow would let the next ones fall in the new room, so there the tries are made
    one per call, a collection between (which gives an empty new room back):
    ``main`` does that, one ``_halve`` at a time."""
    low, high = 0, bound // step + 1
    while high - low > 1:
        low, high = _halve(low, high, step)
    return low * step


def _halve(low, high, step):
    """One try of the bisection: ``low`` steps fit, ``high`` do not."""
    middle = (low + high) // 2
    if fits(middle * step):
        return middle, high
    return low, middle


def _raw_buffers(root, found, seen, depth=0):
    """Every bytearray and array reachable from ``root`` through attributes, lists,
    tuples and dict values, into ``found``."""
    kind = type(root)
    if root is None or kind in (int, bool, str, bytes) or depth > 16 or id(root) in seen:
        return
    seen.add(id(root))
    if kind is bytearray or kind.__name__ == "array":
        found.append(root)
    elif kind is list or kind is tuple:
        for item in root:
            _raw_buffers(item, found, seen, depth + 1)
    elif kind is dict:
        for item in root.values():
            _raw_buffers(item, found, seen, depth + 1)
    elif kind.__name__ != "module":
        try:
            attributes = root.__dict__
        except AttributeError:
            return
        for item in attributes.values():
            _raw_buffers(item, found, seen, depth + 1)


_MODULES = ("firmware", "hal", "boards", "sim", "adafruit_ht16k33", "adafruit_debouncer")
_KEPT = "/tmp/tournament-buffers.bin"
_STEP = 16  # the collector's block: the free block's size is found to this


def _zero_buffers(board):
    """Zero every raw buffer of the board and the modules, their bytes kept in a file;
    returns them, for ``_restore_buffers``."""
    import sys

    found = []
    seen = set()
    _raw_buffers(board, found, seen)
    for name in sys.modules:
        if name.split(".")[0] in _MODULES:
            _raw_buffers(sys.modules[name].__dict__, found, seen)
    with open(_KEPT, "wb") as handle:
        for buffer in found:
            handle.write(buffer)
    for buffer in found:
        if type(buffer) is bytearray:
            buffer[:] = bytes(len(buffer))
        else:
            for index in range(len(buffer)):
                buffer[index] = 0
    return found


def _restore_buffers(found):
    with open(_KEPT, "rb") as handle:
        for buffer in found:
            handle.readinto(buffer)


def main(argv):
    name = argv[0] if argv else "pico"
    games = int(argv[1]) if len(argv) > 1 else GAMES
    bound = chip_of(boards.load(name)).HEAP_BYTES
    rng = _Rng(20)
    state = {
        "game": None,
        "base": 0,
        "index": 0,
        # filled in place: lists that grew would be the bench's own growth
        "in_use": [0] * games,
        "free_block": [0] * games,
        "shape": [0] * games,
        "needs": 0,
        "skipped": 0,
        "statements": [],
        "next": 0,
        "after_game": 0,
        "kept": None,
        "search": (0, bound // _STEP + 1),
    }

    def boot():
        state["game"] = start_day(name)
        gc.collect()
        return begin

    def begin():
        index = state["index"]
        if index == games:
            return report()
        state["index"] = index + 1
        text, length = _game_text(index, rng)
        network.set_link(index % 2 == 0)
        state["statements"] = parse(text).statements
        state["next"] = 0
        state["length"] = length
        del text
        gc.collect()
        return first

    def first():
        state["after_game"] = gc.mem_alloc()
        return statement

    def statement():
        # The statements of a game one by one, a collection after each: the heap
        # in use then, above its level after the last game, is what the game holds.
        held = gc.mem_alloc() - state["after_game"]
        if held > state["needs"]:
            state["needs"] = held
        statements = state["statements"]
        number = state["next"]
        if number == len(statements):
            return end()
        state["next"] = number + 1
        if not play_statement(state["game"], state["base"], statements[number]):
            state["skipped"] += 1
        gc.collect()
        return statement

    def end():
        state["base"] = finish_game(state["game"], state["base"], state["length"])
        state["statements"] = []
        gc.collect()
        return zeroed

    def zeroed():
        state["kept"] = _zero_buffers(state["game"].board)
        gc.collect()
        return measured

    def measured():
        state["in_use"][state["index"] - 1] = gc.mem_alloc()
        _restore_buffers(state["kept"])
        state["kept"] = None
        gc.collect()
        return shaped

    def shaped():
        state["shape"][state["index"] - 1] = _digest(firmware_shape(state["game"].board.app))
        gc.collect()
        return probed

    def probed():
        # largest_free_block, one try per call (see there)
        low, high = state["search"]
        if high - low > 1:
            state["search"] = _halve(low, high, _STEP)
            gc.collect()
            return probed
        state["free_block"][state["index"] - 1] = low * _STEP
        state["search"] = (0, bound // _STEP + 1)
        return begin

    def report():
        in_use = state["in_use"]
        app = state["game"].board.app
        figures = {
            "board": name,
            "games": games,
            "statements_not_applied": state["skipped"],
            "state_at_the_end": app.clock.state,
            "heap_in_use_after_each_game_bytes": in_use,
            "heap_growth_after_the_first_game_bytes": max(in_use) - in_use[0],
            "a_game_needs_bytes": state["needs"],
            "largest_free_block_after_each_game_bytes": state["free_block"],
            "largest_free_block_bound_bytes": bound,
            "largest_free_block_holds_a_game": min(state["free_block"]) >= state["needs"],
            "firmware_holds_the_same_after_each_game": all(
                digest == state["shape"][0] for digest in state["shape"]
            ),
            "hall_link": getattr(app, "hall", None) is not None,
        }
        print(json.dumps(figures))
        state["game"].close()
        return 0

    return boot
