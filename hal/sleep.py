"""The main loop's sleep: until the app's next step is due or an input comes.

``Sleep.wait`` sleeps in ``select.poll``'s ``ipoll(timeout)`` on one object,
``Wake``, that is ready when an input waits that the app would act on
(``App.input_waits``: an edge in the ring, not one a menu key holds back) or the
app's step is due (``ticker.take``'s tick has come); the timeout is the time to
that step (``Ticker.ms_left``). On both ports the poll waits for an
interrupt between its checks (MicroPython v1.27.0, ``extmod/modselect.c``,
``poll_set_poll_until_ready_or_timeout`` calls ``mp_event_wait_ms``):

- **rp2**: ``MICROPY_INTERNAL_WFE`` (``ports/rp2/mphalport.h``) is
  ``mp_wfe_or_timeout``: the core sleeps in WFE until any interrupt or a
  one-shot alarm of the system timer at the timeout. The levers' and keys' pin
  interrupts are hard (``hal.edges``): the edge is in the ring before the core
  looks again, so the poll returns at once. Clocks, the PIO and the DMA run on
  (WFE stops only the core), so the levers' PIO capture and the timer it reads
  go on. ``machine.idle()`` is the same WFE with a 1 ms timeout
  (``ports/rp2/modmachine.c``): a wake every millisecond, what this replaces.
  ``machine.lightsleep(ms)`` is not used: it moves ``clk_sys`` to the crystal,
  stops the PLLs and gates every clock but the timer's (``sleep_en0 = 0``),
  so the PIO capture, the DMA and the pins' edge detection stop with it.
- **esp32**: ``MICROPY_EVENT_POLL_HOOK`` (``ports/esp32/mpconfigport.h``) runs
  the scheduled handlers, then blocks the main task in ``ulTaskNotifyTake``
  for one FreeRTOS tick; a pin interrupt schedules its handler and wakes the
  task (``machine_pin.c``, ``mp_hal_wake_main_task_from_isr``), so the poll
  sees the input within a FreeRTOS tick at most. ``machine.idle()`` there is
  ``taskYIELD()``, which returns at once. ``machine.lightsleep`` would stop the
  CPU, the timers and Wi-Fi's link: not used either.

``ipoll`` allocates nothing (``poll`` would build a list), and the poll calls
``Wake.ioctl`` at each of its checks, which allocates nothing either.
"""

import io

from micropython import const

from firmware.tickmath import ticks_diff
from hal import tick_source

_POLL_REQUEST = const(3)  # MP_STREAM_POLL: the request select.poll makes
_POLLIN = const(1)  # select.POLLIN on both ports


class Wake(io.IOBase):
    """What the main loop waits for, as a stream ``select.poll`` can watch: readable
    when an input waits or the app's step is due."""

    def __init__(self, ticker):
        self.ticker = ticker
        self.app = None  # the app the main loop steps (``serve``)

    def serve(self, app):
        """Wake for ``app``'s inputs."""
        self.app = app

    def ready(self):
        """True if the main loop has work: an input the app acts on, or the step's tick."""
        return self.ticker.ms_left() == 0 or self.app.input_waits()

    def ioctl(self, request, argument):
        if request == _POLL_REQUEST:
            return argument & _POLLIN if self.ready() else 0
        return 0


class Sleep:
    """The main loop's wait between passes (``wait``)."""

    def __init__(self, ticker):
        self.wake = Wake(ticker)
        self.ticker = ticker
        self.poller = None  # select.poll, made at the first wait (``watch_with``)

    def watch_with(self, poller):
        """Wait in ``poller`` (a ``select.poll``, or the simulator's stand-in)."""
        poller.register(self.wake, _POLLIN)
        self.poller = poller

    def wait(self, app, until=None):
        """Sleep until ``app``'s next step is due or an input comes that it acts on, or
        until tick ``until`` if that comes first (the hall link's next timed work)."""
        self.wake.serve(app)
        poller = self.poller
        if poller is None:
            import select

            self.watch_with(select.poll())
            poller = self.poller
        timeout = self.ticker.ms_left()
        if until is not None:
            # (one come already is not: the link just had its turn, and found it must wait)
            left = ticks_diff(until, tick_source.source.ticks_ms())
            if left > 0 and (timeout < 0 or left < timeout):
                timeout = left
        poller.ipoll(timeout)
