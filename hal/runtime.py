"""The board's main loop: wait for an edge or a tick, then run one step of the app.

A tick at which the app rests (it said until when after its last step: nothing
can change before that tick) is passed over by the ticker itself
(``hal.ticker.Ticker.take``) without a step; an edge always brings a step. Every
step feeds the watchdog; the app steps at least once every
``firmware.app.REST_MAX_MS``, so a board that stops stepping is reset
(``hal.watchdog``). Most ticks are ticks at rest, so their path is two calls and
one read of the tick counter."""

from hal import tick_source
from hal.tick_source import ticks_ms


def service(app, hardware):
    """One pass of the main loop; True if the app ran a step."""
    if not hardware.ticker.take() and not hardware.inputs.pending():
        return False
    app.step(tick_source.source.ticks_ms())  # ``tick_source.ticks_ms``, without its call
    hardware.watchdog.feed()  # only an app that steps keeps the board alive
    return True


def loop(app, hardware, hall=None):
    """Run the clock forever, idling between interrupts; the hall's link (if any)
    gets one bounded turn between passes (hal.hall_link), never inside one. While
    the link is writing a message the loop does not idle: the next pass (the app's
    step first, if a tick or an edge came) gives the link its next turn, so a
    message is on its way within a few passes, not a few ticks."""
    import machine

    while True:
        if not service(app, hardware):
            if hall is not None:
                hall.poll(app, ticks_ms())
                if hall.writing():
                    continue
            machine.idle()
