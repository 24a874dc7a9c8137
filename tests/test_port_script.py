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


def test_the_ports_fields_make_the_simulators_state_line():
    """The line built from what the lane reads on the port is the runner's own line: here
    the runner's line of a script is rebuilt from the fields a board at that state gives."""
    fields = "('running', 1505000, 1510000, 0, 0, 0, '1', '1', False, False, -1, 'none', 'none')"
    ram = [0] * 16  # "25:05": the backpack's segments for 2, 5, 0, 5 and the colon
    for address, pattern in zip((0, 2, 6, 8), (0x5B, 0x6D, 0x3F, 0x6D), strict=True):
        ram[address] = pattern
    ram[4] = 0x02  # the colon
    line = port_script.state_line(8900, fields, [ram, ram])
    assert line == (
        "at=8.900 state=running left=0:25:05.000 right=0:25:10.000 running=left white=left "
        "moves=0 left_stage=1 right_stage=1 flag=none first_flag=none claim=none result=none "
        'display="25:05|25:05"'
    )
