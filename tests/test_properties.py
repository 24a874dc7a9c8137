"""Properties over random press sequences, played through the whole simulated board."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.script import parse
from tests.scripting import fields, run_cli

CONTROL_MS = 3_600_000  # sudden death, long enough that no flag falls

ACTIONS = st.sampled_from(["press left", "press right", "pause", "resume"])
STEPS = st.lists(
    st.tuples(st.integers(min_value=200, max_value=20_000), ACTIONS), min_size=1, max_size=40
)


def play(steps, control="3600", bounce=3):
    """Play ``steps`` (gap in ms, action) and yield the state after each step."""
    from sim.runner import Game

    text = "control %s\nbounce %d\n" % (control, bounce)
    game = Game(parse(text + "at 0 show\n"))
    now = 0
    try:
        for gap, action in steps:
            now += gap
            game.board.run_due(now)
            before = dict(game.values())
            words = action.split()
            game.act(words[0], words[1:])
            after = dict(game.values())
            yield now, action, before, after
    finally:
        game.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(STEPS)
def test_one_clock_runs_nothing_negative_and_time_is_conserved(steps):
    running_ms = 0
    last = None
    previous = None
    for now, _action, before, after in play(steps):
        # the running time of the game, from the state before each action
        if last is not None and before["state"] == "running":
            running_ms += now - last
        last = now
        assert after["running"] in ("left", "right", "none")
        assert (after["running"] == "none") == (after["state"] != "running")
        assert after["left"] >= 0 and after["right"] >= 0
        charged = (CONTROL_MS - after["left"]) + (CONTROL_MS - after["right"])
        assert charged == running_ms
        # while nothing happens, only the side shown running loses time
        if previous is not None:
            other = "right" if previous["running"] == "left" else "left"
            if previous["running"] == "none":
                assert (before["left"], before["right"]) == (previous["left"], previous["right"])
            else:
                assert before[other] == previous[other]
                assert before[previous["running"]] <= previous[previous["running"]]
        previous = after


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(STEPS, st.integers(min_value=0, max_value=10))
def test_bounce_never_changes_the_charge(steps, bounce):
    clean = [after for _, _, _, after in play(steps, "300+2", 0)]
    bouncy = [after for _, _, _, after in play(steps, "300+2", bounce)]
    strip = ("display",)
    assert [{k: v for k, v in s.items() if k not in strip} for s in bouncy] == [
        {k: v for k, v in s.items() if k not in strip} for s in clean
    ]


def test_only_the_running_side_loses_time():
    steps = [(500, "press right"), (3000, "press left"), (4000, "pause"), (2000, "resume")]
    states = list(play(steps))
    _, _, before, after = states[1]  # left ran 3 s, then pressed
    assert before["left"] == CONTROL_MS - 3000 and before["right"] == CONTROL_MS
    _, _, before, after = states[2]  # right ran 4 s, then pause
    assert after["right"] == CONTROL_MS - 4000 and after["left"] == CONTROL_MS - 3000
    _, _, before, after = states[3]  # paused 2 s: nothing charged
    assert before["right"] == CONTROL_MS - 4000


def random_script(seed):
    rng = random.Random(seed)
    control = rng.choice(["300+3", "60d5", "2/60:30+2", "*45", "20j5x3", "20c3/15", "90b10"])
    lines = ["control %s" % control, "bounce %d" % rng.randint(0, 10)]
    if rng.random() < 0.5:
        lines.append("ticks near-wrap")
    now = 0
    for _ in range(60):
        now += rng.randint(200, 9000)
        action = rng.choice(
            ["press left", "press right", "press left", "press right", "pause", "resume", "show"]
        )
        lines.append("at %d.%03d %s" % (now // 1000, now % 1000, action))
        lines.append("at %d.%03d show" % (now // 1000, now % 1000))
    return "\n".join(lines) + "\n"


def test_state_lines_are_identical_on_both_lanes(tmp_path):
    files = []
    for seed in range(6):
        path = tmp_path / ("random-%d.clock" % seed)
        path.write_text(random_script(seed))
        files.append(str(path))
    status_py, out_py, _ = run_cli(files)
    status_mpy, out_mpy, err = run_cli(files, mpy=True)
    assert status_py == 0 and status_mpy == 0, err
    assert len(out_py.splitlines()) > 6 * 60
    assert out_mpy.splitlines() == out_py.splitlines()
    assert out_py.count(": end: at=") == 6
    ends = [fields(line.split(": end: ")[1]) for line in out_py.splitlines() if ": end: " in line]
    assert all(end["state"] in ("running", "paused", "over") for end in ends)
