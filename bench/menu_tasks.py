"""Key presses and seconds of the setup menus' procedures, beside the DGT 3000's.

Each procedure runs on a new simulated clock (no settings file: 90 min +
30 s) by its documented key sequence (docs/menus.md), a press every 0.4 s
and a long press held 2.1 s, and its result is checked on the clock before
the figures count. ``python -m bench.menu_tasks`` prints these figures against
their goals; ``--write`` stores them under ``menu_tasks`` in bench/latest.json.

The DGT 3000's figures come from its user manual (DGT, v1.0, July 2014,
and the v0.1 draft) and a club's notes on it (Torbay Chess League, "How the
DGT 3000 is different"); where they leave a count open, the figure is a
lower bound and says so (sources and assumptions: docs/menus.md):

- start a preset game, 25 min + 10 s: that is the DGT 3000's option 11. At
  first use it shows option 01; ``+`` ten times brings option 11, the
  forward/accept key takes it, the play/pause key starts the clock:
  12 presses.
- 90/40 + 30 min, +30 s a move from move 1: the DGT 3000's option 13 gives
  90 + 30 min with 30 s, but "the number of required moves cannot be set";
  a control that counts the 40 moves needs a manual option (26-30). There
  the times are set digit by digit: ``+``/``-`` change the blinking digit,
  the forward key accepts it and moves on, 10 digits for both clocks. Only
  the two periods' times counted: 2 x 10 accepts, plus 1 + 3 presses per
  side for 1:30:00 and 3 per side for 0:30:00, is at least 34 presses;
  choosing the option, the timing method, the bonus and the move count are
  not counted.
"""

from sim import vclock
from sim.runner import PRESS_GAP_MS
from sim.world import PRESS_CONTACT_MS, SimBoard, fresh_flash, remove_flash

TASK_GOAL_S = "< 60 s"  # a setup done within a minute; the DGT 3000's count beside it

PRESET_GAME = (
    ("set", PRESS_CONTACT_MS),  # the menu, on PrE
    ("set", PRESS_CONTACT_MS),  # the preset list, at the preset in force (2: 90 + 30 s)
    ("lever_right", PRESS_CONTACT_MS),  # the next group: 8, rapid
    ("plus", PRESS_CONTACT_MS),
    ("plus", PRESS_CONTACT_MS),  # 10: 25 + 10 s
    ("set", PRESS_CONTACT_MS),  # in force
    ("lever_right", PRESS_CONTACT_MS),  # the game starts, left is White
)
FIDE_FROM_SCRATCH = tuple(
    (name, PRESS_CONTACT_MS)
    for name in (
        "set plus set "  # the menu, CUSt, both sides
        "minus play "  # 090 minutes
        "plus plus plus plus play "  # 040 moves
        "plus set plus plus plus play "  # F, 30 s
        "plus plus plus play "  # 030 minutes
        "play "  # 0 moves: the last period
        "play"  # F 30 s, as period 1
    ).split()
)
DGT_3000 = {
    "start a preset game (25 + 10 s)": (12, "its option 11 from option 01"),
    "set 90/40 + 30 min, +30 s a move, from scratch": (34, "at least: two times, digit by digit"),
}


# Before each procedure the menu is used and left on another item (HG): a
# documented sequence must work from there (the menu opens on PrE every time).
USED_MENU = (
    ("set", PRESS_CONTACT_MS),
    ("plus", PRESS_CONTACT_MS),
    ("plus", PRESS_CONTACT_MS),
    ("play", PRESS_CONTACT_MS),
)


def run(keys):
    """Press ``keys`` on a new clock whose menu was used; the app and the virtual
    seconds the keys took."""
    flash = fresh_flash()
    board = SimBoard(flash)
    try:
        board.boot()
        board.run_due(vclock.now_ms() + 1000)
        for name, hold_ms in USED_MENU:
            board.press(name, hold_ms)
            board.run_due(vclock.now_ms() + hold_ms + PRESS_GAP_MS)
        began = vclock.now_ms()
        for name, hold_ms in keys:
            board.press(name, hold_ms)
            board.run_due(vclock.now_ms() + hold_ms + PRESS_GAP_MS)
        board.settle()
        app = board.app
        app.hardware.stop()
        return app, (vclock.now_ms() - began) / 1000
    finally:
        remove_flash(flash)


def menu_task_figures():
    """Presses and seconds per procedure, the result checked, and the DGT 3000's."""
    figures = {}
    app, seconds = run(PRESET_GAME)
    assert app.settings.control_left == "1500+10", app.settings.to_dict()
    assert app.clock.state == 1 and app.clock.white == 0  # running, left is White
    figures["start a preset game (25 + 10 s)"] = (len(PRESET_GAME), seconds)
    app, seconds = run(FIDE_FROM_SCRATCH)
    wanted = "40/5400+30:1800+30"
    assert app.settings.control_left == wanted and app.settings.control_right == wanted
    figures["set 90/40 + 30 min, +30 s a move, from scratch"] = (len(FIDE_FROM_SCRATCH), seconds)
    result = {}
    for name, (presses, seconds) in figures.items():
        dgt_presses, how = DGT_3000[name]
        result[name] = {
            "presses": presses,
            "seconds": seconds,
            "dgt3000_presses": dgt_presses,
            "dgt3000_seconds": dgt_presses * (PRESS_CONTACT_MS + PRESS_GAP_MS) / 1000,
            "dgt3000_count": how,
        }
    return result


def rows(figures):
    """Rows for the bench table: ours, and the DGT 3000's as the goal to beat."""
    table = []
    for name, task in figures.items():
        table.append(
            (
                "keys to %s: presses, seconds" % name,
                "%d, %.1f" % (task["presses"], task["seconds"]),
                "%s, DGT 3000 %d, %.1f"
                % (TASK_GOAL_S, task["dgt3000_presses"], task["dgt3000_seconds"]),
                task["seconds"],
            )
        )
    return table


def main(argv):
    from bench import results

    return results.command("menu_tasks", menu_task_figures(), rows, argv, 10)


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
