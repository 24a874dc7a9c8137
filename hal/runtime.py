"""The board's main loop: sleep until the app's next step or an input, then step.

After each step the app says when it next needs one (``firmware.deadlines``: the
earliest of its parts' deadlines, at most ``firmware.deadlines.REST_MAX_MS`` on),
and the ticker keeps that tick (``hal.ticker``). Between passes the loop sleeps
(``hal.sleep``) until that tick or an interrupt that brings an input; an edge
always brings a step. Every step feeds the watchdog, so a board that stops
stepping is reset (``hal.watchdog``). A running clock wakes two or three times a
second, not at every tick nor at every millisecond."""

from hal import tick_source
from hal.tick_source import ticks_ms


def service(app, hardware):
    """One pass of the main loop; True if the app ran a step."""
    if not hardware.ticker.take() and not app.input_waits():
        return False
    app.step(tick_source.source.ticks_ms())  # ``tick_source.ticks_ms``, without its call
    hardware.watchdog.feed()  # only an app that steps keeps the board alive
    return True


def turn(app, hardware, hall=None):
    """One turn of the main loop: a pass; if it stepped nothing, the hall's link (if
    any) gets one bounded turn (hal.hall_link), never inside a pass, and the loop
    sleeps until it has work: the app's next step, the link's (``deadline``), an
    input. While the link is writing a message the loop does not
    sleep: the next pass gives the link its next turn, so a message is on its way
    within a few passes. True if the app stepped (the loop turns again at once)."""
    if service(app, hardware):
        return True
    until = None
    if hall is not None:
        now = ticks_ms()
        hall.poll(app, now)
        if hall.writing():
            return False
        until = hall.deadline()
    hardware.sleep.wait(app, until)
    return False


def loop(app, hardware, hall=None):
    """Run the clock forever."""
    while True:
        turn(app, hardware, hall)
