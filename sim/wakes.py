"""How the simulated board's main loop waits between passes, and how often it wakes.

The main loop waits in one of two calls, modelled as the rp2 port (MicroPython
v1.27.0) makes them:

- ``machine.idle()`` (``ports/rp2/modmachine.c``: ``MICROPY_INTERNAL_WFE(1)``,
  WFE with a one-shot alarm 1 ms on): it returns at the first interrupt or
  after 1 ms, whichever comes first, so the loop wakes every millisecond
  (``IDLE_WAKE_MS``) and at every interrupt. On the port, with a clock running,
  that was about 875 passes a second (the rest of each millisecond was the pass).
- ``select.poll().ipoll(timeout)`` on ``hal.sleep``'s ``Wake``
  (``extmod/modselect.c``): WFE until an interrupt or the timeout; after an
  interrupt it asks the stream again and sleeps on unless it is ready. So the
  loop wakes at the timeout, or at an interrupt that left work (an input in the
  ring); a bounce edge of a disarmed input wakes the core for the handler but
  not the loop.

A wake here is a return of that call to the main loop: a pass. ``Waits`` counts
them (``count``); ``sim.world.SimBoard`` asks it at each interrupt whether the
loop wakes (``interrupt``) and when a sleep's timeout ends (``deadline``).
"""

IDLE_WAKE_MS = 1  # machine.idle()'s timeout on the rp2 port

_IDLE = 1
_SLEEP = 2
_POLL_REQUEST = 3  # MP_STREAM_POLL
_POLLIN = 1


class Waits:
    """The main loop's current wait (none, idle, or a sleep) and its wakes so far."""

    def __init__(self):
        self.kind = None  # None: the loop is not waiting (it runs a pass)
        self.since_ms = 0
        self.until_ms = None  # a sleep's timeout, in virtual ms (None: none)
        self.stream = None  # what a sleep's poll watches
        self.count = 0  # the wakes so far

    def idle(self, now_ms):
        """The loop called ``machine.idle()`` at ``now_ms``."""
        self.kind = _IDLE
        self.since_ms = now_ms
        self.until_ms = None

    def sleep(self, now_ms, timeout_ms, stream):
        """The loop sleeps in a poll on ``stream`` from ``now_ms``, for ``timeout_ms``
        (negative: until the stream is ready)."""
        self.kind = _SLEEP
        self.since_ms = now_ms
        self.until_ms = None if timeout_ms < 0 else now_ms + timeout_ms
        self.stream = stream

    def sleeping(self):
        """True while the loop sleeps in its poll."""
        return self.kind == _SLEEP

    def deadline(self):
        """Virtual ms at which the loop wakes by itself, or None (only an interrupt)."""
        if self.kind == _IDLE:
            return self.since_ms + IDLE_WAKE_MS
        if self.kind == _SLEEP:
            return self.until_ms
        return None

    def interrupt(self, now_ms):
        """An interrupt, or a timeout, at ``now_ms``: True if the loop wakes and runs a
        pass (counted), False if it sleeps on."""
        kind = self.kind
        if kind is None:
            return True  # it was not waiting: the pass it is in sees the interrupt
        if kind == _IDLE:
            # every millisecond of the wait was a wake, the last one now
            self.count += max(1, (now_ms - self.since_ms) // IDLE_WAKE_MS)
        else:
            until = self.until_ms
            timed_out = until is not None and now_ms >= until
            if not timed_out and not self.stream.ioctl(_POLL_REQUEST, _POLLIN):
                return False
            self.count += 1
        self.kind = None
        return True


class Poll:
    """``select.poll`` as the main loop uses it (``hal.sleep``): one stream, ``ipoll``."""

    def __init__(self, waits, now_ms):
        self.waits = waits
        self.now_ms = now_ms  # () -> the virtual ms
        self.stream = None

    def register(self, stream, mask):
        self.stream = stream

    def ipoll(self, timeout_ms=-1):
        """The loop sleeps from now (the simulator moves time: the call returns at
        once, and the board's scheduler wakes the loop, ``Waits.interrupt``)."""
        self.waits.sleep(self.now_ms(), timeout_ms, self.stream)
        return ()
