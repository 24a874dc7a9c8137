"""The port lane's script figures (key ``port.scripts``): every clock script of
tests/scenarios/ the lane can express, played on the image and compared with the
reference's state line, the simulator's Pico ready as the lane's board, and the ideal
board's (bench.port_script.play), with what it cannot express and why.

``python -m bench.port_script_figures --image … --rp2040js …`` prints them alone;
``python -m bench.port`` adds them to the port's figures.
"""

import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench import port_script  # noqa: E402

# The longest script the lane plays, in simulated seconds: every script of
# tests/scenarios/ (games/six-hours is the longest, 6 h 2 min). The image sleeps between
# its passes and the emulator skips a sleep at once, so a clock at rest costs little: the
# six hours take about nine minutes on a free core (docs/port.md).
MAX_SCRIPT_S = 7 * 3600


def _children_cpu_s():
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _reason_kind(reason):
    return reason.split(": ", 1)[-1] if reason.startswith("line ") else reason


def _play(path, image, bootrom, board, dreq="credit"):
    """``(path, outcome, detail, real seconds)``: outcome ``match`` (detail: None, or the
    ideal board's line where it differs from the port's), ``differ`` (detail: the lines)
    or ``not played`` (detail: why). The port's line is judged against the reference, the
    simulator's Pico ready as the lane's board (``port_script.REFERENCE_OPTIONS``); the
    ideal board's line is kept beside it."""
    began = time.monotonic()
    try:
        ours, reference, lane, ideal = port_script.play(path, image, bootrom, board, dreq)
    except (port_script.NotPlayed, port_script.NotExpressible) as reason:
        outcome = path, "not played", str(reason), time.monotonic() - began
    else:
        # Erases in the script: a new control's ring prepared (PrEP, a start refused), which
        # the ideal board's flash does at once and the reference's at the port's pace.
        erases = len(lane["erasesMs"])
        detail = {"port": ours, "reference": reference, "ideal": ideal}
        detail["erases_during_script"] = erases
        if ours == reference and ours == ideal:
            detail = None
        kind = "match" if ours == reference else "differ"
        outcome = path, kind, detail, time.monotonic() - began
    name = os.path.relpath(path, ROOT)
    print("%s: %s (%.0f s) %s" % (name, outcome[1], outcome[3], outcome[2] or ""), file=sys.stderr)
    return outcome


def _matches_ideal(outcome):
    """Whether a played script's port line is the ideal board's too."""
    _path, kind, detail, _seconds = outcome
    return kind != "not played" and (detail is None or detail["port"] == detail["ideal"])


def reference_figures(expressible, jobs=1):
    """The reference's line (``port_script.REFERENCE_OPTIONS``) against the ideal board's
    for each script of ``expressible`` (paths with their plans), ``jobs`` at once, without
    the image: how many are the same, and both lines of each that differs (a preparation
    of the ring met in the script: the reference shows its wait, the ideal flash none)."""

    def lines(path):
        reference = port_script.simulated_line(path, port_script.REFERENCE_OPTIONS)
        return path, reference, port_script.simulated_line(path)

    with ThreadPoolExecutor(max(1, jobs)) as pool:
        compared = list(pool.map(lines, [path for path, _plan in expressible]))
    differing = {
        os.path.relpath(path, ROOT): {"reference": reference, "ideal": ideal}
        for path, reference, ideal in compared
        if reference != ideal
    }
    same = len(compared) - len(differing)
    return {
        "compared": len(compared),
        "same": same,
        "same_of_compared": "%d of %d" % (same, len(compared)),
        "differing": differing,
    }


def script_figures(image=None, bootrom=None, board=None, jobs=1, max_script_s=MAX_SCRIPT_S):
    """The survey of the scripts; with an image, each expressible script at most
    ``max_script_s`` long played on it (``jobs`` at once), compared with the reference's
    line (``python -m sim run --latency=typical --ready``) and the ideal board's."""
    expressible, others = port_script.survey()
    refused = {}
    for _path, reason in others:
        kind = _reason_kind(reason)
        refused[kind] = refused.get(kind, 0) + 1
    figures = {
        "scenarios": len(expressible) + len(others),
        "expressible": len(expressible),
        "refused_by_reason": refused,
    }
    if image is None:
        return figures
    figures["reference_vs_ideal"] = reference_figures(expressible, jobs)
    # The shortest first: a run cut short has played the most scripts.
    by_length = sorted(expressible, key=lambda item: item[1][-1][0])
    chosen = [path for path, plan in by_length if plan[-1][0] <= max_script_s * 1000]
    left_out = [path for path, _plan in expressible if path not in set(chosen)]
    began = time.monotonic()
    cpu_before = _children_cpu_s()
    counts_before = dict(port_script.PLAY_COUNTS)
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        outcomes = list(pool.map(lambda path: _play(path, image, bootrom, board), chosen))
    relative = {path: os.path.relpath(path, ROOT) for path, _plan in expressible}
    matching = [relative[path] for path, outcome, _detail, _s in outcomes if outcome == "match"]
    matching_ideal = [outcome for outcome in outcomes if _matches_ideal(outcome)]
    figures.update(
        {
            "played": len(outcomes),
            # Against the reference: the simulator's Pico, ready as the lane's board.
            "reference": "python -m sim run %s" % " ".join(port_script.REFERENCE_OPTIONS),
            "matching": len(matching),
            "played_and_matching": "%d of %d" % (len(matching), len(expressible)),
            # The port's lines that are the ideal board's as well (python -m sim run).
            "matching_ideal": len(matching_ideal),
            "played_and_matching_ideal": "%d of %d" % (len(matching_ideal), len(expressible)),
            # Matching the reference, not the ideal board: a preparation of the ring met in
            # the script, at the port's pace on both.
            "matching_not_ideal": {
                relative[path]: detail
                for path, outcome, detail, _s in outcomes
                if outcome == "match" and detail is not None
            },
            "differing": {
                relative[path]: detail
                for path, outcome, detail, _s in outcomes
                if outcome == "differ"
            },
            "not_played": {
                relative[path]: detail
                for path, outcome, detail, _s in outcomes
                if outcome == "not played"
            },
            "longer_than_max": [relative[path] for path in left_out],
            "max_script_s": max_script_s,
            "jobs": jobs,
            "real_s": round(time.monotonic() - began),
            # Plays read back from build/port-plays (the same image, plan and lane) and
            # plays run on the emulator in this run: the times are this run's.
            "plays_kept": port_script.PLAY_COUNTS["kept"] - counts_before["kept"],
            "plays_run": port_script.PLAY_COUNTS["played"] - counts_before["played"],
            # The emulator's and the simulator's processes together, whatever else the
            # machine ran meanwhile (the real time depends on that, not this).
            "cpu_s": round(_children_cpu_s() - cpu_before),
            "slowest_real_s": {
                relative[path]: round(seconds)
                for path, _o, _d, seconds in sorted(outcomes, key=lambda o: -o[3])[:3]
            },
        }
    )
    return figures


# The scripts whose presses and charges judge the capture under each DREQ semantics: the
# order of inputs and the exact charge of every move (tests/scenarios/timing/).
CAPTURE_FOLDER = "timing"


def capture_figures(image, bootrom, board, jobs=1, max_script_s=60):
    """The scripts of ``CAPTURE_FOLDER`` at most ``max_script_s`` long played with the DREQ
    as a level and as a credit: per semantics, how many were played and how many match the
    reference's line (every time charged to the millisecond, every press taken: a press
    lost or a charge wrong would differ), and the lines that differ."""
    expressible, _others = port_script.survey()
    chosen = [
        path
        for path, plan in expressible
        if os.sep + CAPTURE_FOLDER + os.sep in path and plan[-1][0] <= max_script_s * 1000
    ]
    figures = {}
    for dreq in ("level", "credit"):
        with ThreadPoolExecutor(max(1, jobs)) as pool:
            outcomes = list(
                pool.map(
                    lambda path, semantics=dreq: _play(path, image, bootrom, board, semantics),
                    chosen,
                )
            )
        played = [outcome for outcome in outcomes if outcome[1] != "not played"]
        figures[dreq] = {
            "played": len(played),
            "matching": sum(1 for outcome in played if outcome[1] == "match"),
            "differing": [os.path.relpath(o[0], ROOT) for o in played if o[1] == "differ"],
        }
    return figures


def main(argv=None):
    import argparse
    import json

    from bench import port

    parser = argparse.ArgumentParser(
        prog="python -m bench.port_script_figures", description=__doc__
    )
    parser.add_argument("--board", default="pico")
    parser.add_argument("--image", required=True, help="the image's firmware.uf2")
    parser.add_argument("--rp2040js", required=True, help="a checkout of rp2040js's source")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--max-script-s", type=int, default=MAX_SCRIPT_S)
    args = parser.parse_args(argv)
    bootrom = port.bootrom_path(args.rp2040js)
    figures = script_figures(
        args.image, bootrom, port.lane_board(args.board), args.jobs, args.max_script_s
    )
    print(json.dumps(figures, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
