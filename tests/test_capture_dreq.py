"""The capture's DMA against both DREQ semantics, and its ring at its depth (hal/capture.py).

Whether the PIO's RX DREQ gives a channel one credit per push or requests as
long as the FIFO holds a word (a level, as rp2040js models it) is not settled
for the silicon here, so the capture must not depend on it. The simulated
chip (``sim.rp2``) serves the DREQ either way (``set_dreq``). The old design,
a channel paced by the DREQ that copied the timer and left the FIFO to the
CPU, gives one stamp per push under a credit and runs its whole count at the
first press under a level; the reader and copier pair gives exactly one
stamp per push, at its edge, under both.
"""

import sys

import pytest

from sim import machine as sim_machine
from sim import rp2 as sim_rp2
from sim import vclock

PINS = (14, 15, 16)  # lever_left, lever_right, play on the Pico


@pytest.fixture(autouse=True)
def chip():
    """The simulated chip's modules where the firmware imports them, a fresh chip and
    virtual time; the DREQ back to a credit after."""
    kept = {name: sys.modules.get(name) for name in ("machine", "rp2")}
    sys.modules["machine"] = sim_machine
    sys.modules["rp2"] = sim_rp2
    vclock.reset()
    vclock.install()
    sim_machine.reset()
    sim_rp2.reset()
    for pin in PINS:
        sim_machine.Pin(pin, sim_machine.Pin.IN, sim_machine.Pin.PULL_UP)
    yield
    sim_rp2.set_dreq("credit")
    sim_rp2.reset()
    for name, module in kept.items():
        if module is None:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = module


def _capture():
    from hal import capture_setup

    pins = [sim_machine.Pin(pin) for pin in PINS]
    return capture_setup.build(pins, (0, 1, 2), 25)


def _press_edges(pin, at_ms, hold_ms=40):
    """The edges of a press of ``pin`` at ``at_ms``, 3 ms of bounce, open ``hold_ms`` later."""
    edges = [(at_ms + step, pin, level) for step, level in enumerate((0, 1, 0))]
    return edges + [(at_ms + hold_ms, pin, 1)]


def _play(edges):
    """Move the contacts at their instants, in time order."""
    for at, pin, level in sorted(edges):
        vclock.set_now(at)
        sim_machine.drive(pin, level)


def _press(pin, at_ms):
    _play(_press_edges(pin, at_ms))


def _taken(capture, index):
    """Every unread stamp of input ``index``, as ticks."""
    capture.read_now()
    ticks = []
    while capture.unread(index) > 0:
        ticks.append(capture.take(index))
    return ticks


def _old_design_channel(machine_id, ring):
    """The capture before: one channel paced by the machine's RX DREQ copying TIMERAWL
    into the ring, the FIFO left to the CPU."""
    from hal.capture import TIMERAWL, TRANSFERS

    channel = sim_rp2.DMA()
    ctrl = channel.pack_ctrl(
        size=2,
        inc_read=False,
        inc_write=True,
        ring_size=4,
        ring_sel=True,
        treq_sel=4 + machine_id,
        irq_quiet=True,
    )
    channel.config(read=TIMERAWL, write=ring, count=TRANSFERS, ctrl=ctrl, trigger=True)
    return channel


@pytest.mark.parametrize("dreq, transfers", [("credit", 1), ("level", 0x3FFFFFFF)])
def test_the_old_design_refires_under_a_level_dreq(dreq, transfers):
    """One press: the timer-copying channel makes one transfer under a credit; under a
    level the word it never reads keeps the request up, and it runs its whole count."""
    from array import array

    from hal import lever_pio

    sim_rp2.set_dreq(dreq)
    pin = sim_machine.Pin(PINS[0])
    machine = sim_rp2.StateMachine(0, lever_pio.lever_program, freq=1000, in_base=pin, jmp_pin=pin)
    machine.put(lever_pio.quiet_count(25, 1000 * 1000) // 1000)
    channel = _old_design_channel(0, array("H", [0] * 8))
    machine.active(1)
    _press(PINS[0], 1_000)
    assert machine.pushes == 1
    assert channel.transfers == transfers


@pytest.mark.parametrize("dreq", ["credit", "level"])
def test_one_stamp_per_push_at_its_edge_under_either_dreq(dreq):
    """The levers and play pressed in turn, some together: every press one stamp, at its
    first closing edge, taken at each edge as the pin handler takes them; each reader
    one transfer per push, each copier one copy; the FIFOs empty (the reader took
    every word)."""
    sim_rp2.set_dreq(dreq)
    capture = _capture()
    taken = {0: [], 1: [], 2: []}
    presses = {0: [], 1: [], 2: []}
    edges = []
    at = 1_000
    for number in range(30):
        index = number % 3
        edges += _press_edges(PINS[index], at)
        presses[index].append(at)
        at += 70 if number % 4 else 5  # every fourth: the next input 5 ms after
    for edge in sorted(edges):
        _play([edge])
        for index in range(3):
            taken[index] += _taken(capture, index)
    for index in range(3):
        assert taken[index] == presses[index]
        assert capture.readers[index].transfers == len(presses[index])
        assert capture.copiers[index].transfers == len(presses[index])
        assert capture.machines[index].rx_fifo() == 0
    assert capture.faults == 0 and capture.ok
    counts = [len(presses[index]) for index in range(3)]
    assert capture.figures() == {
        "pushes": counts,
        "taken": counts,
        "channels": [(1, 0), (3, 2), (5, 4)],  # each copier claimed before its reader
        "faults": 0,
        "ok": True,
    }


@pytest.mark.parametrize("dreq", ["credit", "level"])
def test_the_ring_holds_exactly_its_depth_of_unread_stamps(dreq):
    """Four presses of one key before the CPU takes any (a long erase): all four, in
    order, no fault. A fifth overwrites the first: the four newest are taken, the fault
    is counted, and the capture goes on stamping the next press."""
    from hal.capture import RING_WORDS

    sim_rp2.set_dreq(dreq)
    capture = _capture()
    presses = [1_000 + 80 * number for number in range(RING_WORDS)]
    for at in presses:
        _press(PINS[2], at)
    assert capture.unread(2) == RING_WORDS
    assert _taken(capture, 2) == presses
    assert capture.faults == 0 and capture.ok
    presses = [5_000 + 80 * number for number in range(RING_WORDS + 1)]
    for at in presses:
        _press(PINS[2], at)
    assert _taken(capture, 2) == presses[1:]
    assert capture.faults == 1 and capture.ok
    _press(PINS[2], 6_000)
    assert _taken(capture, 2) == [6_000]


def test_a_push_that_comes_after_its_handler_is_not_a_second_press():
    """The PIO pushes about 3 us after the edge; a pin handler that runs before the push
    (or before the DMA's copy) finds no stamp and stamps the press by its pin
    (``capture_missed``). The stamp that follows, no later than that one, is the same
    press: taken, not stored again. The next press is the capture's own."""
    from hal.edges import QUIET_MS, EdgeRing

    capture = _capture()
    pins = [sim_machine.Pin(pin) for pin in PINS]
    inputs = EdgeRing(pins, [0, 0, 0], capture)
    inputs.enable(sim_machine.Pin)
    machine = capture.machines[0]
    sim_machine.watch(PINS[0], None)  # the state machine sees the edge after the handler
    vclock.set_now(1_000)
    sim_machine.drive(PINS[0], 0)
    assert inputs.capture_missed == 1
    sim_machine.watch(PINS[0], machine)
    machine.on_level(0)  # its push, and the DMA's stamp of it
    assert capture.unread(0) == 1
    _play([(1_001, PINS[0], 1), (1_002, PINS[0], 0), (1_060, PINS[0], 1)])  # bounce, release
    inputs.rearm(1_060 + QUIET_MS)
    _press(PINS[0], 1_200)
    found = []
    while inputs.pop() >= 0:
        found.append(inputs.popped_tick())
    assert found == [1_000, 1_200]
    assert capture.unread(0) == 0 and capture.faults == 0
