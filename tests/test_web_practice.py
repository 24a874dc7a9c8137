"""The arbiters' exercises of the web page (web/exercises.py): each one's expected state
is what the clock shows after the decision, played through the simulator's runner, and
not before it; on the page, the documented keys pressed on the set-up game pass the
check and a wrong decision does not."""

import time

import pytest

from sim import runner
from sim import script as script_module
from web import exercises
from web import harness as web_helpers

NAMES = [exercise.name for exercise in exercises.EXERCISES]


def played(exercise, with_answer):
    """The exit status of the exercise's setup, then (``with_answer``) its decision, then
    its expectation, played by the simulator's runner."""
    last_ms = script_module.parse(exercise.setup).statements[-1][1]
    at = "at %d " % (last_ms // 1000 + 5)
    lines = [exercise.setup.rstrip("\n")]
    if with_answer:
        lines += [at + statement for statement in exercise.answer]
    lines.append(at + "expect " + exercise.expect)
    printed = []
    status = runner.run_script("exercise", ("\n".join(lines) + "\n").encode(), printed.append)
    return status, printed


@pytest.mark.parametrize("name", NAMES)
def test_the_decision_brings_the_clock_to_the_expected_state(name):
    status, printed = played(exercises.find(name), with_answer=True)
    assert status == 0, printed


@pytest.mark.parametrize("name", NAMES)
def test_the_expected_state_is_not_the_state_before_the_decision(name):
    status, printed = played(exercises.find(name), with_answer=False)
    assert status == 1, printed


def test_every_exercise_is_listed_for_the_page_with_its_keys():
    import json

    listed = json.loads(exercises.listing())
    assert [item["name"] for item in listed] == NAMES
    for item in listed:
        assert item["keys"] and item["setup"].startswith("control ")


KEY = """
(() => {
  document.dispatchEvent(new KeyboardEvent(%r, {key: %r, bubbles: true}));
  return true;
})()
"""


def press(page, key, hold_s=0.1, gap_s=0.35):
    page.evaluate(KEY % ("keydown", key))
    time.sleep(hold_s)
    page.evaluate(KEY % ("keyup", key))
    time.sleep(gap_s)


@pytest.mark.xdist_group("web-page")
def test_an_exercise_done_with_the_keys_on_the_page_passes_its_check(web_site):
    server, browser = web_site
    with browser.page(server.url + "index.html", (1920, 1080)) as page:
        page.wait_for(web_helpers.STARTED, 60)
        card = "document.getElementById('exercise-g5-reject')"
        page.evaluate(card + ".querySelector('.set-up').click()")
        assert "state=paused" in page.evaluate("window.clockPage.clock.state_line()")
        page.evaluate(card + ".querySelector('.check').click()")
        verdict = page.evaluate(card + ".querySelector('.verdict').textContent")
        assert verdict.startswith("Not yet: right=0:16:30.000")  # nothing decided yet
        press(page, "+", hold_s=2.2)  # the claim: drA
        for _ in range(3):  # PoSt, Po 2, rEJ
            press(page, "+")
        press(page, "s")  # set confirms
        page.evaluate(card + ".querySelector('.check').click()")
        verdict = page.evaluate(card + ".querySelector('.verdict').textContent")
        assert verdict.startswith("Right"), verdict
        page.evaluate("localStorage.clear()")
