"""How often the board's main loop wakes, per state, and the CPU that implies.

The simulated board's main loop sleeps as the port does (``sim.wakes``: the
sleep of ``hal.sleep`` wakes at the app's next step or at an interrupt that
left an input; ``machine.idle()`` would wake every millisecond), and counts
each wake. Each state is played on a fresh board and its wakes counted over a
window of virtual time with nothing pressed:

- ``standing``: the setup state after boot (a game set, not started), once the
  journal's ring is prepared (each of its blocks is a step of its own before:
  ``preparing``, the Pico's first 48 s);
- ``paused``: a game paused;
- ``running``: a clock running, its time far from zero;
- ``last_10s``: the last 10 s of a side's time with tenths on the display
  (and the warning beeps, ``warn_last10``), where the display changes
  every 100 ms;
- ``menus``: a setup menu up.

These are the model's figures (the firmware on the simulated board). A state
begins at a press 237 ms past a whole second of the board's clock, as a player's
press falls anywhere: the battery's reading, once a second from the boot, then
needs a wake of its own (one pressed on the second would share the running
mark's). The CPU a wake costs on the chip is the port's: ``PASS_CYCLES``
(``boards/chips/rp2040.py``: ``LOOP_CYCLES_PER_WAKEUP``, a clock running on
MicroPython v1.27.0's rp2 image under rp2040js, ``make port``), so
``cpu_percent`` is wakes x that pass / 48 MHz; the Pico's alone (the ESP32 has no
port here: its wake-ups are the model's, its CPU unmeasured). The port measures
its own wake-ups too (``bench.port``): the model agrees with it where both count
the same state. ``python -m bench.wakeups`` prints them.
"""

import json
import os
import sys

from bench import figure_rows, results
from bench.figure_rows import Figure
from boards.chips import rp2040
from sim import machine as sim_machine
from sim.world import SimBoard, fresh_flash, remove_flash

PASS_CYCLES = rp2040.LOOP_CYCLES_PER_WAKEUP  # a wake-up of a running clock, on the port
CPU_HZ = 48_000_000  # the boards' clock (boards/pico.py CPU_FREQ_HZ)
GOALS = {  # wake-ups a second (issue: a clock running <= 12, <= 25 in the last 10 s)
    "preparing": 3,  # standing, the journal's ring prepared meanwhile
    "standing": 3,
    "paused": 3,
    "running": 12,
    "last_10s": 25,
    "menus": 3,  # the clock stands while they show: the standing goal
}
BOARDS = ("pico", "esp32")
CPU_BOARDS = ("pico",)  # the pass's cost is the rp2 port's: the ESP32 has none measured
WINDOW_MS = 8_000  # each state's window
OFF_THE_SECOND_MS = 237  # where in a second of the board's clock the state's press falls


def _flash(control, tenths=False, warn=False):
    folder = fresh_flash(control)
    if tenths or warn:
        from firmware import files

        path = os.path.join(folder, files.SETTINGS)
        with open(path) as handle:
            data = json.load(handle)
        data.update({"tenths": tenths, "warn_last10": warn})
        with open(path, "w") as handle:
            json.dump(data, handle)
    return folder


def _counted(board, start_ms, end_ms):
    """Wakes a second between ``start_ms`` and ``end_ms`` of virtual time."""
    board.run_due(start_ms)
    before = sim_machine.waits().count
    board.run_due(end_ms)
    return (sim_machine.waits().count - before) * 1000 / (end_ms - start_ms)


def _prepared(board):
    """Virtual ms, a second or more after boot, at which the journal's ring is
    prepared (a block every 0.5 s while the clock stands on the Pico, each a step of
    its own: boards/pico.py), so that its steps are not counted as the state's."""
    now = 1_000
    board.run_due(now)
    store = board.app.journal.store
    while board.app.journal.start_wait() or store.is_preparing():
        now += 1_000
        board.run_due(now)
    return now + 1_000


def wakes_per_second(state, board_name="pico"):
    """The main loop's wakes a second on ``board_name`` in ``state`` (module doc)."""
    tenths = state == "last_10s"
    folder = _flash("30" if tenths else "300+2", tenths=tenths, warn=tenths)
    board = SimBoard(folder, board_name=board_name)
    try:
        board.boot()
        if state == "preparing":  # the ring's blocks while the clock stands after boot
            return _counted(board, 2_000, 2_000 + WINDOW_MS)
        start = _prepared(board) + OFF_THE_SECOND_MS
        if state == "standing":
            return _counted(board, start, start + WINDOW_MS)
        board.run_due(start)
        if state == "menus":
            board.press("set")
            return _counted(board, start + 500, start + 500 + WINDOW_MS)
        board.press("lever_right")  # left's clock runs
        if state == "paused":
            board.run_due(start + 1_000)
            board.press("play")
            return _counted(board, start + 1_500, start + 1_500 + WINDOW_MS)
        if state == "running":
            return _counted(board, start + 1_000, start + 1_000 + WINDOW_MS)
        if state == "last_10s":  # left's 30 s: from 10 s left to 0.5 s left
            return _counted(board, start + 20_000, start + 29_500)
        raise ValueError("no state %r" % (state,))
    finally:
        if board.app is not None:
            board.app.hardware.stop()
        remove_flash(folder)


def cpu_percent(wakes):
    """The core's share at ``CPU_HZ`` that ``wakes`` passes a second take (model)."""
    return round(wakes * PASS_CYCLES * 100 / CPU_HZ, 2)


STATES = ("preparing", "standing", "paused", "running", "last_10s", "menus")


def wakeup_figures():
    """``wakeups`` of bench/latest.json: per board and state, wakes a second and CPU %."""
    result = {"source": "model (sim.wakes); a wake-up's cycles: a running clock's, on the port"}
    for board_name in BOARDS:
        entry = {}
        for state in STATES:
            wakes = round(wakes_per_second(state, board_name), 2)
            entry[state] = {"wakes_per_s": wakes}
            if board_name in CPU_BOARDS:
                entry[state]["cpu_percent"] = cpu_percent(wakes)
        result[board_name] = entry
    return result


def declared():
    """Per board and state, the wake-ups a second and, on the Pico, the CPU they imply
    (bench/figure_rows.py)."""
    figures = []
    for board in BOARDS:
        for state in STATES:
            goal = GOALS.get(state)
            path = "wakeups.%s.%s." % (board, state)
            figures.append(
                Figure(
                    "wake-ups a second, `%s`, %s" % (board, state.replace("_", " ")),
                    path + "wakes_per_s",
                    "",
                    "report" if goal is None else "≤ %d" % goal,
                )
            )
            if board in CPU_BOARDS:
                figures.append(
                    Figure(
                        "CPU at 48 MHz, `%s`, %s (wake-ups x the port's pass)"
                        % (board, state.replace("_", " ")),
                        path + "cpu_percent",
                        "%",
                        "report",
                    )
                )
    return tuple(figures)


def rows(figures):
    """The section's table (``make bench``, ``python -m bench.wakeups``)."""
    return figure_rows.table_rows(declared(), "wakeups", figures)


def main(argv):
    return results.command("wakeups", wakeup_figures(), rows, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
