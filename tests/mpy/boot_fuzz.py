"""Boot on mutated flash files: the clock must come up, whatever a file holds.

``run(seed, count)`` boots the firmware (``hal.boot.start`` on the sim
board) ``count`` times, each on the flash of a game in progress with one
file mutated: ``settings.json``, ``slots.json``, ``game.json``,
``events.log`` (random bytes, a truncation, valid JSON of the wrong shape,
JSON nested thousands deep, numbers beyond 32 bits, a flipped byte) or a
journal slot ``game.j0``/``game.j1`` (random bytes, a truncation, a flipped
byte, or **re-sealed** with random fields or extreme values, so that the
checksum holds and only the fields' checks can refuse it). After each boot
the clock is stepped and a lever and the play key are pressed.

A violation is a boot or a step that raises, an error code for a file that
was not touched, or an ``Err3``/``vEr3`` without the journal's files kept
as ``NAME.bad`` (docs/power.md). The mutations come from a 32-bit xorshift
generator and every file is built from fixed text, so CPython and
MicroPython mutate the same bytes and must report the same outcomes:
``python -m tests.mpy.boot_fuzz SEED COUNT`` or, inside MicroPython,
``node tools/mpy/run.mjs tests.mpy.boot_fuzz SEED COUNT`` prints one JSON object.
"""

import json

from firmware import files
from sim.readings import exists
from sim.world import SimBoard, fresh_flash, remove_flash

SETTINGS = (
    b'{"control_left": "900", "control_right": "900", "quickplay": "g5", '
    b'"edition": "appendix-g", "sound": true, "version": 1}'
)
SLOTS_DOCUMENT = b'{"3": {"control_left": "900+10", "control_right": "900+10"}, "version": 1}'
HEADER = (
    b'{"game": 1, "control_left": "900", "control_right": "900", "quickplay": "g5", '
    b'"edition": "appendix-g", "version": 1}'
)
EVENTS = b'[1, 791000, "claim", "left", 0, 110000, 900000]\n'
JSON_FILES = (files.SETTINGS, files.USER_SLOTS, files.JOURNAL_HEADER, files.EVENTS)
KINDS = JSON_FILES + files.JOURNAL_SLOTS
JOURNAL_FILES = (files.JOURNAL_HEADER,) + files.JOURNAL_SLOTS
CODES = {files.SETTINGS: "1", files.USER_SLOTS: "2", files.JOURNAL_HEADER: "3", files.EVENTS: "3"}
JSON_MUTATIONS = ("random", "truncated", "wrong shape", "a field wrong", "deep", "flipped")
SLOT_MUTATIONS = ("random", "truncated", "flipped", "resealed", "resealed extreme")
# Field offsets and sizes of a journal record (firmware.journal's layout).
SLOT_FIELDS = (
    (4, 4), (8, 4), (12, 1), (13, 1), (14, 1), (15, 1), (16, 4),
    (20, 4), (24, 1), (25, 1), (26, 2), (28, 2), (30, 4),
    (34, 4), (38, 1), (39, 1), (40, 2), (42, 2), (44, 4),
    (48, 1), (49, 1), (50, 1), (51, 1), (52, 2), (54, 2), (56, 4), (60, 4),
)  # fmt: skip
EXTREMES = (0, 1, 2, 3, 4, 255, 256, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF)


class Random:
    """xorshift32: the same numbers on every lane."""

    def __init__(self, seed):
        self.state = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def next(self):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x

    def below(self, n):
        return self.next() % n

    def pick(self, items):
        return items[self.below(len(items))]

    def bytes(self, n):
        return bytes(self.below(256) for _ in range(n))


WORDS = ("game", "control_left", "control_right", "quickplay", "edition", "version", "3", "x")
SCALARS = (
    "0", "-1", "1", "true", "false", "null", "1.5", "1e400", "4294967297", "-2147483649",
    "99999999999999999999999", '""', '"900"', '"*60"', '"60j30x1000"', '"g5"', '"x"',
)  # fmt: skip


def json_value(rng, depth=0):
    """Random JSON text: scalars, lists and objects a few levels deep."""
    choice = rng.below(6 if depth < 3 else 3)
    if choice < 3:
        return rng.pick(SCALARS)
    if choice == 3:
        return "[" + ", ".join(json_value(rng, depth + 1) for _ in range(rng.below(4))) + "]"
    items = []
    for _ in range(rng.below(4)):
        items.append('"%s": %s' % (rng.pick(WORDS), json_value(rng, depth + 1)))
    return "{" + ", ".join(items) + "}"


def deep(rng):
    depth = 10 + rng.below(5000)
    if rng.below(2):
        return b"[" * depth + b"]" * depth
    return b'{"game": ' * depth + b"1" + b"}" * depth


def mutate_json(rng, good, mutation):
    if mutation == "random":
        return rng.bytes(rng.below(200))
    if mutation == "truncated":
        return good[: rng.below(len(good))]
    if mutation == "wrong shape":
        return json_value(rng).encode()
    if mutation == "a field wrong":
        data = good.rstrip(b"\n")
        if data.startswith(b"["):  # an event-log line: one item replaced
            return b"[" + json_value(rng).encode() + data[data.index(b",") :] + b"\n"
        return (
            b'{"' + rng.pick(WORDS).encode() + b'": ' + json_value(rng).encode() + b", " + data[1:]
        )
    if mutation == "deep":
        return deep(rng)
    data = bytearray(good)
    for _ in range(1 + rng.below(3)):
        data[rng.below(len(data))] = rng.below(256)
    return bytes(data)


def mutate_slot(rng, good, mutation):
    from firmware import journal

    if mutation == "random":
        return rng.bytes(rng.below(2 * journal.RECORD_SIZE))
    if mutation == "truncated":
        return good[: rng.below(len(good))]
    data = bytearray(good)
    if mutation == "flipped":
        data[rng.below(len(data))] ^= 1 << rng.below(8)
        return bytes(data)
    journal.put(data, 4, 1000, 4)  # the newest entry: the one the restore reads
    for _ in range(1 + rng.below(3)):
        at, size = rng.pick(SLOT_FIELDS[1:])  # the sequence number alone changes nothing
        if mutation == "resealed":
            value = rng.next()
        else:
            value = rng.pick(EXTREMES)
        journal.put(data, at, value, size)
    journal.seal(data)
    return bytes(data)


def _journalled_slots():
    """The journal slots of a G.5 game at 900 s, left White, paused with left to move."""
    folder = fresh_flash()
    try:
        _write(folder, {files.SETTINGS: SETTINGS})
        board = SimBoard(folder, ring_blocks=0)  # the game in the slot files, to spoil
        board.boot()
        board.press("lever_right")
        board.run_due(30_000)
        board.press("lever_left")
        board.run_due(40_000)
        board.press("lever_right")
        board.run_due(50_000)
        board.press("play")
        board.run_due(51_000)
        board.power_off()
        return {name: _read(folder, name) for name in files.JOURNAL_SLOTS}
    finally:
        remove_flash(folder)


def _write(folder, files):
    for name in files:
        with open(folder + "/" + name, "wb") as handle:
            handle.write(files[name])


def _read(folder, name):
    with open(folder + "/" + name, "rb") as handle:
        return handle.read()


def _boot_modules():
    """The modules boot alone uses (they stay loaded after it, as ``hal.boot`` says)."""
    from firmware.boot import documents, journal_read, resume

    return {"resume": resume, "journal_read": journal_read, "documents": documents}


def _unusable(app):
    """What the booted clock holds that it cannot use (a restore must refuse those)."""
    problems = []
    clock = app.clock
    if not 0 <= app.journal.game <= 0x7FFFFFFF:
        problems.append("game id %d does not fit the journal" % app.journal.game)
    if clock.state not in (0, 1, 2, 3) or clock.turn_used < 0:
        problems.append("state %r, turn time %r" % (clock.state, clock.turn_used))
    playing = clock.state != 0
    for side in (clock.mover, clock.white):
        if side not in (0, 1) and (playing or side != -1):
            problems.append("side %r" % side)
    for side in clock.sides:
        control = side.control
        if side.remaining_ms < 0 or side.period >= len(control.periods):
            problems.append("time %r, period %r" % (side.remaining_ms, side.period))
        # a correction may lengthen a period or block up to 99:59:59.999 (firmware.claims)
        if side.byo_left > control.byo_count or not 0 <= side.block_ms <= 359_999_999:
            problems.append("byo-yomi %r, %r" % (side.byo_left, side.block_ms))
    if (app.claims.state == "none") != (app.claims.claimant == -1):
        problems.append("claim %r by %r" % (app.claims.state, app.claims.claimant))
    return problems


def boot_once(folder, files, modules=None):
    """Boot on ``files``, step, press; return (codes shown at boot, state, problems).

    ``modules``: the boot-only modules to put back first, so that thousands of
    boots do not each read them again (the same code either way).
    """
    import sys

    import firmware

    for name in modules or ():
        sys.modules["firmware." + name] = modules[name]
        setattr(firmware, name, modules[name])
    remove_flash(folder, keep_folder=True)
    _write(folder, files)
    problems = []
    board = SimBoard(folder)
    app = board.boot()
    codes = list(app.notices.texts) if app.notices is not None else []
    state = app.clock.state
    problems += _unusable(app)
    board.run_due(40)  # two ticks: the boot messages up
    board.press("lever_right")  # clears them and acts
    board.run_due(200)
    board.press("play")
    board.run_due(300)
    for code in codes:
        if code[:3] in ("Err", "vEr") and code[3] == "3":
            for name in JOURNAL_FILES:
                if name in files and not exists(folder, name + ".bad"):
                    problems.append("%s shown but %s not kept aside" % (code, name))
    return codes, state, problems


def run(seed, count, outcomes=None):
    """Boot ``count`` times on mutated files; return the summary (see the module).

    ``outcomes``: a list to which each case's outcome is appended, as text.
    """
    rng = Random(seed)
    slots = _journalled_slots()
    good = {
        files.SETTINGS: SETTINGS,
        files.USER_SLOTS: SLOTS_DOCUMENT,
        files.JOURNAL_HEADER: HEADER,
        files.EVENTS: EVENTS,
    }
    good.update(slots)
    modules = _boot_modules()
    folder = fresh_flash()
    summary = {"files": 0, "kinds": {}, "codes": {}, "restored": 0, "violations": []}
    digest = 0
    try:
        for case in range(count):
            kind = KINDS[case % len(KINDS)]
            mutated = dict(good)
            if kind in files.JOURNAL_SLOTS:
                mutation = rng.pick(SLOT_MUTATIONS)
                mutated[kind] = mutate_slot(rng, good[kind], mutation)
            else:
                mutation = rng.pick(JSON_MUTATIONS)
                mutated[kind] = mutate_json(rng, good[kind], mutation)
            try:
                codes, state, problems = boot_once(folder, mutated, modules)
            except Exception as error:  # the violation this fuzzing looks for
                codes, state = [], -1
                problems = ["boot or step raised %s: %s" % (type(error).__name__, error)]
            wanted = CODES.get(kind, "3")
            for code in codes:
                if code[:3] in ("Err", "vEr") and code[3] != wanted:
                    problems.append("%s for a mutated %s" % (code, kind))
            for problem in problems:
                summary["violations"].append("case %d, %s %s: %s" % (case, kind, mutation, problem))
            summary["files"] += 1
            key = "%s %s" % (kind, mutation)
            summary["kinds"][key] = summary["kinds"].get(key, 0) + 1
            for code in codes:
                summary["codes"][code] = summary["codes"].get(code, 0) + 1
            summary["restored"] += "rESt" in codes
            outcome = "%d %s %s %d" % (case, key, ",".join(codes), state)
            if outcomes is not None:
                outcomes.append(outcome)
            for char in outcome:
                digest = (digest * 31 + ord(char)) & 0xFFFFFFFF
    finally:
        remove_flash(folder)
    summary["digest"] = digest
    return summary


def main(argv):
    """``SEED COUNT [outcomes]``: print the summary as one JSON line (after each case's
    outcome with ``outcomes``); status 1 on a violation."""
    outcomes = [] if argv[2:] == ["outcomes"] else None
    summary = run(int(argv[0]), int(argv[1]), outcomes)
    for outcome in outcomes or ():
        print(outcome)
    print(json.dumps(summary))
    return 1 if summary["violations"] else 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
