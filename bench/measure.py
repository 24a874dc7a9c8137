"""Measurements of the firmware's hot paths, run inside MicroPython by ``make bench``.

Prints one JSON object: bytes allocated per tick and per lever press (IRQ
to display), whether those paths run with the heap locked, heap in use
after boot (``bench.boot_heap``: every firmware module counted, after a full
collection) and what boot allocated on the way, CPU microseconds per tick
(as the board runs them, most at rest, and with a step at every tick) and
per display frame, and the last 10 s of a game with the warning beeps,
the flag's pattern and the running side's LED, and a time control passed with
its mark and tone, run under the heap lock. The tick
and frame costs include the simulated sleep's poll and the HT16K33 model, which
on a board are the port's and hardware, so they are an upper bound of the firmware's own.
"""

import gc
import json
import time

import micropython

from bench.boot_heap import measure_boot, settings_flash
from sim import machine as sim_machine
from sim import vclock
from sim.world import SimBoard, fresh_flash

_TICKS = 2000
_POLL_REQUEST = 3  # MP_STREAM_POLL, what select.poll asks hal.sleep.Wake
_POLLIN = 1
# The clock reads whole ms here: runs of 10,000 ticks (a tenth of a second or more)
# make that 1 % of a run or less.
_TIMED_TICKS = 10_000
_PRESSES = 200
# Node runs the interpreter slower for the first few hundred ms of a workload (this
# tree's tick: about 12 µs in the first 100 ms, 9 µs after 300 ms); at a few µs a tick
# the three runs would fall in them. The first release's measurement
# (bench/first_release.py), at 40 µs a tick, is at its steady speed by its third run;
# ticks run this long before the first timed one here.
_WARM_MS = 500


def _real_us():
    return time.time_ns() // 1000


def _tick(board, hardware, runtime):
    """A tick later: the main loop's turn there (a step if one is due), its sleep, and
    what the sleep's poll asks (``hal.sleep.Wake``). A tree from before the loop slept
    (bench.core's ``BEFORE``, measured with this file) has no turn: its ticker's timer
    fires and its pass runs, as its own measurement did."""
    vclock.set_now(vclock.now_ms() + board.board.TICK_MS)
    turn = getattr(runtime, "turn", None)
    if turn is None:  # its ticker's timer fired (the simulated machine's), then its pass
        sim_machine.timers()[0].fire()
        runtime.service(board.app, hardware)
        return
    turn(board.app, hardware)
    hardware.sleep.wake.ioctl(_POLL_REQUEST, _POLLIN)


def _press(board, pin, runtime, hardware):
    sim_machine.drive(pin, 0)
    runtime.service(board.app, hardware)


def _release(board, pin, runtime, hardware):
    sim_machine.drive(pin, 1)
    index = 0
    while index < 3:  # the contact is quiet again: re-armed on the following ticks
        _tick(board, hardware, runtime)
        index += 1


def _ticks(board, hardware, runtime):
    """(bytes allocated per tick over ``_TICKS`` ticks, CPU µs per tick: the best of
    three runs of ``_TIMED_TICKS``, whether the ticks run under ``heap_lock``), after
    ``_WARM_MS`` of ticks."""
    began = _real_us()
    while _real_us() - began < _WARM_MS * 1000:
        for _ in range(100):
            _tick(board, hardware, runtime)
    gc.collect()
    gc.disable()
    start = gc.mem_alloc()
    for _ in range(_TICKS):
        _tick(board, hardware, runtime)
    allocated = gc.mem_alloc() - start
    gc.enable()
    tick_us = None
    for _ in range(3):
        began = _real_us()
        for _ in range(_TIMED_TICKS):
            _tick(board, hardware, runtime)
        spent = (_real_us() - began) / _TIMED_TICKS
        tick_us = spent if tick_us is None else min(tick_us, spent)
    locked = True
    micropython.heap_lock()
    try:
        for _ in range(_TICKS):
            _tick(board, hardware, runtime)
    except MemoryError:
        locked = False
    micropython.heap_unlock()
    return allocated / _TICKS, tick_us, locked


def main(argv):
    return measure_boot(settings_flash("5400+30"), "sim", _measure)


def _measure(board, boot):
    from hal import runtime

    hardware = board.app.hardware
    left = board.board.INPUTS["lever_left"]
    right = board.board.INPUTS["lever_right"]
    # start the game: right's press starts left's clock
    _press(board, right, runtime, hardware)
    _release(board, right, runtime, hardware)

    # ticks of the running game: as the board runs them (most at rest), then with a
    # step at every tick (``App.rests`` off), the busiest the tick can be
    tick_bytes, tick_us, tick_locked = _ticks(board, hardware, runtime)
    board.app.allow_rest(False)
    step_bytes, step_us, step_locked = _ticks(board, hardware, runtime)
    board.app.allow_rest(True)
    tick_bytes = max(tick_bytes, step_bytes)
    tick_locked = tick_locked and step_locked

    # presses: each side alternately, IRQ edge to display
    sides = (left, right)
    gc.collect()
    gc.disable()
    press_total = 0
    for number in range(_PRESSES):
        pin = sides[number % 2]
        start = gc.mem_alloc()
        _press(board, pin, runtime, hardware)
        press_total += gc.mem_alloc() - start
        _release(board, pin, runtime, hardware)
    gc.enable()
    moves_before = board.app.clock.moves()

    press_locked = True
    for number in range(20):
        pin = sides[number % 2]
        micropython.heap_lock()
        try:
            _press(board, pin, runtime, hardware)
        except MemoryError:
            press_locked = False
        micropython.heap_unlock()
        _release(board, pin, runtime, hardware)
    moves_after = board.app.clock.moves()

    # one display frame: render a side and send it (forced to differ)
    from firmware import frames

    display = hardware.displays[0]
    frame = bytearray(frames.FRAME_SIZE)
    began = _real_us()
    for _ in range(_TICKS):
        frames.render_side(frame, board.app.clock, 0, vclock.ticks_ms())
        if frame == display.last:
            frame[0] ^= 0x80  # a frame that differs from the one shown: it is sent
        display.show_frame(frame)
    frame_us = (_real_us() - began) / _TICKS

    board.app.hardware.stop()
    # This tree's own parts under heap_lock (the buzzer, a control passing, the ring, the
    # capture). bench.core measures a tree from before the loop slept with this file for
    # its tick alone: that tree has none of them (its figures are None).
    sound = dict.fromkeys(("ticks", "patterns", "sounding", "led", "locked"))
    passing = ring = captured = None
    if hasattr(runtime, "turn"):
        sound = _sounding_ticks()
        passing = _passing_control()
        ring = _ring_presses()
        captured = _captured_presses()

    print(
        json.dumps(
            {
                "alloc_bytes_per_tick": tick_bytes,
                "tick_runs_with_heap_locked": tick_locked,
                "alloc_bytes_per_press": press_total / _PRESSES,
                "press_runs_with_heap_locked": press_locked,
                "moves_counted_under_heap_lock": moves_after - moves_before,
                "heap_after_boot_bytes": boot["heap_after_boot_bytes"],
                "heap_in_use_after_boot_bytes": boot["heap_in_use_after_boot_bytes"],
                "heap_allocated_by_boot_bytes": boot["heap_allocated_by_boot_bytes"],
                "cpu_us_per_tick": tick_us,
                "cpu_us_per_stepping_tick": step_us,
                "cpu_us_per_display_frame": frame_us,
                "buzzer_ticks_under_heap_lock": sound["ticks"],
                "buzzer_patterns_started_under_heap_lock": sound["patterns"],
                "buzzer_sounding_ticks_under_heap_lock": sound["sounding"],
                "led_lit_under_heap_lock": sound["led"],
                "buzzer_ticks_run_with_heap_locked": sound["locked"],
                "control_passed_under_heap_lock": passing,
                "ring_entries_under_heap_lock": ring,
                "captured_inputs_under_heap_lock": captured,
            }
        )
    )
    return 0


def _passing_control():
    """A time control passed under heap_lock: in 4/60:30 both sides make two moves,
    then, locked, left's 3rd, right's 3rd and left's 4th, the period's last; what
    left's display shows then and how many tones started, or "MemoryError" if
    anything allocated."""
    board = SimBoard(fresh_flash("4/60:30"), bounce_ms=0)
    board.boot()
    from hal import runtime
    from sim import ht16k33

    hardware = board.app.hardware
    board.app.settings.sound = True
    left = board.board.INPUTS["lever_left"]
    right = board.board.INPUTS["lever_right"]
    for pin in (right, left, right, left, right):  # left is White; two moves each
        _press(board, pin, runtime, hardware)
        _release(board, pin, runtime, hardware)
    started = hardware.buzzer.started
    locked_presses = (left, right, left)  # left's 4th move ends its period 1
    if not _locked_presses(board, locked_presses, runtime, hardware):
        return "MemoryError"
    shown = ht16k33.decode_seg7x4(board.chips[0].ram)
    tones = hardware.buzzer.started - started
    hardware.stop()
    return {"left_display": shown, "tones": tones}


def _locked_presses(board, pins, runtime, hardware):
    """Press and release each of ``pins`` with the heap locked; False (the hardware
    stopped) if anything allocated."""
    gc.collect()
    micropython.heap_lock()
    try:
        for pin in pins:
            _press(board, pin, runtime, hardware)
            _release(board, pin, runtime, hardware)
    except MemoryError:
        micropython.heap_unlock()
        hardware.stop()
        return False
    micropython.heap_unlock()
    return True


def _ring_presses():
    """On the Pico, whose journal has a ring: one block prepared at boot (a game
    started at once), then 20 presses under heap_lock, each entry a page program
    into the ring; the ring entries written, or "MemoryError" if anything allocated."""
    board = SimBoard(fresh_flash("300+3"), bounce_ms=0, board_name="pico")
    board.boot()
    from hal import runtime

    hardware = board.app.hardware
    store = board.app.journal.store
    sides = (board.board.INPUTS["lever_right"], board.board.INPUTS["lever_left"])
    _press(board, sides[0], runtime, hardware)  # left is White: its clock starts
    _release(board, sides[0], runtime, hardware)
    before = store.ring.next
    presses = [sides[(number + 1) % 2] for number in range(20)]
    if not _locked_presses(board, presses, runtime, hardware):
        return "MemoryError"
    hardware.stop()
    return store.ring.next - before


def _captured_presses():
    """On the Pico, whose levers and play key the PIO and DMA stamp (hal/capture.py),
    under heap_lock: a move, a pause and a resume by the play key, then a move whose
    lever's handler is held back (as a flash erase holds it) behind a menu key's, so
    the lever is stored after the key yet stamped before it and is brought forward
    (hal/edges.py, ``pop``). What was done, or "MemoryError" if anything allocated."""
    board = SimBoard(fresh_flash("300+3"), bounce_ms=0, board_name="pico")
    board.boot()
    from hal import runtime

    hardware = board.app.hardware
    clock = board.app.clock
    inputs = board.board.INPUTS
    left, right, play = inputs["lever_left"], inputs["lever_right"], inputs["play"]
    minus = inputs["minus"]
    _press(board, right, runtime, hardware)  # left is White: its clock starts
    _release(board, right, runtime, hardware)
    moves = clock.moves()
    pauses = 0
    first = (left, play)  # made before the heap is locked
    gc.collect()
    micropython.heap_lock()
    try:
        for pin in first:
            _press(board, pin, runtime, hardware)
            _release(board, pin, runtime, hardware)
        pauses += clock.state == 2  # engine.PAUSED
        _press(board, play, runtime, hardware)
        _release(board, play, runtime, hardware)
        sim_machine.latch(right, 0)  # right's move: the PIO stamps it; its handler waits
        _tick(board, hardware, runtime)
        sim_machine.drive(minus, 0)  # stored first (no pass yet), stamped later
        sim_machine.raise_irq(right)
        runtime.service(board.app, hardware)
    except MemoryError:
        micropython.heap_unlock()
        hardware.stop()
        return "MemoryError"
    micropython.heap_unlock()
    hardware.stop()
    return {"moves": clock.moves() - moves, "pauses": pauses, "mover": clock.mover}


def _sounding_ticks():
    """The last 10 s of a 10 s game, its flag and the flag's pattern, all under heap_lock.

    With ``warn_last10`` on, the tick starts ten warning beeps, then the flag
    pattern, and steps the buzzer through them; the running side's LED is lit.
    """
    board = SimBoard(fresh_flash("10"), bounce_ms=0)
    board.boot()
    from hal import runtime

    hardware = board.app.hardware
    board.app.settings.sound = True
    board.app.settings.warn_last10 = True
    right = board.board.INPUTS["lever_right"]
    _press(board, right, runtime, hardware)
    _release(board, right, runtime, hardware)
    pwm = sim_machine.pwm_of(board.board.BUZZER_PIN)
    led = sim_machine.Pin(board.board.LED_LEFT)
    started = hardware.buzzer.started
    ticks = 12_000 // board.board.TICK_MS  # past the flag at 10 s and its 2.3 s pattern
    sounding = 0
    lit = 1
    locked = True
    gc.collect()
    micropython.heap_lock()
    try:
        for _ in range(ticks):
            _tick(board, hardware, runtime)
            if pwm.duty:
                sounding += 1
            lit &= led.value()
    except MemoryError:
        locked = False
    micropython.heap_unlock()
    flagged = board.app.clock.sides[0].flagged
    hardware.stop()
    return {
        "ticks": ticks,
        "patterns": hardware.buzzer.started - started if flagged else 0,
        "sounding": sounding,
        "led": lit == 1,
        "locked": locked,
    }
