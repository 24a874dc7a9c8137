"""The clock's RP2040 image judged on the real port (key ``port``): ``make port``.

``make port BOARD=pico MICROPYTHON=... RP2040JS=...`` builds the image with
``make firmware`` (MicroPython's own rp2 build, the clock frozen in) and runs
``python -m bench.port``, which boots that image on rp2040js, an instruction-
level RP2040 emulator from npm, through the project's harness (``tools/port/``:
the displays' HT16K33s on I2C, the levers and keys on GPIO with contact bounce,
the W25Q16JV's erase and program times, the PIO at its dividers' rates, the
DMA's DREQ from the PIO as a level or a credit). It measures, per state, the CPU
fraction (cycles awake / cycles elapsed) and the wake-ups a second at the
board's clock, the heap allocations and the functions they were for, how late
each display frame due in play came (its instant from docs/display.md: the
press, then each half second of the turn), the heap (MicroPython's ``gc``
through the REPL), the image's size, the journal ring's preparation and the
flash's work, at the flash's typical and at its maximum times, and the lever
capture's stamps per press with the DREQ as a level and as a credit; ``--write``
stores them under ``port`` in bench/latest.json. docs/port.md says what the lane
can and cannot prove.

``RP2040JS`` is a checkout of rp2040js's source: the emulator's npm package
ships no bootrom, and the lane takes the RP2040's B1 bootrom from that
checkout's ``demo/bootrom.ts`` at run time (never from this repository).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import boards  # noqa: E402
from bench import figure_rows, goals, port_script_figures  # noqa: E402
from bench.figure_rows import Figure  # noqa: E402

LANE = os.path.join(ROOT, "tools", "port", "lane.mjs")
LATEST = os.path.join(ROOT, "bench", "latest.json")
BOOTROM = os.path.join("demo", "bootrom.ts")
WINDOW_S = 3  # each state's measured window, simulated seconds
# The states measured, in the order the lane plays them: standing while the journal's ring is
# prepared, standing after, the first move (its flash writes), a move and the second after
# it, running (from a second after that move, nothing pressed), paused, a menu.
STATES = ("preparing", "standing", "first_move", "move", "running", "paused", "menus")
_LANE_STATE = {"first_move": "firstMove"}
IN_PLAY = ("firstMove", "move", "running")  # the lane's windows with frames due
# The goals at 48 MHz without a USB host (issue 43, item 2): (CPU fraction, wake-ups).
GOALS = {
    "preparing": ("report", "report"),
    "standing": ("<= 0.01", "<= 3"),
    "first_move": ("report", "report"),
    "move": ("report", "report"),
    "running": ("<= 0.02", "<= 12"),
    "last_10s": ("report", "<= 25"),  # a scene of its own: a 30 s side, tenths shown
    "paused": ("report", "report"),
    "menus": ("report", "report"),
}
FRAME_GAP_GOAL = "<= 50 ms"
# Heap allocations a second per state: none where the clock only rests and plays (a
# function whose frame MicroPython puts on the heap is one at each call; tools/port/
# heap_watch.mjs). The ring's preparation writes its blocks' files.
# The states on the page: the lane's, with the last 10 s (a scene of its own) after running.
SHOWN_STATES = STATES[:5] + ("last_10s",) + STATES[5:]
ALLOCATION_GOALS = {name: "report" if name == "preparing" else "0" for name in SHOWN_STATES}
NM = "arm-none-eabi-nm"  # the Arm GNU toolchain's, which make firmware needs for rp2


def lane_board(name):
    """The board's data the lane needs, read from boards/<name>.py."""
    board = boards.load(name)
    if getattr(board, "CHIP", None) != "rp2040":
        raise SystemExit("bench.port: board %s is not an RP2040 board" % name)
    return {
        "name": name,
        "i2c": board.I2C_ID,
        "displays": [board.DISPLAY_LEFT, board.DISPLAY_RIGHT],
        "inputs": dict(board.INPUTS),
        "cpu_hz": board.CPU_FREQ_HZ,
    }


def bootrom_path(rp2040js):
    path = os.path.join(rp2040js, BOOTROM)
    if not os.path.isfile(path):
        raise SystemExit(
            "bench.port: %s is missing: RP2040JS must be a checkout of rp2040js's source "
            "(its demo/bootrom.ts holds the RP2040's bootrom; docs/port.md)" % path
        )
    return path


def run_lane(image, bootrom, board, *options):
    """One boot of the image on the emulator with the lane's ``options``; its JSON."""
    command = ["node", LANE, "--uf2", image, "--bootrom", bootrom, "--board", json.dumps(board)]
    command += list(options)
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit("bench.port: the lane failed (%s)" % " ".join(command))
    return json.loads(done.stdout)


def elf_options(image):
    """The lane's --elf for the image's ELF beside it, if the toolchain's nm is here."""
    elf = os.path.join(os.path.dirname(image), "firmware.elf")
    return ["--elf", elf] if os.path.isfile(elf) and shutil.which(NM) else []


def runs(image, bootrom, board, seconds=WINDOW_S):
    """The lane's boots: the states at the flash's typical and at its maximum times (the
    ring prepared whole first: a start is refused until it is), both with the DREQ as a
    credit; then two presses under each DREQ semantics."""
    window = ["--seconds", str(seconds), "--dreq", "credit", *elf_options(image)]
    typical = run_lane(image, bootrom, board, "--flash", "typical", *window)
    maximum = run_lane(image, bootrom, board, "--flash", "maximum", *window)
    presses = {
        dreq: run_lane(image, bootrom, board, "--presses-only", "--dreq", dreq)
        for dreq in ("level", "credit")
    }
    return typical, maximum, presses


def _state(run, name):
    return _window(run["states"][_LANE_STATE.get(name, name)])


def _window(state):
    """One measured window of the lane's: CPU, wake-ups, frames, allocations, due frames."""
    return {
        "cpu_fraction": round(state["cpu"], 4),
        "wakeups_per_s": round(state["wakesPerS"], 1),
        "longest_frame_gap_ms": round(state["longestFrameGapMs"], 1),
        # The core's cycles awake per wake-up: a pass of the main loop and its interrupts.
        "cycles_per_wakeup": round(state["cycles"] / max(1, state["wakesPerS"] * state["seconds"])),
        "seconds": round(state["seconds"], 2),
        **_allocations(state),
        **_due(state),
    }


def _due(state):
    """How late the state's due frames came (the lane's windows in play)."""
    if "dueFrames" not in state:
        return {}
    return {
        "due_frames": state["dueFrames"],
        "longest_due_frame_late_ms": round(state["dueFrameLatestMs"], 1),
        "due_frames_never_shown": state["dueFramesNeverShown"],
    }


def _allocations(state):
    """The state's heap allocations a second and, per function, how many (with --elf)."""
    if "heapAllocations" not in state:
        return {}
    by_function = sorted(state["heapAllocationsByFunction"].items(), key=lambda item: -item[1])
    return {
        "heap_allocations_per_s": round(state["heapAllocations"] / state["seconds"], 1),
        "heap_allocations_by_function": dict(by_function),
        # the loop's sleeps and the app's steps, counted on the port: the model's wake-ups
        "sleeps_per_s": round(state["sleeps"] / state["seconds"], 1),
        "steps_per_s": round(state["steps"] / state["seconds"], 1),
    }


# The scenes (tools/port/scenes.mjs), each on a clock booted with a control of its own: the
# last 10 s of a 30 s side, tenths and the warning beeps on (bench/wakeups.py's own state),
# and a rapid control's new game, its wait from the confirming set to a start.
SCENE_SETTINGS = {
    "last10": ("30", {"tenths": True, "warn_last10": True}),
    "newGame": ("900+10", {}),
}
RAPID_WAIT_GOAL_MS = 3_000  # issue 43: a rapid control's wait to a start, typical flash times
PREPARING_TEXT = "PrEP"  # docs/display.md: the ring being prepared, a start refused


def scene_settings(board_name, scene):
    """The settings file a scene's clock boots with, as the lane's --settings takes it: the
    runner's file for the scene's control (``sim.world.fresh_flash``), its fields changed."""
    from bench import port_script
    from sim import script as scripts

    control, fields = SCENE_SETTINGS[scene]
    data = json.loads(port_script.settings_bytes(scripts.parse("control %s\n" % control)))
    data.update(fields)
    return {
        "settingsPath": port_script.settings_path(board_name),
        "settingsHex": json.dumps(data).encode().hex(),
    }


def run_scene(image, bootrom, board, scene, *options):
    """One boot of the image with the scene's settings, the scene played; its JSON."""
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(scene_settings(board["name"], scene), handle)
    try:
        return run_lane(
            image, bootrom, board, "--settings", handle.name, "--scene", scene, *options
        )
    finally:
        os.remove(handle.name)


def ready_after_ms(frames):
    """When the displays first show the new game ready: the first frame after the last one
    that showed the ring being prepared (``PREPARING_TEXT``), in ms from the setup; 0 if none
    did. ``frames``: the scene's ``[ms, display, RAM]``, in time order."""
    from sim.ht16k33 import decode_seg7x4

    shown = ["", ""]
    last_preparing = None
    for index, (_ms, chip, ram) in enumerate(frames):
        shown[chip] = decode_seg7x4(bytes(ram))
        if PREPARING_TEXT in shown:
            last_preparing = index
    if last_preparing is None:
        return 0
    if last_preparing + 1 >= len(frames):
        raise SystemExit("bench.port: the new game's ring was still being prepared at the end")
    return frames[last_preparing + 1][0]


def new_game_wait(image, bootrom, board):
    """A rapid control's wait from a new game's setup to a start, on the port: one boot to
    see when the displays show the new game ready, the same boot again with the right lever
    pressed a millisecond after that (the emulator is deterministic) and the game read back
    running."""
    seen = run_scene(image, bootrom, board, "newGame")["newGame"]
    ready_ms = ready_after_ms(seen["frames"])
    press_ms = int(ready_ms) + 1
    pressed = run_scene(image, bootrom, board, "newGame", "--press-after-ms", str(press_ms))
    started = pressed["newGame"]["state"] == "running"
    return {
        "control": SCENE_SETTINGS["newGame"][0],
        "erases": seen["erases"],
        "ready_shown_ms": round(ready_ms, 1),
        "wait_to_start_ms": press_ms,  # the lever pressed then: ``started`` says if it took
        "started": started,
    }


def scenes(image, bootrom, board, elf_options=()):
    """The scenes' figures: the last 10 s (a window as the states') and the new game's wait
    (``port.states.last_10s``, ``port.new_game``)."""
    last10 = run_scene(image, bootrom, board, "last10", "--dreq", "credit", *elf_options)
    return _window(last10["last10s"]), new_game_wait(image, bootrom, board)


def _latest_due_frame(run):
    """The longest a frame due in play came late, over the lane's windows in play (ms)."""
    return max(run["states"][name]["dueFrameLatestMs"] for name in IN_PLAY)


def figures(typical, maximum, presses):
    """The ``port`` key from a boot at the flash's typical times and one at its maximum."""
    at = {"typical": typical, "maximum": maximum}
    return {
        "board": typical["board"],
        "cpu_hz": typical["cpuHz"],
        "image_bytes": typical["imageBytes"],
        "heap_total_bytes": typical["heapTotalBytes"],
        "heap_taken_by_boot_bytes": typical["heapTakenByBootBytes"],
        "heap_in_use_after_boot_bytes": typical["heapInUseAfterBootBytes"],
        "states": {name: _state(typical, name) for name in STATES},
        "states_at_maximum_flash_times": {name: _state(maximum, name) for name in STATES},
        "longest_frame_delay_in_play_ms": {
            times: round(_latest_due_frame(run), 1) for times, run in at.items()
        },
        "longest_frame_gap_in_play_ms": {
            times: round(
                max(run["states"][name]["longestFrameGapMs"] for name in IN_PLAY),
                1,
            )
            for times, run in at.items()
        },
        "ring_preparation": {
            name: value if value is None or isinstance(value, int) else round(value, 1)
            for name, value in typical["preparation"].items()
        },
        "first_move_flash": {times: run["flashAfterStart"] for times, run in at.items()},
        "capture_by_dreq": {
            dreq: {
                "stamps_per_press": [
                    run["captureTransfers_lever_right"],
                    run["captureTransfers_lever_left"],
                ],
                "channels_refiring_without_end": len(run["dmaStorms"]),
            }
            for dreq, run in presses.items()
        },
    }


_STATE_NAMES = {
    "preparing": "preparing",
    "standing": "standing",
    "first_move": "first move",
    "move": "a move",
    "running": "running",
    "last_10s": "last 10 s (tenths)",
    "paused": "paused",
    "menus": "menus",
}


def declared():
    """The lane's figures (bench/figure_rows.py): the page's and the table's rows."""
    figures = [
        Figure("image size", "port.image_bytes", "B", "report"),
        Figure("heap total (gc at the prompt)", "port.heap_total_bytes", "B", "report"),
        Figure("heap the clock's boot takes", "port.heap_taken_by_boot_bytes", "B", "report"),
    ]
    for name in SHOWN_STATES:
        cpu_goal, wake_goal = GOALS[name]
        where = "port.states.%s." % name
        state = _STATE_NAMES[name]
        figures += [
            Figure(
                state + ": CPU fraction at 48 MHz", where + "cpu_fraction", "", _shown(cpu_goal)
            ),
            Figure(state + ": wake-ups a second", where + "wakeups_per_s", "", _shown(wake_goal)),
            Figure(
                state + ": heap allocations a second",
                where + "heap_allocations_per_s",
                "",
                ALLOCATION_GOALS[name],
            ),
            Figure(state + ": steps a second", where + "steps_per_s", "", "report", False),
        ]
    for times in ("typical", "maximum"):
        figures.append(
            Figure(
                "longest a due frame came late in play, %s flash" % times,
                "port.longest_frame_delay_in_play_ms." + times,
                "ms",
                _shown(FRAME_GAP_GOAL),
            )
        )
    ring = "port.ring_preparation."
    figures += [
        Figure("ring preparation, ms a block", ring + "medianMsBetweenErases", "ms", "report"),
        Figure("ring prepared, from the boot", ring + "doneAtMs", "ms", "report"),
        Figure("ring preparation, erases", ring + "erases", "", "report"),
        Figure(
            "a rapid control's new game: setup to a start, typical flash",
            "port.new_game.wait_to_start_ms",
            "ms",
            "≤ %d ms" % RAPID_WAIT_GOAL_MS,
        ),
        Figure("a rapid control's new game: started then", "port.new_game.started", "", "yes"),
        Figure("a rapid control's new game: erases", "port.new_game.erases", "", "report"),
        Figure("scripts of tests/scenarios/", "port.scripts.scenarios", "", "report"),
        Figure("scripts the lane can express as edges", "port.scripts.expressible", "", "report"),
        Figure("scripts played on the port", "port.scripts.played", "", "report"),
        Figure("scripts played: real time", "port.scripts.real_s", "s", "report", False),
        Figure(
            "scripts played on the port, matching the simulator's Pico ready as the lane's board",
            "port.scripts.played_and_matching",
            "",
            "all",
        ),
        Figure(
            "scripts the lane can express: the Pico's ready line the ideal board's",
            "port.scripts.reference_vs_ideal.same_of_compared",
            "",
            "report",
        ),
        Figure(
            "scripts played on the port, matching the ideal board's line as well",
            "port.scripts.played_and_matching_ideal",
            "",
            "report",
        ),
    ]
    for dreq in ("credit", "level"):
        capture = "port.capture_by_dreq.%s." % dreq
        figures += [
            Figure(
                "timing scripts, DREQ as a %s: matching the simulator (presses, charges)" % dreq,
                "port.capture_scripts.%s.played_and_matching" % dreq,
                "",
                "all",
            ),
            Figure(
                "capture, DREQ as a %s: stamps per press" % dreq,
                capture + "stamps_per_press",
                "",
                "1",
            ),
            Figure(
                "capture, DREQ as a %s: channels re-firing without end" % dreq,
                capture + "channels_refiring_without_end",
                "",
                "0",
            ),
        ]
    return tuple(figures)


def _shown(goal):
    """A goal as the page writes it (``<= 3`` as ``≤ 3``)."""
    return goal.replace("<=", "≤")


def capture_scripts(image, bootrom, board, jobs):
    """The timing scripts under each DREQ semantics (bench/port_script_figures.py), each
    with its ``matching`` as ``m of n`` for the table."""
    figures = port_script_figures.capture_figures(image, bootrom, board, jobs)
    for entry in figures.values():
        entry["played_and_matching"] = "%d of %d" % (entry["matching"], entry["played"])
    return figures


def rows(port):
    """The lane's table (``make port``, ``python -m bench.port``)."""
    return figure_rows.table_rows(declared(), "port", port)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.port", description=__doc__)
    parser.add_argument("--board", default="pico")
    parser.add_argument("--image", required=True, help="the image's firmware.uf2")
    parser.add_argument("--rp2040js", required=True, help="a checkout of rp2040js's source")
    parser.add_argument("--seconds", type=int, default=WINDOW_S)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="scripts at once")
    parser.add_argument(
        "--max-script-s",
        type=int,
        default=port_script_figures.MAX_SCRIPT_S,
        help="play the scripts at most this long (default %(default)s s)",
    )
    parser.add_argument("--write", action="store_true", help="store the key port")
    args = parser.parse_args(argv)
    if not os.path.isfile(args.image):
        raise SystemExit(
            "bench.port: no image at %s (make firmware BOARD=%s)" % (args.image, args.board)
        )
    bootrom = bootrom_path(args.rp2040js)
    board = lane_board(args.board)
    port = figures(*runs(args.image, bootrom, board, args.seconds))
    port["states"]["last_10s"], port["new_game"] = scenes(
        args.image, bootrom, board, elf_options(args.image)
    )
    port["scripts"] = port_script_figures.script_figures(
        args.image, bootrom, board, args.jobs, args.max_script_s
    )
    port["capture_scripts"] = capture_scripts(args.image, bootrom, board, args.jobs)
    goals.print_table(rows(port), 10)
    if args.write:
        with open(LATEST) as handle:
            latest = json.load(handle)
        latest["port"] = port
        with open(LATEST, "w") as handle:
            json.dump(latest, handle, indent=2, sort_keys=True)
            handle.write("\n")
        print("port written to bench/latest.json")


if __name__ == "__main__":
    main()
