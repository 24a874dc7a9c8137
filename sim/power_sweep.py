"""Power cuts at every byte: a scripted game on the real littlefs, cut everywhere, booted, checked.

``python -m sim.power_sweep [--port rp2|esp32] [--sample N] [--double N]``
(``make power-sweep`` runs both geometries in full).

1. **The reference run.** ``SCRIPT`` is played once on the simulated board
   (``sim.world.SimBoard``: the firmware as it boots on the Pico or the
   ESP32, ring and all) over the real littlefs (``sim.littlefs_flash``) on a
   NOR flash (``sim.nor_flash``) that logs every program and erase. Around
   each pass of the main loop the board is looked at (``look``: the state,
   both times, the side to move, the moves, the flags, the settings in
   force), so that every flash operation is known with the state just
   before its pass and just after it.
2. **The cut points.** Every byte of every program and every erase is a cut
   point: the flash as the power leaves it there (the program's first bytes,
   an erase's block undefined, ``sim.nor_flash``) is rebuilt from the log.
   Cut points that leave the same flash as the byte before (a 0xFF byte of a
   program, or one that clears no bit) share that byte's boot: the boot's
   result depends on the flash alone. Every cut point is checked.
3. **The check** (``judge``), written from docs/power.md and the FIDE Laws, not
   from what the firmware does: a cut during a pass must bring back the game
   as it stood before that pass or after it: a running game paused, the side
   not to move exact, the side to move between its time and 5 s
   (``journal.ENTRY_MS``) more; a paused or finished game exact; the same
   moves, White, flags; a clock in setup in setup; the settings in force
   unchanged. Otherwise the cut point counts as a game lost (back in setup),
   a game invented (a game back where none was, or another game), a time
   beyond the bound, settings lost, or a boot that raised.
4. **Double faults.** From ``--double`` first cut points whose boot passed,
   spread over the whole game, the board boots with the log on and plays on
   (``AFTER_BOOT``: the game started or resumed, two moves); every cut point
   of that boot and of those first entries is cut again, booted and checked
   against the same rule (during the boot: the game of the first cut).

The driver presses the board's levers and keys only; it reads nothing of the
journal's ring. Runs on CPython (littlefs-python); the MicroPython lane keeps
``sim.flash``'s model, which tests/test_power_sweep.py compares with this.
"""

import hashlib
import random
import sys
import time

from firmware import engine, journal
from hal.storage import Storage
from sim import vclock
from sim.flash import PowerCut
from sim.littlefs_flash import LittleFsFlash
from sim.nor_flash import GEOMETRIES, NorFlash, torn_block
from sim.runner import LONG_HOLD_MS, PRESS_GAP_MS, arbiter_keys
from sim.world import PRESS_CONTACT_MS, SimBoard

ROOT = "/flash"
BOARDS = {"rp2": "pico", "esp32": "esp32"}
SETTINGS = {
    "control_left": "3600+30",
    "control_right": "3600+30",
    "quickplay": "off",
    "edition": "appendix-g",
}
# The scripted game: (label, action, argument). "wait" ms; "press" a lever or key;
# "keys" [(key, hold ms)] at the arbiter's pace; "arbiter" a sim.runner statement's keys;
# "err3": the power off, game.json spoiled (a damaged journal), the power on.
SCRIPT = [
    ("setup: the ring prepared", "wait", 50_000),
    ("play", "press", "lever_right"),
    ("play", "wait", 7_000),
    ("play", "press", "lever_left"),
    ("play", "wait", 3_000),
    ("play", "press", "lever_right"),
    ("play", "wait", 6_000),
    ("play", "press", "lever_left"),
    ("play", "wait", 2_000),
    ("pause", "press", "play"),
    ("pause", "wait", 2_000),
    ("arbiter: a time correction", "arbiter", ("add", ["left", 10_000])),
    ("play", "press", "play"),
    ("play", "wait", 4_000),
    ("play", "press", "lever_right"),
    ("play", "wait", 2_000),
    ("pause", "press", "play"),
    ("pause", "wait", 1_000),
    ("new game", "keys", [("set", LONG_HOLD_MS), ("set", LONG_HOLD_MS), ("set", PRESS_CONTACT_MS)]),
    ("new game: setup", "wait", 3_000),
    ("new game: play", "press", "lever_right"),
    ("new game: play", "wait", 6_000),
    ("new game: play", "press", "lever_left"),
    ("new game: play", "wait", 2_000),
    ("Err3 boot", "err3", None),
    ("Err3 boot: setup", "wait", 3_000),
]
# After a first cut: the boot, the game started or resumed, two moves.
AFTER_BOOT = [
    ("after the boot", "wait", 1_000),
    ("after the boot", "go", None),
    ("after the boot", "wait", 6_000),
    ("after the boot", "press", "lever_left"),
    ("after the boot", "wait", 6_000),
    ("after the boot", "press", "lever_right"),
    ("after the boot", "wait", 1_000),
]
KINDS = ("ok", "lost", "invented", "time", "settings", "raised")


def look(board):
    """What the board shows of the game and its settings now (None: no power)."""
    if not board.powered or board.app is None:
        return None
    app = board.app
    clock = app.clock
    tick = vclock.ticks_ms()
    settings = app.settings
    return {
        "state": engine.STATE_NAMES[clock.state],
        "times": (clock.shown_ms(0, tick), clock.shown_ms(1, tick)),
        "running": clock.running(),
        "white": clock.white,
        "moves": clock.moves(),
        "flags": (clock.sides[0].flagged, clock.sides[1].flagged, clock.first_flag),
        "settings": (
            settings.control_left,
            settings.control_right,
            settings.quickplay,
            settings.edition,
        ),
    }


def judge(back, candidates, settings):
    """``(kind, error ms)`` of the state ``back`` after a cut whose pass began in
    ``candidates[0]`` and ended in ``candidates[-1]``; ``settings`` those in force."""
    if back is None:
        return "raised", 0
    if back["settings"] != settings:
        return "settings", 0
    games = [c for c in candidates if c["state"] != "setup"]
    if back["state"] == "setup":
        return ("ok", 0) if len(games) < len(candidates) else ("lost", 0)
    if not games:
        return "invented", 0
    verdict = ("invented", 0)
    for want in games:
        wanted_state = "over" if want["state"] == "over" else "paused"
        same = (back["state"], back["moves"], back["white"], back["flags"]) == (
            wanted_state,
            want["moves"],
            want["white"],
            want["flags"],
        )
        if not same:
            continue
        mover = want["running"]
        if mover is None or mover < 0:
            if back["times"] == want["times"]:
                return "ok", 0
            verdict = (
                "time",
                abs(back["times"][0] - want["times"][0]) + abs(back["times"][1] - want["times"][1]),
            )
            continue
        other = 1 - mover
        error = back["times"][mover] - want["times"][mover]
        if back["times"][other] == want["times"][other] and 0 <= error <= journal.ENTRY_MS:
            return "ok", error
        verdict = ("time", error)
    return verdict


class _Passes:
    """``hal.runtime`` for the board, looking at it around every pass."""

    def __init__(self, recorder, runtime):
        self.recorder = recorder
        self.runtime = runtime

    def service(self, app, hardware):
        recorder = self.recorder
        recorder.begin(look(recorder.board))
        try:
            return self.runtime.service(app, hardware)
        finally:
            recorder.end(look(recorder.board))

    def turn(self, app, hardware, hall=None):
        """The main loop's turn (``hal.runtime.turn``), its pass looked at around it."""
        recorder = self.recorder
        recorder.begin(look(recorder.board))
        try:
            return self.runtime.turn(app, hardware, hall)
        finally:
            recorder.end(look(recorder.board))


class _Log(list):
    """The flash's operations, each with the pass it fell in."""

    def __init__(self, recorder):
        super().__init__()
        self.recorder = recorder

    def append(self, operation):
        super().append((operation, self.recorder.current))


class Recorder:
    """A board on littlefs playing a script, with every flash operation logged."""

    def __init__(self, port, image=None, seed=0):
        block, page, count, _ = GEOMETRIES[port]
        self.port = port
        nor = NorFlash(count, block, page, seed)
        if image is not None:
            nor.data[:] = image
        self.start_image = bytes(nor.data)
        self.files = LittleFsFlash(port, ROOT, flash=nor)
        self.nor = nor
        self.passes = []  # [label, state before, state after, virtual ms]
        self.current = -1
        self.label = "boot"
        self.log = _Log(self)
        nor.log = self.log
        self.board = None

    def begin(self, before):
        self.passes.append([self.label, before, None, vclock.now_ms()])
        self.current = len(self.passes) - 1

    def end(self, after):
        self.passes[self.current][2] = after

    def boot(self, before=None):
        """Boot the board (``before``: the state the boot should bring back)."""
        if self.board is None:
            self.board = SimBoard(ROOT, board_name=BOARDS[self.port], flash=self.files)
            self.begin(before)
            self.board.boot()
        else:
            self.begin(before)
            self.board.power_on()
        self.board.runtime = _Passes(self, self.board.runtime)
        self.end(look(self.board))

    def play(self, script):
        board = self.board
        for label, action, argument in script:
            self.label = label
            if action == "wait":
                board.run_due(vclock.now_ms() + argument)
            elif action == "press":
                board.press(argument)
                board.run_due(vclock.now_ms() + PRESS_CONTACT_MS + PRESS_GAP_MS)
            elif action == "keys":
                self.keys(argument)
            elif action == "arbiter":
                self.keys(arbiter_keys(board.app, argument[0], argument[1]))
            elif action == "go":
                state = look(board)["state"]
                if state in ("setup", "paused"):
                    board.press("lever_right" if state == "setup" else "play")
                    board.run_due(vclock.now_ms() + PRESS_CONTACT_MS + PRESS_GAP_MS)
            elif action == "err3":
                self.err3()

    def keys(self, keys):
        for name, hold in keys:
            self.board.press(name, hold)
            self.board.run_due(vclock.now_ms() + hold + PRESS_GAP_MS)

    def err3(self):
        """Power off, a damaged game.json written (not a cut point), power on."""
        before = look(self.board)
        self.board.power_off()
        self.nor.log = None
        self.files.power_on()
        Storage(ROOT, self.files).write_bytes("game.json", b'{"game": "damaged"')
        self.files.power_off()
        self.nor.log = self.log
        list.append(self.log, (("image", bytes(self.nor.data)), -1))
        after = dict(before, state="setup", running=None, moves=0, flags=(False, False, -1))
        self.boot_after_err3(after)

    def boot_after_err3(self, expected):
        self.begin(expected)
        self.board.power_on()
        self.board.runtime = _Passes(self, self.board.runtime)
        self.end(look(self.board))


def reference(port, script=None, seed=0):
    """The scripted game (``SCRIPT``) played on ``port``'s geometry from an empty flash."""
    recorder = Recorder(port, seed=seed)
    Storage(ROOT, recorder.files).write_json("settings.json", dict(SETTINGS))
    del recorder.log[:]
    recorder.start_image = bytes(recorder.nor.data)
    recorder.boot()
    recorder.play(SCRIPT if script is None else script)
    return recorder


def cut_points(recorder, wanted=None):
    """Every cut point of the recorded operations, grouped by the flash it leaves:
    yields ``(number, operation index, first byte, last byte, image)`` for each
    distinct flash a cut leaves (a cut at bytes first..last of the operation leaves
    the same; an erase is one point), the image rebuilt from the log, or None unless
    ``wanted(number, operation index)`` (a copy of the flash is taken only for those)."""
    image = bytearray(recorder.start_image)
    block_bytes = recorder.nor.block_bytes
    seed = recorder.nor.seed
    erases = 0
    number = 0
    for index, (operation, _) in enumerate(recorder.log):
        kind = operation[0]
        if kind == "image":
            image[:] = operation[1]
            continue
        if kind == "erase":
            block = operation[1]
            at = block * block_bytes
            torn = None
            if wanted is None or wanted(number, index):
                torn = bytearray(image)
                torn[at : at + block_bytes] = torn_block(
                    image[at : at + block_bytes], seed, block, erases
                )
                torn = bytes(torn)
            yield number, index, 0, 0, torn
            number += 1
            image[at : at + block_bytes] = b"\xff" * block_bytes
            erases += 1
            continue
        _, block, offset, data = operation
        at = block * block_bytes + offset
        first = 0
        for byte in range(len(data)):
            value = image[at + byte] & data[byte]
            if value != image[at + byte]:
                take = wanted is None or wanted(number, index)
                yield number, index, first, byte, bytes(image) if take else None
                number += 1
                image[at + byte] = value
                first = byte + 1
        if first < len(data):
            take = wanted is None or wanted(number, index)
            yield number, index, first, len(data) - 1, bytes(image) if take else None
            number += 1


def boot_image(port, image, seed=0):
    """Boot the board on a flash holding ``image``; what it shows once booted."""
    block, page, count, _ = GEOMETRIES[port]
    nor = NorFlash(count, block, page, seed)
    nor.data[:] = image
    files = LittleFsFlash(port, ROOT, flash=nor)
    try:
        board = SimBoard(ROOT, board_name=BOARDS[port], flash=files)
        board.boot()
    except (Exception, PowerCut):
        return None, files
    return look(board), files


class Tally:
    """Cut points tried, by outcome, with the first examples of each failure."""

    def __init__(self):
        self.points = 0  # cut points tried
        self.boots = 0
        self.game_points = 0  # cut points of the game(s) swept, tried or not (a sample)
        self.game_flashes = 0  # the distinct flashes they leave
        self.kinds = {kind: 0 for kind in KINDS}
        self.worst_ms = 0
        self.examples = {}

    def add(self, count, kind, error, example):
        self.points += count
        self.kinds[kind] += count
        if kind == "ok":
            self.worst_ms = max(self.worst_ms, error)
        else:
            self.examples.setdefault(kind, []).append(example)

    def figures(self):
        out = {
            "cut_points_of_the_game": self.game_points,
            "distinct_flashes_of_the_game": self.game_flashes,
            "cut_points": self.points,
            "boots": self.boots,
            "worst_restored_error_ms": self.worst_ms,
        }
        out.update({"games_" + k if k in ("lost", "invented") else k: self.kinds[k] for k in KINDS})
        return out


def _describe(recorder, index, first, last):
    operation, pass_index = recorder.log[index]
    label, before, after, at_ms = recorder.passes[pass_index]
    what = operation[0] if operation[0] == "erase" else "program of %d bytes" % len(operation[3])
    return "%s at %.2f s: %s of block %d, bytes %d..%d" % (
        label,
        at_ms / 1000,
        what,
        operation[1],
        first,
        last,
    )


def sweep(
    recorder, tally, sample=None, rng=None, keep=None, candidates_of=None, first=None, labels=None
):
    """Cut at every point of ``recorder``'s log (or ``sample`` of the distinct flashes;
    ``labels``: only in the script's steps of these labels), boot, judge; ``keep``
    receives the passed ones ``(number, candidates, where)``. Returns how many
    distinct flashes there were to cut to."""
    port = recorder.port

    def in_labels(index):
        return labels is None or recorder.passes[recorder.log[index][1]][0] in labels

    numbers = []
    for number, index, start, last, _ in cut_points(recorder, lambda n, i: False):
        if in_labels(index):
            numbers.append(number)
            tally.game_points += last - start + 1
    tally.game_flashes += len(numbers)
    chosen = None
    if sample is not None and sample < len(numbers):
        chosen = set(rng.sample(numbers, sample))

    def wanted(number, index):
        return in_labels(index) and (chosen is None or number in chosen)

    cache = {}
    for number, index, start, last, image in cut_points(recorder, wanted):
        if image is None:
            continue
        operation, pass_index = recorder.log[index]
        label, before, after, _ = recorder.passes[pass_index]
        if candidates_of is not None and label == "boot":
            candidates = candidates_of
        else:
            candidates = [state for state in (before, after) if state is not None]
        key = hashlib.sha1(image).digest()
        if key not in cache:
            cache[key] = boot_image(port, image, recorder.nor.seed)[0]
            tally.boots += 1
        back = cache[key]
        kind, error = judge(back, candidates, SETTINGS_TUPLE)
        where = _describe(recorder, index, start, last)
        if first is not None:
            where = "after a first cut (%s), the second %s" % (first, where)
        tally.add(last - start + 1, kind, error, where)
        if kind == "ok" and keep is not None:
            keep.append((number, candidates, where))
    return len(numbers)


def images_of(recorder, kept):
    """``kept`` ``(number, candidates, where)`` with each number's flash: (image, ...)."""
    numbers = {item[0] for item in kept}
    images = {}
    for number, _, _, _, image in cut_points(recorder, lambda n, i: n in numbers):
        if image is not None:
            images[number] = image
    return [(images[number], candidates, where) for number, candidates, where in kept]


SETTINGS_TUPLE = (
    SETTINGS["control_left"],
    SETTINGS["control_right"],
    SETTINGS["quickplay"],
    SETTINGS["edition"],
)


def double_faults(port, firsts, tally, sample=None, rng=None):
    """For each first cut ``(image, candidates, where)``: boot and play ``AFTER_BOOT``
    with the log on, then cut at every point of that, boot, judge."""
    for image, candidates, where in firsts:
        recorder = Recorder(port, image=image)
        recorder.boot()
        recorder.play(AFTER_BOOT)
        sweep(recorder, tally, sample, rng, candidates_of=candidates, first=where)


def spread(kept, per_label):
    """``per_label`` first cuts of each step label of the script, evenly spread."""
    by_label = {}
    for item in kept:
        by_label.setdefault(item[2].split(" at ")[0], []).append(item)
    chosen = []
    for items in by_label.values():
        step = max(1, len(items) // per_label)
        chosen += items[step // 2 :: step][:per_label]
    return chosen


def journal_bytes(recorder):
    """Bytes programmed per move and per hour of play in the reference run: the
    passes with a move, and the running passes without one (periodic entries) at
    40 moves an hour per side (bench/power.py's game)."""
    move_bytes = moves = running_bytes = running_ms = 0
    passes = recorder.passes
    spent = [0] * len(passes)
    for operation, index in recorder.log:
        if operation[0] == "program" and index >= 0:
            spent[index] += len(operation[3])
    for index, (_label, before, after, at_ms) in enumerate(passes):
        if before is None or after is None or before["state"] != "running":
            continue
        if after["moves"] != before["moves"]:
            moves += 1
            move_bytes += spent[index]
        elif after["state"] == "running":
            running_bytes += spent[index]
            if index + 1 < len(passes):
                running_ms += passes[index + 1][3] - at_ms
    per_move = move_bytes // max(1, moves)
    per_hour = running_bytes * 3_600_000 // max(1, running_ms) + per_move * 80
    return per_move, per_hour


def ring_preparation_s(recorder):
    """Virtual seconds from the first boot to the last erase of the first setup."""
    boot_ms = recorder.passes[0][3]
    last = boot_ms
    for operation, index in recorder.log:
        if operation[0] == "erase" and index >= 0:
            label, _, _, at_ms = recorder.passes[index]
            if label.startswith("setup"):
                last = max(last, at_ms)
    return (last - boot_ms) / 1000


def geometry(port, sample=None, double=0, seed=2026, script=None):
    """The sweep on ``port``: the single cuts of the scripted game, then ``double`` first
    cuts of each step of it cut again after their boot; figures and examples."""
    began = time.perf_counter()
    rng = random.Random(seed)
    recorder = reference(port, script)
    single = Tally()
    kept = []
    sweep(recorder, single, sample, rng, kept)
    double_tally = Tally()
    if double:
        firsts = images_of(recorder, spread(kept, double))
        double_faults(port, firsts, double_tally, sample, rng)
    per_move, per_hour = journal_bytes(recorder)
    return {
        "port": port,
        "single": single,
        "double": double_tally,
        "bytes_per_move": per_move,
        "bytes_per_hour": per_hour,
        "ring_preparation_s": ring_preparation_s(recorder),
        "wall_s": round(time.perf_counter() - began, 1),
    }


MECHANISMS = (
    ("1: a cut while the ring is prepared, then another after the boot", "setup"),
    ("2: a cut in play (a torn entry among them), then another after the boot", "play"),
    ("3: a cut in the Err3 boot or the setup after it", "Err3"),
)


def proof(port, firsts=8, seed=2026):
    """The issue's three mechanisms, each by the cut points that catch it on ``port``:
    every cut point of the Err3 boot and the setup after it; ``firsts`` first cuts of
    the ring's preparation and ``firsts`` of play, each cut again at every point of its
    boot and first entries. Returns {mechanism: Tally}."""
    rng = random.Random(seed)
    recorder = reference(port)
    found = {}
    for name, first_label in MECHANISMS:
        tally = Tally()
        if first_label == "Err3":
            sweep(recorder, tally, labels=("Err3 boot", "Err3 boot: setup"))
        else:
            kept = []
            labels = ("setup: the ring prepared",) if first_label == "setup" else ("play",)
            sweep(recorder, Tally(), firsts, rng, kept, labels=labels)
            double_faults(port, images_of(recorder, kept), tally)
        found[name] = tally
    return found


# The game the flash model and littlefs are compared on: the ring's first blocks, two
# moves with a periodic entry between, a pause (the ring prepared again).
SHORT_SCRIPT = [
    ("setup: the ring prepared", "wait", 1_500),
    ("play", "press", "lever_right"),
    ("play", "wait", 6_000),
    ("play", "press", "lever_left"),
    ("play", "wait", 1_000),
    ("pause", "press", "play"),
    ("pause", "wait", 1_000),
]


class _Counted:
    """A filesystem whose changes (a write, a flush, a close, a rename, a remove, a
    program of the block device) are counted; the power goes before change ``limit``."""

    def __init__(self, files, limit):
        self.files = files
        self.limit = limit
        self.changes = 0

    def change(self):
        if self.limit is not None and self.changes >= self.limit:
            self.files.power_off()
            raise PowerCut()
        self.changes += 1

    def open(self, path, mode):
        handle = self.files.open(path, mode)
        return _CountedFile(self, handle) if "r" not in mode or "+" in mode else handle

    def rename(self, old, new):
        self.change()
        self.files.rename(old, new)

    def remove(self, path):
        self.change()
        self.files.remove(path)

    def exists(self, path):
        return self.files.exists(path)

    def block_device(self):
        return _CountedDevice(self, self.files.block_device())

    def power_off(self):
        self.files.power_off()

    def power_on(self):
        self.files.power_on()


class _CountedFile:
    def __init__(self, owner, handle):
        self.owner = owner
        self.handle = handle

    def write(self, data):
        self.owner.change()
        return self.handle.write(data)

    def flush(self):
        self.owner.change()
        self.handle.flush()

    def seek(self, offset, whence=0):
        return self.handle.seek(offset, whence)

    def read(self, count=-1):
        return self.handle.read(count)

    def close(self):
        if getattr(self.handle, "open", True) and self.owner.files.powered:
            self.owner.change()
        self.handle.close()

    def __enter__(self):
        return self

    def __exit__(self, kind, value, trace):
        if kind is None:
            self.close()
        return False


class _CountedDevice:
    def __init__(self, owner, device):
        self.owner = owner
        self.device = device

    def ioctl(self, op, arg):
        return self.device.ioctl(op, arg)

    def readblocks(self, block, buf, offset=0):
        self.device.readblocks(block, buf, offset)

    def writeblocks(self, block, buf, offset=None):
        self.owner.change()
        if offset is None:
            self.device.writeblocks(block, buf)
        else:
            self.device.writeblocks(block, buf, offset)


def _played(files, root, limit, script):
    """``script`` played on the `pico` board over ``files``, the power going before its
    change ``limit`` (None: never), then booted again and played on (``AFTER_BOOT``: the
    game started or resumed, two moves), cut and booted once more: (changes made, what
    came back at the first boot, what came back at the second)."""
    counted = _Counted(files, limit)
    board = SimBoard(root, board_name="pico", flash=counted)
    recorder = Recorder.__new__(Recorder)
    recorder.board = board
    recorder.label = ""
    try:
        board.boot()
        recorder.play(script)
    except PowerCut:
        pass
    if board.powered:
        board.power_off()
    counted.limit = None
    board.power_on()
    first = look(board)
    recorder.play(AFTER_BOOT)
    board.power_off()
    board.power_on()
    return counted.changes, first, look(board)


def agreement_cut_points(script=SHORT_SCRIPT):
    """How many cut points ``agreement`` tries for ``script``: one before each change of
    the firmware to its files and device, and one after the last (a single play)."""
    from sim import world

    folder = world.fresh_flash(
        SETTINGS["control_left"], SETTINGS["control_right"], SETTINGS["quickplay"]
    )
    total = _played(world.sim_flash.Flash(104), folder, None, script)[0]
    world.remove_flash(folder)
    return total + 1


def agreement(limits=None, script=SHORT_SCRIPT):
    """The flash model of the MicroPython lane (``sim.flash.Flash``) and the real
    littlefs (rp2 geometry) cut between the same two changes of the firmware, for each
    of ``limits`` (None: every one of the game), each booted, played on, cut and booted
    again: [(limit, model's two states, littlefs's)]."""
    from sim import world

    def model():
        folder = world.fresh_flash(
            SETTINGS["control_left"], SETTINGS["control_right"], SETTINGS["quickplay"]
        )
        return folder, world.sim_flash.Flash(104)

    def real():
        files = LittleFsFlash("rp2", ROOT)
        Storage(ROOT, files).write_json("settings.json", dict(SETTINGS))
        return ROOT, files

    if limits is None:
        folder, files = model()
        total = _played(files, folder, None, script)[0]
        world.remove_flash(folder)
        limits = range(total + 1)
    out = []
    for limit in limits:
        folder, files = model()
        back_model = _played(files, folder, limit, script)[1:]
        world.remove_flash(folder)
        root, files = real()
        back_real = _played(files, root, limit, script)[1:]
        out.append((limit, back_model, back_real))
    return out


def main(argv):
    import argparse

    parser = argparse.ArgumentParser(prog="python -m sim.power_sweep")
    parser.add_argument("--port", choices=sorted(GEOMETRIES), action="append")
    parser.add_argument("--sample", type=int, default=None)
    parser.add_argument("--double", type=int, default=1, help="first cuts per step")
    parser.add_argument("--proof", action="store_true", help="the issue's three mechanisms")
    parser.add_argument("--agree", action="store_true", help="the flash model against littlefs")
    args = parser.parse_args(argv)
    from sim import code_cache

    code_cache.install()  # each boot imports the firmware again
    failed = False
    if args.agree:
        rows = agreement()
        differ = [row for row in rows if row[1] != row[2]]
        print("flash model and littlefs: %d of %d cut points differ" % (len(differ), len(rows)))
        for limit, model, real in differ[:5]:
            print("  before change %d: model %s, littlefs %s" % (limit, model, real))
        return 1 if differ else 0
    for port in args.port or sorted(GEOMETRIES, reverse=True):
        if args.proof:
            for name, tally in proof(port).items():
                print("%s mechanism %s: %s" % (port, name, tally.figures()))
                for kind, examples in sorted(tally.examples.items()):
                    print("  %s: %d distinct flashes, e.g. %s" % (kind, len(examples), examples[0]))
                failed = failed or tally.points != tally.kinds["ok"]
            continue
        result = geometry(port, args.sample, args.double)
        for name in ("single", "double"):
            tally = result[name]
            print("%s %s cuts: %s" % (port, name, tally.figures()))
            for kind, examples in sorted(tally.examples.items()):
                print("  %s: %d, e.g. %s" % (kind, len(examples), examples[0]))
            failed = failed or tally.points != tally.kinds["ok"]
        print(
            "%s: %d bytes programmed a move, %d an hour; ring prepared in %.1f s; %.1f s wall"
            % (
                port,
                result["bytes_per_move"],
                result["bytes_per_hour"],
                result["ring_preparation_s"],
                result["wall_s"],
            )
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
