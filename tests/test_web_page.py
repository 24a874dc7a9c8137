"""The live clock of the web page in headless chromium (docs/web.md): a press charged
from its event's own timeStamp, the flash kept across a closed tab and a power cut, a
hidden tab that catches up, the face on a phone and a screen, the page's labels, and
the installable, offline page."""

import re
import time

import pytest

from web import harness as web_helpers

pytestmark = pytest.mark.xdist_group("web-page")
PHONE = (390, 844)
PHONE_LANDSCAPE = (844, 390)
SCREEN = (1920, 1080)
MIN_TARGET_PX = 44  # the smallest touch target WCAG 2.5.5 and the platforms' guides ask for


@pytest.fixture
def site(web_site):
    return web_site


def open_clock(site, window=PHONE):
    """The page, its clock started afresh (an earlier test's tab may have kept its flash)."""
    server, browser = site
    page = web_helpers.open_page(browser, server.url + "index.html", window)
    assert page.evaluate("document.body.dataset.error || ''") == ""
    page.evaluate("localStorage.clear(); window.clockPage.start(null, null)")
    return page


def fields(line):
    """The state line's fields as a dict (the display's quoted value kept whole)."""
    return dict(re.findall(r'(\w+)=("[^"]*"|\S+)', line))


def ms_of(text):
    hours, minutes, seconds = text.split(":")
    whole, millis = seconds.split(".")
    return ((int(hours) * 60 + int(minutes)) * 60 + int(whole)) * 1000 + int(millis)


def state_line(page):
    return page.evaluate("window.clockPage.clock.state_line()")


def test_a_press_is_charged_from_its_event_timestamp_not_from_its_handling(site):
    page = open_clock(site)
    try:
        page.evaluate("window.clockPage.start('300', null)")
        started = web_helpers.press_late(page, "lever_right", 40)  # White (left) starts
        page.wait_for("performance.now() > %d" % (started + 400))
        moved = web_helpers.press_late(page, "lever_left", 60)  # handled 60 ms late
        assert page.evaluate("window.clockPage.clock.late_ms") == 0
        line = fields(state_line(page))
        assert (line["moves"], line["running"], line["white"]) == ("1", "right", "left"), line
        assert ms_of(line["left"]) == 300_000 - (moved - started)  # 0 ms charge error
    finally:
        page.close()


def test_a_press_older_than_the_boards_instant_is_charged_at_that_instant_and_said(site):
    page = open_clock(site)
    try:
        page.evaluate("window.clockPage.start('300', null)")
        web_helpers.press_late(page, "lever_right", 0)
        web_helpers.wait_ms(page, 300)
        # the board run up to the event's own millisecond (advance leaves the millisecond
        # it is given open): still charged at it, the limit
        at_limit = """
        (() => {
          const live = window.clockPage;
          const button = document.getElementById("lever_left");
          const down = new PointerEvent("pointerdown", {button: 0, pointerId: 8, bubbles: true});
          const stamp = Math.floor(down.timeStamp);
          live.clock.advance(stamp + 1 + %d);
          button.dispatchEvent(down);
          button.dispatchEvent(new PointerEvent("pointerup", {button: 0, pointerId: 8}));
          return live.clock.late_ms;
        })()
        """
        assert page.evaluate(at_limit % 0) == 0
        web_helpers.wait_ms(page, 300)
        # one millisecond past it: charged at the board's instant, 1 ms late, and said so
        at_limit = at_limit.replace("lever_left", "lever_right").replace("8", "9")
        assert page.evaluate(at_limit % 1) == 1
    finally:
        page.close()


def test_a_closed_tab_and_a_power_cut_resume_the_game_from_the_browsers_flash(site):
    page = open_clock(site)
    try:
        page.evaluate("window.clockPage.start('300+3', null)")
        web_helpers.press_late(page, "lever_right", 0)
        web_helpers.wait_ms(page, 1200)
        web_helpers.press_late(page, "lever_left", 0)
        page.evaluate("window.clockPage.save()")
        before = fields(state_line(page))
        assert before["moves"] == "1"
        web_helpers.reload(page)
        after = fields(state_line(page))
        # the clock booted on the kept flash: the game, not a new clock's setup
        assert (after["moves"], after["white"]) == ("1", "left"), after
        assert after["state"] != "setup"
        # the power button cuts it and boots it again on the same flash
        page.evaluate("document.getElementById('power').click()")
        assert fields(state_line(page))["state"] == "off"
        page.evaluate("document.getElementById('power').click()")
        again = fields(state_line(page))
        assert (again["moves"], again["white"]) == ("1", "left"), again
    finally:
        page.evaluate("localStorage.clear()")
        page.close()


def test_a_state_link_restores_the_game_in_a_fresh_tab(site):
    server, browser = site
    page = open_clock(site)
    try:
        page.evaluate("window.clockPage.start('600', null)")
        web_helpers.press_late(page, "lever_left", 0)  # Black's lever: White (right) starts
        page.evaluate("document.getElementById('share').click()")
        link = page.evaluate("document.getElementById('share-out').textContent")
        assert link.startswith(server.url + "index.html#state=")
        page.evaluate("localStorage.clear()")
    finally:
        page.close()
    restored = browser.page(link, PHONE)
    try:
        restored.wait_for(web_helpers.STARTED, 60)
        line = fields(state_line(restored))
        assert (line["white"], line["left"]) == ("right", "0:10:00.000"), line
        assert "#state=" not in restored.evaluate("location.href")  # not kept in the address
    finally:
        restored.evaluate("localStorage.clear()")
        restored.close()


def test_a_frozen_tab_catches_up_and_the_flag_falls_exactly(site):
    page = open_clock(site)
    try:
        page.evaluate("window.clockPage.start('1', null)")
        started = web_helpers.press_late(page, "lever_right", 0)
        page.call("Page.setWebLifecycleState", state="frozen")
        time.sleep(1.5)
        page.call("Page.setWebLifecycleState", state="active")
        page.wait_for("performance.now() > %d" % (started + 1100))
        page.evaluate("window.clockPage.frame()")
        line = fields(state_line(page))
        assert (line["flag"], line["first_flag"], line["left"]) == ("left", "left", "0:00:00.000")
        assert line["right"] == "0:00:01.000"
    finally:
        page.evaluate("localStorage.clear()")
        page.close()


def boxes(page):
    return page.evaluate(
        """(() => {
        const out = {};
        for (const id of ["lever_left", "lever_right", "display_left", "display_right",
                          "play", "set", "plus", "minus", "power"]) {
          const r = document.getElementById(id).getBoundingClientRect();
          out[id] = [r.left, r.top, r.width, r.height];
        }
        out.page = [document.documentElement.scrollWidth, window.innerWidth, window.innerHeight];
        return out;
      })()"""
    )


@pytest.mark.parametrize("window", [PHONE, PHONE_LANDSCAPE, SCREEN])
def test_the_face_fits_the_screen_with_large_targets(site, window):
    page = open_clock(site, window)
    try:
        found = boxes(page)
        scroll_width, width, height = found.pop("page")
        assert scroll_width <= width  # nothing off the side
        for name, (left, top, box_width, box_height) in found.items():
            assert left >= 0 and left + box_width <= width + 0.5, name
            if name != "power":  # the face is on the first screen, the tools below it
                assert top >= 0 and top + box_height <= height + 0.5, (name, found[name])
            if not name.startswith("display"):
                assert min(box_width, box_height) >= MIN_TARGET_PX, name
        for lever in ("lever_left", "lever_right"):  # the levers: the largest targets
            assert found[lever][2] * found[lever][3] >= 4 * found["play"][2] * found["play"][3]
    finally:
        page.close()


def test_every_control_has_a_name_and_the_times_are_announced_politely(site):
    page = open_clock(site)
    try:
        unnamed = page.evaluate(
            """[...document.querySelectorAll('button, input, svg[role=img]')]
               .filter(e => !(e.getAttribute('aria-label') || e.textContent.trim()
                 || (e.id && document.querySelector('label[for=' + e.id + ']'))))
               .map(e => e.id)"""
        )
        assert unnamed == []
        live = page.evaluate(
            "(() => { const e = document.getElementById('times');"
            " return [e.getAttribute('aria-live'), e.textContent]; })()"
        )
        assert live[0] == "polite"
        assert re.match(r"left 0:05:03, right 0:05:03", live[1]), live
        label = page.evaluate("document.getElementById('display_left').getAttribute('aria-label')")
        assert label == "left display 5.03"
    finally:
        page.close()


def test_the_page_is_installable_and_opens_offline(site):
    server, browser = site
    page = open_clock(site)
    try:
        manifest = web_helpers.evaluate_awaited(
            page, "fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())"
        )
        assert manifest["display"] == "standalone" and manifest["start_url"] == "./"
        sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
        assert {"192x192", "512x512"} <= sizes
        web_helpers.evaluate_awaited(page, "navigator.serviceWorker.ready.then(() => true)")
        # chromium's own verdict: what it would refuse to install the page for
        assert page.call("Page.getInstallabilityErrors")["installabilityErrors"] == []
        assert page.call("Page.getAppManifest").get("errors") == []
        web_helpers.reload(page)
        assert page.evaluate("navigator.serviceWorker.controller !== null")
        page.call("Network.enable")
        page.call(
            "Network.emulateNetworkConditions",
            offline=True,
            latency=0,
            downloadThroughput=-1,
            uploadThroughput=-1,
        )
        web_helpers.reload(page)
        assert page.evaluate("document.body.dataset.error || ''") == ""
        assert page.evaluate("!!window.clockPage")
    finally:
        page.call(
            "Network.emulateNetworkConditions",
            offline=False,
            latency=0,
            downloadThroughput=-1,
            uploadThroughput=-1,
        )
        page.close()


# a control typed into the field (its input event) and the form submitted
TYPE_CONTROL = """
(() => {
  const field = document.getElementById('control');
  field.value = %r;
  field.dispatchEvent(new Event('input'));
  document.getElementById('new-game').requestSubmit();
})()
"""


def test_a_control_the_clock_cannot_play_is_refused_and_the_game_goes_on(site):
    page = open_clock(site)
    try:
        page.evaluate("window.clockPage.start('600', null)")
        web_helpers.press_late(page, "lever_right", 0)
        for bad in ("600x", "", "600 at"):  # not a control, nothing, two words
            page.evaluate(TYPE_CONTROL % bad)
            assert page.evaluate("document.getElementById('control').validationMessage")
            line = fields(state_line(page))
            assert (line["state"], line["white"]) == ("running", "left"), (bad, line)
        page.evaluate(TYPE_CONTROL % "40/5400+30:1800+30")
        line = fields(state_line(page))
        assert (line["state"], line["left"]) == ("setup", "1:30:30.000"), line
    finally:
        page.evaluate("localStorage.clear()")
        page.close()


@pytest.mark.parametrize("window", [PHONE, SCREEN])
def test_axe_finds_no_accessibility_violation(site, window):
    page = open_clock(site, window)
    try:
        page.evaluate("document.querySelector('#practice details').open = true")
        found = web_helpers.axe_violations(page)
        if found is None:
            pytest.skip("axe-core is not installed: make setup")
        assert found == []
    finally:
        page.close()


# every change of the tone the page's buzzer is given, in window.tones
RECORD_TONES = """
(() => {
  const buzzer = window.clockPage.face.buzzer;
  const sound = buzzer.sound.bind(buzzer);
  window.tones = [];
  buzzer.sound = (hz) => {
    if (hz !== buzzer.tone) window.tones.push(hz);
    sound(hz);
  };
})()
"""


def test_the_buzzer_plays_the_flags_pattern_at_its_tones(site):
    page = open_clock(site)
    try:
        page.evaluate(RECORD_TONES)
        page.evaluate("window.clockPage.start('1', null)")
        web_helpers.press_late(page, "lever_right", 0)
        page.wait_for("window.tones.length >= 6", 10)  # 2000 Hz thrice, rests between
        # the first flag's pattern (firmware/sound.py: FIRST_FLAG), as the PWM played it
        assert page.evaluate("window.tones.slice(0, 6)") == [2000, 0, 2000, 0, 2000, 0]
        assert page.evaluate("window.clockPage.face.buzzer.context !== null")  # Web Audio
    finally:
        page.evaluate("localStorage.clear()")
        page.close()


KEY = "document.dispatchEvent(new KeyboardEvent(%r, {key: %r, bubbles: true}))"


def test_the_window_keys_press_the_levers_and_keys(site):
    page = open_clock(site, SCREEN)
    try:
        page.evaluate("window.clockPage.start('600', null)")
        for key, wanted in (("l", "left"), ("a", "right"), (" ", "none")):  # space: pause
            page.evaluate(KEY % ("keydown", key))
            page.evaluate(KEY % ("keyup", key))
            web_helpers.wait_ms(page, 200)
            assert fields(state_line(page))["running"] == wanted, key
        assert fields(state_line(page))["state"] == "paused"
    finally:
        page.evaluate("localStorage.clear()")
        page.close()


def test_a_new_build_replaces_the_offline_copy(site, tmp_path):
    import json
    import shutil

    server, browser = site
    folder = tmp_path / "web"
    shutil.copytree(web_helpers.built_site(), folder)
    with web_helpers.SiteServer(str(folder)) as copy:  # an origin of its own
        page = browser.page(copy.url + "index.html", PHONE)
        try:
            page.wait_for(web_helpers.STARTED, 60)
            web_helpers.evaluate_awaited(page, "navigator.serviceWorker.ready.then(() => 1)")
            web_helpers.reload(page)  # opened again: from the worker's copy
            assert page.evaluate("navigator.serviceWorker.controller !== null")
            offline = json.loads((folder / "offline.json").read_text())
            # a new build: its page says so, its digest names a new version
            (folder / "index.html").write_text(
                (folder / "index.html").read_text().replace("<h1>Chess clock</h1>", "<h1>New</h1>")
            )
            offline["version"] = "0123456789abcdef"
            (folder / "offline.json").write_text(json.dumps(offline))
            # the opening that learns of the build registers its worker, which installs
            # (a copy of every file) and serves the openings after it
            deadline = time.monotonic() + 60
            shown = None
            while shown != "New" and time.monotonic() < deadline:
                web_helpers.reload(page)
                shown = page.evaluate("document.querySelector('h1').textContent")
                web_helpers.evaluate_awaited(
                    page,
                    "navigator.serviceWorker.getRegistration().then(r => r && r.active &&"
                    " r.active.scriptURL.includes('0123456789abcdef') ||"
                    " new Promise(done => setTimeout(done, 1000)))",
                )
            assert page.evaluate("document.querySelector('h1').textContent") == "New"
        finally:
            page.close()
