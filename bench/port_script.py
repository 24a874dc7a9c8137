"""The clock scripts as the real-port lane can play them: pin edges in simulated time.

A statement that moves a contact (``press``, ``key``, ``hold``) becomes that
contact's press on the board's GPIO, at the statement's time, with the script's
bounce; ``expect`` and ``show`` become reads of the clock's state at that time.
What the lane cannot express is named with its reason: the runner's own
statements that read the clock's screen to choose their keys (``pause``,
``resume``, the arbiter's ``claim``, ``decide``, ``add``, ``setmoves``), the
power and the displays' cables (``power``, ``unplug``, ``plug``), and the
headers the runner sets on the simulated board before it boots (a control other
than the board's default, quickplay, the edition, the ticks near their wrap).

``python -m bench.port_script`` counts the scripts of tests/scenarios/ the lane can
express and lists the others by reason (docs/port.md).
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from firmware.settings import DEFAULT_CONTROL  # noqa: E402
from sim import script as scripts  # noqa: E402
from sim.world import PRESS_CONTACT_MS  # noqa: E402

SCENARIOS = os.path.join(ROOT, "tests", "scenarios")
READS = ("expect", "show")
# The statements whose keys depend on what the clock shows when they run (the runner
# reads the screen between the presses): not a fixed list of edges.
READS_THE_SCREEN = ("pause", "resume") + scripts.ARBITER
POWER_AND_CABLES = ("power", "unplug", "plug")


class NotExpressible(Exception):
    """A script the lane cannot play as edges; the message says why."""


def edges(script, default_control=DEFAULT_CONTROL):
    """The plan of a parsed script: ``(time_ms, what, argument, hold_ms)`` in order, where
    ``what`` is ``"press"`` (argument: the input's name) or ``"read"``; raises
    NotExpressible with the first statement the lane cannot play."""
    if script.quickplay != "off" or script.edition != "appendix-g" or script.near_wrap:
        raise NotExpressible("header: an event setting the runner gives the board before boot")
    if script.control_left != default_control or script.control_right != default_control:
        raise NotExpressible("header: a control other than the board's default")
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
            raise NotExpressible("line %d: %s reads the screen to choose its keys" % (line, action))
        elif action in POWER_AND_CABLES:
            raise NotExpressible("line %d: %s (power and cables are not modelled)" % (line, action))
        else:
            raise NotExpressible("line %d: %s" % (line, action))
    return plan


def survey(folder=SCENARIOS, default_control=DEFAULT_CONTROL):
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
                expressible.append((path, edges(parsed, default_control)))
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


def play(path, image, bootrom, board):
    """Plays the script at ``path`` on the image; ``(the port's line, the simulator's line)``."""
    import json
    import subprocess
    import tempfile

    from bench import port

    with open(path, "rb") as handle:
        parsed = scripts.parse(handle.read())
    plan = edges(parsed)
    end_ms = parsed.statements[-1][1]
    steps = [step for step in plan if step[1] == "press"]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump({"steps": steps, "endMs": end_ms, "bounceMs": parsed.bounce_ms}, handle)
    command = ["node", port.LANE, "--uf2", image, "--bootrom", bootrom]
    command += ["--board", json.dumps(board), "--dreq", "credit", "--plan", handle.name]
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=True)
    os.remove(handle.name)
    lane = json.loads(done.stdout)
    ours = state_line(end_ms, lane["stateFields"], lane["displays"])
    simulated = (
        subprocess.run(
            [sys.executable, "-m", "sim", "run", path], stdout=subprocess.PIPE, text=True, cwd=ROOT
        )
        .stdout.strip()
        .splitlines()[-1]
    )
    return ours, simulated.split(": end: ", 1)[-1]


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
