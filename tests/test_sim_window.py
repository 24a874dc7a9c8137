"""The simulator's window under a virtual X server: real clicks and keys, what it draws.

The X server (Xvfb) gets real pointer and key events from xdotool at the
widgets' real positions; the window turns them into contact transitions.
What the canvas holds, and the pixels on the server's screen, must match the
HT16K33 chip model's RAM bit by bit. Time is a wall clock the test moves, so
every instant is known and the expected displays are worked out by hand.
"""

import io
import os
import select
import subprocess
import sys
import time

import pytest

from live.segments_view import DARK, lit_colour
from live.session import LiveSession, header_text
from sim import ht16k33
from tests import xserver
from tests.scripting import ROOT, fields, run_cli

# One worker plays the whole module: one virtual screen for it (Xvfb picks a free display).
pytestmark = [
    pytest.mark.skipif(xserver.available() is not None, reason=str(xserver.available())),
    pytest.mark.xdist_group("window"),
]


@pytest.fixture(scope="module")
def screen():
    virtual = xserver.VirtualScreen()
    yield virtual
    virtual.stop()


class Wall:
    def __init__(self):
        self.seconds = 500.0

    def __call__(self):
        return self.seconds


@pytest.fixture
def window(screen, monkeypatch):
    monkeypatch.setenv("DISPLAY", screen.display)
    from live.window import ClockWindow

    wall = Wall()
    session = LiveSession(header_text("300", "sim"), clock=wall)
    clock_window = ClockWindow(session, out=io.StringIO())
    clock_window.start()
    root = clock_window.root
    assert xserver.wait_until(root.winfo_viewable, poll=root.update)
    clock_window.wall = wall
    clock_window.start_seconds = wall.seconds
    yield clock_window
    if not clock_window.finished:
        clock_window.quit()
    session.close()


def set_time(window, seconds):
    """Put the wall clock ``seconds`` after the window went live, and let the window run."""
    window.wall.seconds = window.start_seconds + seconds
    window.root.update()
    window.step()


def centre_of(widget):
    return (
        widget.winfo_rootx() + widget.winfo_width() // 2,
        widget.winfo_rooty() + widget.winfo_height() // 2,
    )


def mouse(screen, window, name, button_action):
    """Move the pointer onto the control's button and press or let go of mouse button 1."""
    x, y = centre_of(window.buttons[name])
    screen.xdotool("mousemove", str(x), str(y))
    assert xserver.wait_until(lambda: window.root.winfo_pointerxy() == (x, y))
    screen.xdotool(button_action, "1")
    held = button_action == "mousedown"
    assert xserver.wait_until(
        lambda: (name in window.session.held) == held, poll=window.root.update
    ), "%s %s did not reach the window" % (button_action, name)


def key(screen, window, keysym, action):
    window.root.focus_force()
    window.root.update()
    screen.xdotool(action, keysym)


def drawn_matches_chips(window):
    """Every element on the canvas has the colour its RAM bit asks for; return the decoded text."""
    texts = []
    for view, chip in zip(window.views, window.session.board.chips, strict=True):
        assert chip.oscillator_on and chip.display_on
        for element, item in view.items:
            wanted = lit_colour(chip.brightness) if element.lit(chip.ram) else DARK
            assert window.canvas.itemcget(item, "fill") == wanted, element.name
        texts.append(ht16k33.decode_seg7x4(chip.ram))
    return "|".join(texts)


def rgb(colour):
    return tuple(int(colour[index : index + 2], 16) for index in (1, 3, 5))


def test_clicks_on_the_levers_and_keys_run_the_clock_the_window_draws(screen, window):
    assert drawn_matches_chips(window) == " 5.00| 5.00"
    set_time(window, 1.0)
    mouse(screen, window, "lever_right", "mousedown")  # Black presses: White (left) runs
    set_time(window, 1.05)
    mouse(screen, window, "lever_right", "mouseup")
    set_time(window, 2.7)  # 1.7 s used: 4:58.3 shows 4.59, running mark lit (1.5-2.0 s)
    assert drawn_matches_chips(window) == " 4.59.| 5.00"
    set_time(window, 3.2)  # 2.2 s: the mark is dark in the first half of the third second
    assert drawn_matches_chips(window) == " 4.58| 5.00"
    mouse(screen, window, "play", "mousedown")
    set_time(window, 3.3)
    mouse(screen, window, "play", "mouseup")
    set_time(window, 9.0)  # paused at 3.2: 2.2 s used, 4:57.8 shows 4.58, no mark
    assert drawn_matches_chips(window) == " 4.58| 5.00"
    assert window.session.board.app.clock.moves() == 0
    assert [statement for _, _, statement in window.session.presses] == [
        "press right",
        "hold play 0.100",
    ]


def test_a_long_press_lasts_as_long_as_the_mouse_or_the_key_is_held(screen, window):
    set_time(window, 1.0)
    mouse(screen, window, "set", "mousedown")
    set_time(window, 3.4)
    assert str(window.buttons["set"].cget("relief")) == "sunken"
    mouse(screen, window, "set", "mouseup")
    set_time(window, 5.0)
    key(screen, window, "s", "keydown")
    assert xserver.wait_until(lambda: "set" in window.session.held, poll=window.root.update)
    set_time(window, 7.25)
    key(screen, window, "s", "keyup")
    assert xserver.wait_until(lambda: "set" not in window.session.held, poll=window.root.update)
    statements = [statement for _, _, statement in window.session.presses]
    assert statements == ["hold set 2.400", "hold set 2.250"]


def test_a_key_held_through_autorepeat_is_one_press(screen, window):
    repeats = []
    window.root.bind_all("<KeyPress>", lambda event: repeats.append(event.keysym), add="+")
    set_time(window, 1.0)
    key(screen, window, "m", "keydown")
    end = time.monotonic() + 1.2  # longer than the X server's autorepeat delay
    while time.monotonic() < end:
        window.root.update()
        time.sleep(0.01)
    set_time(window, 2.0)
    key(screen, window, "m", "keyup")
    assert xserver.wait_until(lambda: not window.session.held, poll=window.root.update)
    assert len(repeats) > 1, "the X server sent no autorepeat: this test proves nothing"
    assert [statement for _, _, statement in window.session.presses] == ["hold lever_right 1.000"]


def test_the_screen_shows_lit_and_dark_segments_where_the_chips_say(screen, window):
    set_time(window, 1.0)
    key(screen, window, "l", "keydown")
    assert xserver.wait_until(lambda: window.session.held, poll=window.root.update)
    key(screen, window, "l", "keyup")
    assert xserver.wait_until(lambda: not window.session.held, poll=window.root.update)
    set_time(window, 2.7)
    drawn = drawn_matches_chips(window)
    assert drawn == " 4.59.| 5.00"
    window.root.update()
    window.root.winfo_pointerxy()  # a round trip: the server has drawn everything before it
    shot = screen.screenshot()
    canvas = window.canvas
    origin_x, origin_y = canvas.winfo_rootx(), canvas.winfo_rooty()
    checked = 0
    for view, chip in zip(window.views, window.session.board.chips, strict=True):
        for element, _ in view.items:
            if element.points is not None:
                x = sum(point[0] for point in element.points) / len(element.points)
                y = sum(point[1] for point in element.points) / len(element.points)
            else:
                x, y = element.centre
            pixel = shot.pixel(origin_x + round(x), origin_y + round(y))
            wanted = rgb(lit_colour(chip.brightness) if element.lit(chip.ram) else DARK)
            assert pixel == wanted, (element.name, pixel, wanted)
            checked += 1
    assert checked == 2 * (4 * 8 + 2)  # every segment, point and colon dot of both displays


def test_the_buzzer_lights_while_its_pwm_sounds(screen, monkeypatch):
    monkeypatch.setenv("DISPLAY", screen.display)
    from live.window import BUZZER_OFF, BUZZER_ON, ClockWindow

    wall = Wall()
    session = LiveSession(header_text("5", "sim"), clock=wall)
    clock_window = ClockWindow(session, out=io.StringIO())
    clock_window.wall = wall
    clock_window.start_seconds = wall.seconds
    try:
        clock_window.start()
        set_time(clock_window, 0.5)
        session.tap("lever_right")  # White (left) has 5 s
        set_time(clock_window, 5.4)
        assert clock_window.canvas.itemcget(clock_window.buzzer, "fill") == BUZZER_OFF
        set_time(clock_window, 5.6)  # the flag fell at 5.5: the buzzer sounds
        assert session.buzzer_sounding()
        assert clock_window.canvas.itemcget(clock_window.buzzer, "fill") == BUZZER_ON
        assert drawn_matches_chips(clock_window) == "F.0.00| 0.05"  # docs/display.md
        set_time(clock_window, 20.0)  # the flag's pattern is over
        assert clock_window.canvas.itemcget(clock_window.buzzer, "fill") == BUZZER_OFF
    finally:
        clock_window.quit()
        session.close()


def test_make_sim_opens_the_window_and_records_a_session_that_replays(screen, tmp_path):
    record = tmp_path / "session.clock"
    command = [sys.executable, "-m", "live", "--window", "--control", "300"]
    process = subprocess.Popen(
        command + ["--record", str(record)],
        cwd=ROOT,
        env=screen.env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        ready, _, _ = select.select([process.stdout], [], [], 60)
        assert ready and process.stdout.readline().strip() == "window open"
        window_id = screen.xdotool("search", "--name", "Chess clock").split()[0]
        screen.xdotool("windowfocus", "--sync", window_id)
        pressed = time.monotonic()
        screen.xdotool("key", "m")
        time.sleep(0.5)
        screen.xdotool("key", "space")
        paused = time.monotonic()
        time.sleep(0.3)
        screen.xdotool("key", "q")
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, err
    end = [line for line in out.splitlines() if line.startswith("end: ")][0][5:]
    state = fields(end)
    assert state["state"] == "paused"
    assert state["white"] == "left"
    assert state["moves"] == "0"
    # left ran from the lever's key to the pause's: about 0.5 s, longer on a loaded machine,
    # never longer than the keys took to send (and the X server's delivery, 1 s at most)
    hours, minutes, seconds = state["left"].split(":")
    left_s = int(hours) * 3600 + int(minutes) * 60 + float(seconds)
    assert 300 - (paused - pressed) - 1.0 <= left_s < 300, state["left"]
    status, replayed, errors = run_cli([str(record)])
    assert status == 0, replayed + errors
    assert replayed.strip().endswith("end: " + end)
    assert os.path.getsize(record) > 0


def test_the_window_draws_each_board_to_scale(screen, monkeypatch):
    # 5 px a millimetre: 0.56" digits (14 mm) and 1.2" ones (30 mm), 10 mm indicators.
    monkeypatch.setenv("DISPLAY", screen.display)
    from live.window import PX_PER_MM, ClockWindow

    sizes = {}
    for name in ("sim", "pico_big"):
        session = LiveSession(header_text("300", name), name, clock=Wall())
        clock_window = ClockWindow(session, out=io.StringIO())
        try:
            canvas = clock_window.canvas
            x1, y1, x2, y2 = canvas.coords(clock_window.leds[0])
            sizes[name] = (clock_window.views[0].height, x2 - x1)
            segments = [item for element, item in clock_window.views[0].items]
            lamps = [element.name for element, item in clock_window.views[0].items]
            if name == "pico_big":
                assert "d1.dp" not in lamps and "left.top" in lamps and "point" in lamps
            else:
                assert "d1.dp" in lamps and "left.top" not in lamps
            assert segments
        finally:
            clock_window.quit()
            session.close()
    assert sizes["sim"][1] == sizes["pico_big"][1] == 10 * PX_PER_MM
    padding = 2 * 14
    assert round((sizes["pico_big"][0] - padding) / (sizes["sim"][0] - padding), 2) == round(
        30 / 14, 2
    )


def _luminance(colour):
    """WCAG 2's relative luminance of an sRGB colour ``#rrggbb``."""
    linear = []
    for index in (1, 3, 5):
        channel = int(colour[index : index + 2], 16) / 255
        if channel <= 0.04045:
            linear.append(channel / 12.92)
        else:
            linear.append(((channel + 0.055) / 1.055) ** 2.4)
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(one, other):
    high, low = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_digits_are_legible_at_every_brightness_and_the_dimming_shows():
    """Lit against unlit segments and against the window, at least WCAG's 3 : 1 for large
    text at every step the chip has, the default (2/16: register 1) included; each step
    brighter than the one below, full brightness clearly brighter than the default."""
    from firmware.settings import DEFAULT_BRIGHTNESS
    from live.segments_view import WINDOW

    default = DEFAULT_BRIGHTNESS - 1
    steps = [lit_colour(step) for step in range(16)]
    for colour in steps:
        assert _contrast(colour, DARK) >= 3 and _contrast(colour, WINDOW) >= 3, colour
    assert all(_luminance(a) < _luminance(b) for a, b in zip(steps[:-1], steps[1:], strict=True))
    assert _luminance(steps[15]) >= 1.5 * _luminance(steps[default])
