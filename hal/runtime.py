"""The board's main loop: wait for an edge or a tick, then run one step of the app."""

from hal.tick_source import ticks_ms


def service(app, hardware):
    """One pass of the main loop; True if the app ran a step."""
    if hardware.ticker.take() or hardware.inputs.head != hardware.inputs.tail:
        app.step(ticks_ms())
        hardware.watchdog.feed()  # only a loop that runs the app keeps the board alive
        return True
    return False


def loop(app, hardware, hall=None):
    """Run the clock forever, idling between interrupts; the hall's link (if any)
    gets one bounded turn between passes (hal.hall_link), never inside one."""
    import machine

    while True:
        if not service(app, hardware):
            if hall is not None:
                hall.poll(app, ticks_ms())
            machine.idle()
