"""The clock scripts as the real-port lane plays them (bench/port_script.py): pin edges in
simulated time, and a reason for every script it cannot express."""

import pytest

from bench import port_script
from firmware.settings import DEFAULT_CONTROL
from sim import script as scripts
from sim.world import PRESS_CONTACT_MS


def _parse(body, control=DEFAULT_CONTROL):
    return scripts.parse(("control %s\n" % control + body).encode())


def test_presses_keys_and_holds_become_contacts_at_their_times():
    plan = port_script.edges(
        _parse("at 0 press right\nat 1.5 key set\nat 2 hold plus 3\nat 9 expect state=running\n")
    )
    assert plan == [
        (0, "press", "lever_right", PRESS_CONTACT_MS),
        (1500, "press", "set", PRESS_CONTACT_MS),
        (2000, "press", "plus", 3000),
        (9000, "read", "expect", 0),
    ]


@pytest.mark.parametrize(
    "body, reason",
    [
        ("at 0 press right\nat 5 pause\n", "line 3: pause reads the screen"),
        ("at 0 press right\nat 5 claim\n", "line 3: claim reads the screen"),
        ("at 0 power off\n", "line 2: power"),
        ("at 0 unplug left\n", "line 2: unplug"),
    ],
)
def test_what_reads_the_screen_or_cuts_power_is_named_with_its_line(body, reason):
    with pytest.raises(port_script.NotExpressible) as raised:
        port_script.edges(_parse(body))
    assert str(raised.value).startswith(reason)


def test_a_header_the_runner_sets_before_boot_is_named():
    with pytest.raises(port_script.NotExpressible, match="a control other than"):
        port_script.edges(_parse("at 0 press right\n", control="300+2"))
    parsed = _parse("at 0 press right\n")
    parsed.quickplay = "g5"
    with pytest.raises(port_script.NotExpressible, match="event setting"):
        port_script.edges(parsed)


def test_the_survey_of_the_scenarios_accounts_for_every_script():
    expressible, others = port_script.survey()
    paths = [path for path, _plan in expressible] + [path for path, _reason in others]
    assert len(paths) == len(set(paths)) >= 200
    assert all(reason for _path, reason in others)
    assert all(plan for _path, plan in expressible)
