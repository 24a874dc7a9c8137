"""A chip board ready for a game: booted, its journal's ring prepared, a start allowed.

A board whose flash takes time (``sim.latency``) prepares its journal's ring after
power-up (``hal.journal_store``: ``PrEP`` and the blocks left, a start refused meanwhile),
as the Pico does for seconds. The ideal board's flash prepares it at once, so a script
meets a board a start may be taken on at its 0. ``ready_start_ms`` runs a booted board
until the firmware's own test says a start may be taken (``may_start``) and gives the
instant a script's 0 falls on then: the first tick of the clock's grid after it, so a
script meets the board as a player finds it, its steps on the grid as at a boot. The
real-port lane starts its scripts the same way (bench/port_script.py).
"""

from firmware.tickmath import ticks_diff
from sim import vclock

# A board still preparing after this long (virtual ms from its boot) is not ready: the
# longest control's ring at the flash's maximum erase times takes under a minute.
LIMIT_MS = 600_000


class NotReady(Exception):
    """The board did not become ready within ``LIMIT_MS``, or not as foreseen."""


def may_start(app):
    """Whether a game may start on ``app`` now, as the firmware judges it: no block of
    the ring left to prepare, and the app has seen it (``App.preparing``, its refusal
    of a start)."""
    journal = app.journal
    return app.preparing == 0 and (journal is None or journal.start_wait() == 0)


def ready_at_ms(board, limit_ms=LIMIT_MS):
    """Run the booted ``board`` (a ``sim.world.SimBoard``) until a start may be taken, a
    millisecond at a time; return the virtual ms of the pass that found it so. Raises
    NotReady if it is not by ``limit_ms``."""
    app = board.app
    now = vclock.now_ms()
    while not may_start(app):
        if now >= limit_ms:
            raise NotReady(
                "the ring still being prepared %d ms after the boot (%d blocks left)"
                % (limit_ms, app.preparing)
            )
        now += 1
        board.run_due(now)
    return now


def ready_start_ms(board, limit_ms=LIMIT_MS):
    """Run the booted ``board`` until a start may be taken (``ready_at_ms``); return the
    virtual ms a script's 0 falls on: now if the board was ready at once, else the first
    tick of its grid after the pass that found it ready (a lever stamped at that pass's
    tick or before would be refused: ``App.ready_at``)."""
    if may_start(board.app):
        return vclock.now_ms()
    now = ready_at_ms(board, limit_ms)
    ticker = board.app.hardware.ticker
    period = ticker.period_ms
    return now + period - ticks_diff(vclock.ticks_ms(), ticker.grid) % period
