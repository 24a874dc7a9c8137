"""Clock scripts played in the web page (``index.html#script=``), in headless chromium,
against the simulator: the same exit status, every printed line, and the final state
line in ``<pre id="state">`` byte for byte (docs/web.md). ``make test`` plays a sample of
the folders of tests/scenarios in one browser; ``make scenarios`` (``SCENARIOS_WEB=all``)
plays every script."""

import os

import pytest

from tests.scripting import ROOT, scenario_names
from web import harness as web_helpers

pytestmark = pytest.mark.xdist_group("web-page")
EVERY = os.environ.get("SCENARIOS_WEB") == "all"
NAMES = scenario_names() if EVERY else list(web_helpers.SAMPLE)


@pytest.fixture(scope="module")
def page(web_site):
    server, browser = web_site
    data = b"control 60\nat 1 press right\n"
    with browser.page(server.url + web_helpers.script_fragment(data), (800, 600)) as opened:
        opened.wait_for(web_helpers.STARTED, 60)
        yield opened


@pytest.mark.parametrize("name", NAMES)
def test_the_page_plays_the_script_as_the_simulator(page, name):
    with open(os.path.join(ROOT, name), "rb") as handle:
        data = handle.read()
    status, lines, state = web_helpers.play_in_page(page, data)
    expected_status, expected_lines = web_helpers.simulator_lines(data)
    assert status == expected_status
    assert lines == expected_lines
    assert state == web_helpers.last_state(expected_lines)
    assert state.encode() == web_helpers.last_state(expected_lines).encode()


def test_a_script_that_is_not_utf8_is_refused_as_by_the_simulator(page):
    data = b"control 60\nat 1 press right # caf\xe9\n"
    status, lines, state = web_helpers.play_in_page(page, data)
    assert (status, lines) == web_helpers.simulator_lines(data)
    assert status == 2
    assert state.startswith("script:2: ")
