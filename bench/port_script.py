"""The clock scripts as the real-port lane can play them: pin edges in simulated time.

A statement that moves a contact (``press``, ``key``, ``hold``) becomes that
contact's press on the board's GPIO, at the statement's time, with the script's
bounce; ``expect`` and ``show`` become reads of the clock's state at that time.
The headers the runner gives its board before boot go the same way: the settings
file ``sim.world.fresh_flash`` writes (the controls, quickplay, the edition) is
written, those very bytes, onto the image's filesystem before the clock boots,
and ``ticks near-wrap`` sets the RP2040's timer at power-up so that the ticks
read at the script's start what the runner's board reads at its boot.
What the lane cannot express is named with its reason: the runner's own
statements that read the clock's screen to choose their keys (``pause``,
``resume``, the arbiter's ``claim``, ``decide``, ``add``, ``setmoves``), and the
power and the displays' cables (``power``, ``unplug``, ``plug``).

``python -m bench.port_script`` counts the scripts of tests/scenarios/ the lane can
express and lists the others by reason (docs/port.md).
"""

import os
import sys
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from sim import script as scripts  # noqa: E402
from sim.world import PRESS_CONTACT_MS  # noqa: E402

SCENARIOS = os.path.join(ROOT, "tests", "scenarios")
READS = ("expect", "show")
# The statements whose keys depend on what the clock shows when they run (the runner
# reads the screen between the presses): not a fixed list of edges.
READS_THE_SCREEN = ("pause", "resume") + scripts.ARBITER
POWER_AND_CABLES = ("power", "unplug", "plug")
# Where each script starts, in simulated ms from the image's power-up: after the boot and
# the journal's ring prepared whole (about 10 s of erases on the port for the default
# control), so the script meets the board a player finds, as the simulator's ideal flash
# gives it at once; later if the ring is still being prepared then (the lane waits for
# it). Known before the boot, so that the timer can be set at power-up for a script's
# ticks near their wrap.
START_MS = 20_000
# The ticks at the start of a ``ticks near-wrap`` script: the runner's board's at its boot
# (sim/vclock.py: 10 s before the 2**30 ms wrap).
NEAR_WRAP_TICK = 2**30 - 10_000
# The flash's times the lane plays the scripts at (tools/port/lane.mjs --flash): the
# W25Q16JV's typical ones, which the simulator's Pico has at the same level's name.
FLASH_TIMES = "typical"
# The lane's reference: the simulator's Pico with the lane's flash times, booted and its
# ring prepared before the script as the lane's board is (docs/spec/scripts.md, --ready).
REFERENCE_OPTIONS = ("--latency=" + FLASH_TIMES, "--ready")


_ONE_RUNNER = threading.Lock()  # one simulated board at a time in this process (its vclock)


class NotExpressible(Exception):
    """A script the lane cannot play as edges; the message says why."""


def settings_bytes(script):
    """The settings file the runner writes on its board's flash before boot for ``script``
    (``sim.world.fresh_flash``), its bytes; None where it writes none."""
    from firmware import files as names
    from hal.storage import Files, Storage
    from sim.world import fresh_flash, remove_flash

    with _ONE_RUNNER:
        folder = fresh_flash(
            script.control_left, script.control_right, script.quickplay, script.edition
        )
        try:
            return Storage(folder, Files()).read_bytes(names.SETTINGS)
        finally:
            remove_flash(folder)


def runner_presses(script):
    """The presses the runner makes on the reference's board (the simulator's Pico ready as
    the lane's board: ``REFERENCE_OPTIONS``) as it plays ``script`` (the keys it chose
    from that board's screen included, at the times it pressed them from the script's
    start), as plan steps, and the ms of its end from that start: its arbiter's sequences
    take board time the script's own time leaves out. Raises NotExpressible if the
    runner's play stops early."""
    from sim import vclock
    from sim.runner import Game, Player

    with _ONE_RUNNER:  # the simulated board's time and machine are the process's own
        game = Game(script, "pico", latency=FLASH_TIMES, ready=True)
        try:
            start_ms = game.offset_ms  # the board's time at the script's 0
            presses = game.board.record_presses()
            player = Player(game)
            player.play(script.statements)
            if not player.finished:
                raise NotExpressible("the runner's play stops before the script's end")
            end_ms = vclock.now_ms() - start_ms
        finally:
            game.close()
    return [[at - start_ms, "press", name, hold] for at, name, hold in presses], end_ms


def settings_path(board_name):
    """Where the board keeps its settings file on the image (its ``FLASH_ROOT``)."""
    import boards
    from firmware import files as names
    from hal.storage import Storage

    return Storage(boards.load(board_name).FLASH_ROOT, None).path(names.SETTINGS)


def lane_plan(script, board_name, start_ms=START_MS):
    """What the lane's ``--plan`` takes for a parsed script (tools/port/script_plan.mjs):
    its edges, the board's settings file as the runner writes it, where it keeps it (its
    ``FLASH_ROOT``), its tick grid (``TICK_MS``), the script's start."""
    import boards

    board = boards.load(board_name)
    plan = edges(script)
    data = settings_bytes(script)
    at_ms = script.statements[-1][1] if script.statements else 0
    steps, end_ms = [list(step) for step in plan], at_ms
    if any(step[1] == "runner" for step in plan):
        steps, end_ms = runner_presses(script)
    return {
        "steps": steps,
        "endMs": end_ms,  # the lane's end, in the board's time
        "atMs": at_ms,  # the state line's ``at``: the script's end in its own time
        "bounceMs": script.bounce_ms,
        "startMs": start_ms,
        "gridMs": board.TICK_MS,
        "nearWrap": bool(script.near_wrap),
        "settingsPath": settings_path(board_name) if data else None,
        "settingsHex": data.hex() if data is not None else None,
    }


def edges(script):
    """The plan of a parsed script: ``(time_ms, what, argument, hold_ms)`` in order, where
    ``what`` is ``"press"`` (argument: the input's name), ``"read"``, or ``"runner"``: a
    statement whose keys the runner chooses from its board's screen (argument: the
    statement; ``runner_presses``); raises NotExpressible with the first statement the
    lane cannot play."""
    plan = []
    for line, time_ms, action, arguments in script.statements:
        if action == "press":
            plan.append((time_ms, "press", "lever_" + arguments[0], PRESS_CONTACT_MS))
        elif action == "key":
            plan.append((time_ms, "press", arguments[0], PRESS_CONTACT_MS))
        elif action == "hold":
            plan.append((time_ms, "press", arguments[0], arguments[1]))
        elif action in READS:
            plan.append((time_ms, "read", action, 0))
        elif action in READS_THE_SCREEN:
            plan.append((time_ms, "runner", action, 0))
        elif action in POWER_AND_CABLES:
            raise NotExpressible("line %d: %s (power and cables are not modelled)" % (line, action))
        else:
            raise NotExpressible("line %d: %s" % (line, action))
    return plan


def survey(folder=SCENARIOS):
    """``(expressible, not_expressible)``: paths with their plans, paths with reasons."""
    expressible, others = [], []
    for base, _dirs, names in sorted(os.walk(folder)):
        for name in sorted(names):
            if not name.endswith(".clock"):
                continue
            path = os.path.join(base, name)
            with open(path, "rb") as handle:
                try:
                    parsed = scripts.parse(handle.read())
                except scripts.ScriptError as error:
                    others.append((path, "malformed on purpose: %s" % error.message))
                    continue
            try:
                expressible.append((path, edges(parsed)))
            except NotExpressible as reason:
                others.append((path, str(reason)))
    return expressible, others


def state_line(script_end_ms, fields, displays):
    """The simulator's state line from what the lane read on the port: the clock's fields
    (``stateFields``, a Python tuple's text) and the displays' RAM, at the script's end."""
    import ast

    from sim import ht16k33
    from sim.runner import Game, _side

    (state, left, right, running, white, moves, left_stage, right_stage) = ast.literal_eval(fields)[
        :8
    ]
    left_flag, right_flag, first_flag, claim, result = ast.literal_eval(fields)[8:]
    flag = (
        "both"
        if left_flag and right_flag
        else "left"
        if left_flag
        else "right"
        if right_flag
        else "none"
    )
    values = [
        ("at", script_end_ms),
        ("state", state),
        ("left", left),
        ("right", right),
        ("running", _side(running)),
        ("white", _side(white)),
        ("moves", str(moves)),
        ("left_stage", left_stage),
        ("right_stage", right_stage),
        ("flag", flag),
        ("first_flag", _side(first_flag)),
        ("claim", claim),
        ("result", result),
        (
            "display",
            ht16k33.decode_seg7x4(bytes(displays[0]))
            + "|"
            + ht16k33.decode_seg7x4(bytes(displays[1])),
        ),
    ]
    return Game.state_line(None, values)


class NotPlayed(Exception):
    """A script the lane could not play to its end on the image; the message says why."""


# The lane's documents of the plans played, kept by what decides them: the image's bytes,
# the plan, the board, the DREQ semantics and the lane's own sources. The emulator is
# deterministic, so a plan played again on the same image gives the same document: a run
# that changes only the simulator's side (its reference line) plays nothing again.
PLAYS = os.path.join(ROOT, "build", "port-plays")
LANE_SOURCES = os.path.join(ROOT, "tools", "port")
_IMAGE_DIGESTS = {}
# How many plans this process read back from PLAYS and how many it played on the emulator
# (bench/port_script_figures.py reports both: a run's real time means little without them).
PLAY_COUNTS = {"kept": 0, "played": 0}
_COUNTING = threading.Lock()


def _count(kind):
    with _COUNTING:
        PLAY_COUNTS[kind] += 1


def _digest_of_file(path):
    import hashlib

    stat = os.stat(path)
    key = (path, stat.st_mtime_ns, stat.st_size)
    if key not in _IMAGE_DIGESTS:
        with open(path, "rb") as handle:
            _IMAGE_DIGESTS[key] = hashlib.sha256(handle.read()).hexdigest()
    return _IMAGE_DIGESTS[key]


def play_key(plan, image, bootrom, board, dreq):
    """The name a played plan's document is kept under (``PLAYS``): the flash's times
    (``FLASH_TIMES``) with the rest."""
    import hashlib
    import json

    digest = hashlib.sha256()
    for part in (image, bootrom):
        digest.update(_digest_of_file(part).encode())
    digest.update(json.dumps([plan, board, dreq, FLASH_TIMES], sort_keys=True).encode())
    for name in sorted(os.listdir(LANE_SOURCES)):
        if name.endswith(".mjs"):
            with open(os.path.join(LANE_SOURCES, name), "rb") as handle:
                digest.update(name.encode() + b"\0" + handle.read())
    return digest.hexdigest()


def _run_plan(plan, image, bootrom, board, dreq="credit"):
    """The lane's document for ``plan`` played on the image, the DREQ from the PIO as
    ``dreq`` (tools/port/dreq.mjs), kept in ``PLAYS``; raises NotPlayed if it failed."""
    import json
    import subprocess
    import tempfile

    from bench import port

    kept = os.path.join(PLAYS, play_key(plan, image, bootrom, board, dreq) + ".json")
    if os.path.isfile(kept):
        _count("kept")
        with open(kept) as handle:
            return json.load(handle)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(plan, handle)
    command = ["node", port.LANE, "--uf2", image, "--bootrom", bootrom]
    command += ["--board", json.dumps(board), "--dreq", dreq, "--flash", FLASH_TIMES]
    command += ["--plan", handle.name]
    try:
        done = subprocess.run(command, capture_output=True, text=True)
    finally:
        os.remove(handle.name)
    if done.returncode != 0:
        raise NotPlayed("the lane failed: %s" % " ".join(done.stderr.strip().splitlines()[-1:]))
    document = json.loads(done.stdout)
    _count("played")
    os.makedirs(PLAYS, exist_ok=True)
    with open(kept + ".part", "w") as handle:
        json.dump(document, handle)
    os.replace(kept + ".part", kept)  # whole or not at all
    return document


def simulated_line(path, options=()):
    """The last line ``python -m sim run OPTIONS PATH`` prints, its state line."""
    import subprocess

    command = [sys.executable, "-m", "sim", "run", *options, path]
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    lines = done.stdout.strip().splitlines()
    return lines[-1].split(": end: ", 1)[-1] if lines else ""


def play(path, image, bootrom, board, dreq="credit"):
    """Plays the script at ``path`` on the image (the DREQ as ``dreq``): ``(the port's line,
    the reference's line, the lane's document, the ideal board's line)``, the reference
    the simulator's Pico ready as the lane's board (``REFERENCE_OPTIONS``), the ideal
    board the simulator's own (``python -m sim run PATH``); raises NotPlayed if the lane
    failed or the board was not ready (its ring still being prepared) at the script's
    start."""
    with open(path, "rb") as handle:
        parsed = scripts.parse(handle.read())
    plan = lane_plan(parsed, board["name"])
    lane = _run_plan(plan, image, bootrom, board, dreq)
    if parsed.near_wrap and lane["startMs"] != plan["startMs"]:
        # The script started on the clock's tick grid, later than planned: the timer was set
        # at power-up for the planned start. Again, planned at that start (the boot is the
        # same instruction for instruction, so is its grid), the ticks then exact.
        plan = lane_plan(parsed, board["name"], lane["startMs"])
        lane = _run_plan(plan, image, bootrom, board, dreq)
    if parsed.near_wrap and lane["ticksAtStartMs"] != NEAR_WRAP_TICK:
        raise NotPlayed(
            "ticks near-wrap: the ticks read %d at the start, not %d"
            % (lane["ticksAtStartMs"], NEAR_WRAP_TICK)
        )
    if not lane["preparedAtStart"]:
        raise NotPlayed(
            "the ring was still being prepared at the script's start (an erase %.0f ms after)"
            % lane["lastEraseBeforeStartMs"]
        )
    ours = state_line(plan["atMs"], lane["stateFields"], lane["displays"])
    return ours, simulated_line(path, REFERENCE_OPTIONS), lane, simulated_line(path)


def main():
    expressible, others = survey()
    reasons = {}
    for _path, reason in others:
        kind = reason.split(": ", 1)[-1] if reason.startswith("line ") else reason
        reasons[kind] = reasons.get(kind, 0) + 1
    print(
        "%d scripts the port lane can express as edges, %d it cannot"
        % (len(expressible), len(others))
    )
    for path, plan in expressible:
        print(
            "  %s: %d statements, %d s"
            % (os.path.relpath(path, ROOT), len(plan), plan[-1][0] // 1000)
        )
    for kind, count in sorted(reasons.items(), key=lambda item: -item[1]):
        print("  %4d  %s" % (count, kind))


if __name__ == "__main__":
    main()
