"""The levers' PIO capture (hal/lever_pio.py, hal/capture.py), checked off the chip.

The program is assembled by the simulator's ``rp2.asm_pio`` (MicroPython's
rules) and by adafruit_pioasm from the datasheet's own syntax: the opcodes
must agree. Then the opcodes themselves run in rp2040-pio-emulator, cycle by
cycle, against contacts that bounce: one push per press, at its first
closing edge; nothing while the contact is held or bouncing; the quiet wait
exactly as the instruction set's timing gives it. The simulator's state
machine (``sim.rp2``), which the simulated board runs, must push where the
emulator does. The DMA's pacing and the registers are checked against the
RP2040 datasheet, section by section, and the stamp's conversion to
``time.ticks_ms()`` against its definition across both wraps.
"""

import random
import sys
from collections import deque

import adafruit_pioasm
import pytest
from pioemu import State, emulate

from sim import machine as sim_machine
from sim import rp2 as sim_rp2
from sim import vclock

# The chip's modules, as the simulated board puts them (sim.world): its machine, its rp2.
sys.modules["machine"] = sim_machine
sys.modules["rp2"] = sim_rp2

from hal import capture, capture_setup, lever_pio  # noqa: E402

# The program in the datasheet's PIO assembly syntax (RP2040 datasheet 3.3, 3.4).
PROGRAM_TEXT = """
    pull block
    mov y, osr
.wrap_target
released:
    wait 1 pin 0
    mov x, y
quiet:
    jmp pin open
    jmp released
open:
    jmp x-- quiet
    wait 0 pin 0
    set x, 1
    mov isr, x
    push block
.wrap
"""


@pytest.fixture(autouse=True)
def chip_modules():
    """The simulated chip's modules where the firmware imports them (another test's
    board may have put its own or taken rp2 away)."""
    kept = {name: sys.modules.get(name) for name in ("machine", "rp2")}
    sys.modules["machine"] = sim_machine
    sys.modules["rp2"] = sim_rp2
    yield
    for name, module in kept.items():
        if module is None:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = module


QUIET = 20  # the count put in the TX FIFO for the emulated runs: 2 * 20 + 3 = 43 cycles


def test_the_opcodes_are_the_ones_a_pio_assembler_makes():
    """MicroPython's assembly rules (the simulator's asm_pio) and adafruit_pioasm give
    the same eleven words, the same wrap (back from ``push`` to ``released``)."""
    program = lever_pio.lever_program
    reference = adafruit_pioasm.Program(PROGRAM_TEXT)
    assert program.opcodes == list(reference.assembled)
    assert len(program.opcodes) == 11
    assert (program.wrap_target, program.wrap) == (
        reference.pio_kwargs["wrap_target"],
        reference.pio_kwargs["wrap"],
    )


def test_the_encodings_are_the_instruction_sets():
    """A few words decoded by hand from the datasheet's 3.4 tables: ``wait 1 pin 0`` is
    WAIT (001) polarity 1, source PIN (01), index 0; ``jmp x-- quiet`` is JMP (000),
    condition X-- (010), address 4; ``set x, 1`` is SET (111) destination X (001), data
    1; ``mov isr, x`` is MOV (101) destination ISR (110), no operation, source X (001);
    ``push block`` is PUSH (100) with Block (bit 5)."""
    opcodes = lever_pio.lever_program.opcodes
    assert opcodes[2] == 0b001_00000_1_01_00000
    assert opcodes[6] == 0b000_00000_010_00100
    assert opcodes[8] == 0b111_00000_001_00001
    assert opcodes[9] == 0b101_00000_110_00_001
    assert opcodes[10] == 0b100_00000_0_0_1_00000


def _emulated_pushes(edges, until, count=QUIET):
    """Run the program's opcodes in rp2040-pio-emulator, the lever on GPIO 0 (pull-up:
    1 open, 0 closed) moving at ``edges`` [(cycle, level)]; the cycles of its pushes."""
    program = lever_pio.lever_program

    def level(clock: int) -> int:
        value = 1
        for at, moved_to in edges:
            if clock >= at:
                value = moved_to
        return value

    pushes = []
    seen = 0
    words = []
    for _, after in emulate(
        program.opcodes,
        stop_when=lambda opcode, state: state.clock > until,
        initial_state=State(transmit_fifo=deque([count])),
        input_source=level,
        jmp_pin=0,
        wrap_target=program.wrap_target,
        wrap_top=program.wrap,
    ):
        if len(after.receive_fifo) > seen:
            seen = len(after.receive_fifo)
            pushes.append(after.clock - 1)  # the push ran in the cycle before
            words.append(after.receive_fifo[-1])
    assert words == [1] * len(pushes)  # the copier's count: one stamp a push (hal.capture)
    return pushes


def _bounce(at, level, count):
    """``count`` bounces from ``at``, one cycle apart, ending at ``level``."""
    edges = []
    for step in range(count):
        edges.append((at + step, level if step % 2 == 0 else 1 - level))
    edges.append((at + count, level))
    return edges


def test_one_push_per_press_at_its_first_closing_edge_through_bounce():
    """Open from the start (armed after 2 + 43 cycles), a press at cycle 100 bouncing 7
    cycles, released at 300 bouncing 7 cycles: one push, in the cycle after the first
    closing edge (``wait`` sees the pin; ``set`` and ``mov`` make the word; ``push``
    follows: PUSH_DELAY_US cycles after the edge)."""
    edges = _bounce(100, 0, 7) + _bounce(300, 1, 7)
    assert _emulated_pushes(edges, 600) == [100 + lever_pio.PUSH_DELAY_US]


def test_a_press_held_across_a_long_erase_is_one_push():
    """Held for 4,000 cycles, then released and pressed again: one push a press. (The
    held contact keeps the machine on ``wait 1``, the same cycle after cycle: a 400 ms
    erase at 1 MHz is 400,000 more of them; the CPU's part is in tests/test_chip_latency.)"""
    edges = [(100, 0), (4_100, 1), (4_200, 0)]
    assert _emulated_pushes(edges, 4_300) == [103, 4_203]


def test_a_second_press_inside_the_quiet_wait_is_ignored_and_just_after_is_pushed():
    """The quiet wait (3.4.2): ``wait 1`` finds the contact open in cycle r; ``mov`` runs
    in r + 1, then QUIET + 1 turns of ``jmp pin`` (which samples the pin) and ``jmp x--``
    (which jumps while X is not zero): the last sample in r + 2 * QUIET + 2, ``wait 0``
    in r + 2 * QUIET + 4. Released at 200: a close in 242 is sampled (back to wait for
    open: no press); a close in 243 is not, and ``wait 0`` finds it closed in 244: a
    push in 247 (after ``set`` and ``mov``); a close in 244 is seen by ``wait 0`` itself:
    a push in 247."""
    assert lever_pio.quiet_cycles(QUIET) == 43
    ignored = [(100, 0), (200, 1), (242, 0), (260, 1)]
    assert _emulated_pushes(ignored, 500) == [103]
    for close in (243, 244):
        assert _emulated_pushes([(100, 0), (200, 1), (close, 0), (260, 1)], 500) == [103, 247]
    assert _emulated_pushes([(100, 0), (200, 1), (250, 0)], 500) == [103, 253]
    # after the ignored close, a press once open and quiet again: 260 + 43
    assert _emulated_pushes(ignored + [(302, 0)], 500) == [103]
    assert _emulated_pushes(ignored + [(303, 0)], 500) == [103, 307]


def test_a_contact_closed_at_start_is_not_a_press():
    """Held when the state machine starts: it first waits for open and quiet."""
    assert _emulated_pushes([(0, 0), (50, 1), (200, 0)], 400) == [203]
    assert _emulated_pushes([(0, 0), (50, 1), (80, 0)], 400) == []


def test_the_quiet_count_gives_25_ms_at_1_mhz():
    """QUIET_MS (25) at the program's 1 MHz: 12,498 in Y, a close 24,999 us after the
    contact opened is the first that counts (within a microsecond of 25 ms)."""
    assert lever_pio.FREQ_HZ == 1_000_000
    count = lever_pio.quiet_count(25)
    assert count == 12_498
    assert lever_pio.quiet_cycles(count) == 24_999
    assert 48_000_000 % lever_pio.FREQ_HZ == 0  # an integer divider at the boards' CPU clock
    with pytest.raises(ValueError):
        lever_pio.quiet_count(0)


# --- the simulator's state machine against the emulator --------------------


def _model_pushes(edges, until):
    """The same edges (1 cycle = 1 ms of virtual time) on ``sim.rp2.StateMachine``."""
    vclock.reset()
    sim_machine.reset()
    sim_rp2.reset()
    pin = sim_machine.Pin(0, sim_machine.Pin.IN)
    sim_machine.drive(0, 1)
    state_machine = sim_rp2.StateMachine(
        0, lever_pio.lever_program, freq=1000, in_base=pin, jmp_pin=pin
    )
    state_machine.put(QUIET)
    state_machine.active(1)
    pushes = []
    for at, level in sorted(edges):
        if at > until:
            break
        vclock.set_now(at)
        before = state_machine.pushes
        sim_machine.drive(0, level)
        if state_machine.pushes > before:
            pushes.append(at)
        while state_machine.rx_fifo():
            state_machine.get()
    sim_rp2.reset()
    return pushes


@pytest.mark.parametrize("seed", range(6))
def test_the_simulated_state_machine_pushes_where_the_emulator_does(seed):
    """Random presses with bounce, some inside the quiet wait: the model pushes at the
    edges the emulator pushes for, the emulator 3 cycles later (PUSH_DELAY_US)."""
    rng = random.Random(seed)
    edges = []
    now = 60
    for _ in range(4):
        # the press inside the quiet wait after the last release (43 cycles) or well after
        # it: near its end the emulator's ``jmp pin``, which samples every other cycle,
        # may miss a one-cycle bounce the model counts (the exact limit: tested above)
        now += rng.choice((rng.randint(5, 35), rng.randint(60, 90)))
        edges += _bounce(now, 0, rng.choice((0, 2, 4)))
        now += rng.randint(10, 80)  # held
        edges += _bounce(now, 1, rng.choice((0, 2, 4)))
    emulated = _emulated_pushes(edges, now + 100)
    modelled = _model_pushes(edges, now + 100)
    assert [push - lever_pio.PUSH_DELAY_US for push in emulated] == modelled


# --- the DMA and the registers, against the datasheet ------------------------


def test_the_register_addresses_and_requests_are_the_datasheets():
    """RP2040 datasheet: 2.2 Address Map, TIMER_BASE 0x40054000; 4.6.5 List of Registers,
    TIMERAWH offset 0x24 and TIMERAWL 0x28 (raw, no latch); 2.5.3.1 System DREQ Table,
    DREQ_PIO0_RX0 = 4 (RX1..RX3 = 5..7); 3.2: each RX FIFO holds 4 words."""
    timer_base = 0x40054000
    assert capture.TIMERAWL == timer_base + 0x28
    assert capture._TIMERAWH == timer_base + 0x24
    assert capture._TIMERAWH_HI == timer_base + 0x24 + 2
    assert capture._TIMERAWL_HI == timer_base + 0x28 + 2
    assert capture_setup._DREQ_PIO0_RX0 == 4
    assert capture.RING_WORDS == 4


def test_the_fifo_and_trigger_addresses_are_the_datasheets():
    """2.2 Address Map: PIO0_BASE 0x50200000, DMA_BASE 0x50000000; 3.7 List of Registers
    (PIO): RXF0 at 0x020, RXF1..RXF3 4 bytes on each; 2.5.7 List of Registers (DMA):
    channel n's registers at n * 0x40, CH0_AL1_TRANS_COUNT_TRIG at 0x01c; 2.5.3.1:
    TREQ_SEL 0x3f is the permanent request."""
    assert capture_setup.PIO0_RXF0 == 0x50200000 + 0x020
    assert capture_setup.DMA_BASE == 0x50000000
    assert capture_setup._TREQ_PERMANENT == 0x3F
    sim_rp2.reset()
    channels = [sim_rp2.DMA() for _ in range(6)]
    assert capture_setup.trigger_address(channels[5]) == 0x50000000 + 5 * 0x40 + 0x01C
    sim_rp2.reset()


def _ctrl(enable, size, inc_read, inc_write, ring_size, ring_sel, chain_to, treq, quiet):
    """2.5.7 CH0_CTRL_TRIG's fields at their bits: EN (0), HIGH_PRIORITY (1) 0, DATA_SIZE
    (3:2), INCR_READ (4), INCR_WRITE (5), RING_SIZE (9:6), RING_SEL (10), CHAIN_TO
    (14:11), TREQ_SEL (20:15), IRQ_QUIET (21), BSWAP (22) and SNIFF_EN (23) 0."""
    return (
        enable << 0
        | size << 2
        | inc_read << 4
        | inc_write << 5
        | ring_size << 6
        | ring_sel << 10
        | chain_to << 11
        | treq << 15
        | quiet << 21
    )


@pytest.mark.parametrize("machine_id", [0, 1, 2])
def test_the_dma_control_words_are_the_datasheets(machine_id):
    """The reader: enabled, a word (DATA_SIZE 2), neither address incremented (the FIFO,
    the copier's trigger), chained to itself (no chain), paced by DREQ_PIO0_RX0 + the
    state machine, quiet. The copier: a word, the timer read again and again, the write
    address incremented and wrapping at 16 bytes (RING_SIZE 4, RING_SEL 1 on writes),
    chained to itself, unpaced (TREQ_SEL 0x3f), quiet."""
    sim_rp2.reset()
    sim_rp2.DMA()
    copier = sim_rp2.DMA()  # channel 1: CHAIN_TO must name it, not 0
    reader = sim_rp2.DMA()
    assert capture_setup.reader_ctrl(reader, machine_id) == _ctrl(
        1, 2, 0, 0, 0, 0, 2, 4 + machine_id, 1
    )
    assert capture_setup.copier_ctrl(copier) == _ctrl(1, 2, 0, 1, 4, 1, 1, 0x3F, 1)
    sim_rp2.reset()


def test_a_state_machine_of_pio1_or_the_probes_or_a_missing_one_is_refused():
    with pytest.raises(ValueError):
        capture_setup.build([sim_machine.Pin(14)], (4,), 25)
    with pytest.raises(ValueError):
        capture_setup.build([sim_machine.Pin(14)], (3,), 25)
    with pytest.raises(ValueError):
        capture_setup.build([sim_machine.Pin(14), sim_machine.Pin(15)], (0,), 25)


# --- the stamp's millisecond ---------------------------------------------------


def _halves(value):
    return (value >> 16) & 0xFFFF, value & 0xFFFF


def _converted(stamp_us, now_us):
    """``capture.stamp_ms`` of a stamp taken at ``stamp_us`` (64-bit), read at ``now_us``."""
    stamp_hi, stamp_lo = _halves(stamp_us & 0xFFFFFFFF)
    high_hi, high_lo = _halves(now_us >> 32)
    low_hi, low_lo = _halves(now_us & 0xFFFFFFFF)
    return capture.stamp_ms(stamp_hi, stamp_lo, (high_hi, high_lo, low_hi, low_lo))


def _ticks_ms(time_us):
    """ports/rp2/mphalport.h: ticks_ms is the 64-bit count divided by 1000, modulo 2**30."""
    return (time_us // 1000) % (1 << 30)


@pytest.mark.parametrize(
    "stamp_us",
    [
        0,
        999,
        1000,
        (1 << 32) - 1,  # the last microsecond before TIMERAWL wraps
        1 << 32,
        (1 << 32) + 3,
        1000 * (1 << 30) - 1,  # the last microsecond before ticks_ms wraps
        1000 * (1 << 30),
        7 * (1 << 32) + 123_456,
        (1 << 48) + 999,
    ],
)
@pytest.mark.parametrize("age_us", [0, 1, 400_000, (1 << 32) - 1])
def test_the_stamp_is_the_ticks_ms_of_its_instant_across_both_wraps(stamp_us, age_us):
    assert _converted(stamp_us, stamp_us + age_us) == _ticks_ms(stamp_us)


def test_a_stamp_older_than_the_timers_low_word_is_misread():
    """The limit: a stamp 2**32 us (71.6 minutes) old reads as one just taken."""
    stamp_us = 5 * (1 << 32) + 1234
    assert _converted(stamp_us, stamp_us + (1 << 32) - 1) == _ticks_ms(stamp_us)
    assert _converted(stamp_us, stamp_us + (1 << 32)) != _ticks_ms(stamp_us)


def test_random_stamps_convert_exactly():
    rng = random.Random(33)
    for _ in range(2000):
        stamp_us = rng.randrange(1 << 52)
        now_us = stamp_us + rng.randrange(1 << 32)
        assert _converted(stamp_us, now_us) == _ticks_ms(stamp_us)


# --- the erase check of make selftest LATENCY=1 --------------------------------


def test_the_probe_closes_its_pin_delay_plus_three_cycles_after_the_put():
    """hal/erase_check.py's probe program in the emulator, its delay (25) in the TX FIFO
    from the start: ``set pins`` in cycle 0, ``pull`` takes the delay in cycle 1, ``mov``
    in 2, 26 turns of ``jmp x--``, ``set pindirs`` in cycle 1 + 25 + 3 = 29."""
    from hal import erase_check

    program = erase_check.probe_program
    assert program.opcodes == list(
        adafruit_pioasm.Program(
            "set pins, 0\npull block\nmov x, osr\nwait:\njmp x-- wait\nset pindirs, 1\n"
            "hold:\njmp hold\n"
        ).assembled
    )
    for _, after in emulate(
        program.opcodes,
        stop_when=lambda opcode, state: state.clock > 100,
        initial_state=State(transmit_fifo=deque([25])),
    ):
        if after.pin_directions & 1:
            assert after.clock - 1 == 1 + 25 + 3
            return
    raise AssertionError("the probe never drove its pin")


def test_a_lever_closed_inside_an_erase_is_stamped_at_the_close():
    """The erase check on the simulated pico (typical figures: a 45 ms erase): the probe,
    put 10,000 us and 3 cycles before its close, closes the left lever 10 ms into the
    erase; the capture stamps it while the CPU is held. The simulator moves in whole
    milliseconds: the close comes at the first one after its instant, 11 ms after the
    put, so the stamp reads 1,000 - 3 = 997 us after the instant the probe was set to."""
    from hal import erase_check
    from sim.runner import Game
    from sim.script import parse

    game = Game(parse("control 300\n"), board_name="pico", latency="typical")
    try:
        board = game.board
        game.run_to(2_000)
        model = board.latency

        class Device:
            def ioctl(self, operation, block):
                assert operation == 6
                model.begin_pass(vclock.now_ms())
                model.erase_block()

        lever_pin = sim_machine.Pin(board.board.INPUTS["lever_left"])

        def wait(ms):
            board.run_due(vclock.now_ms() + ms)

        figures = erase_check.run(board.app.hardware.inputs, 0, lever_pin, Device(), 0, wait)
    finally:
        game.close()
    assert figures["error_us"] == 997  # not the erase's end, 35 ms later
    assert figures["faults"] == 0
    line, passed = erase_check.report(figures, "pico")
    assert "stamped 997 us late" in line and not passed  # the board's bound is 50 us


def test_the_selftest_reads_the_erase_checks_verdict():
    """tools/selftest.py passes the erase check's line at its bound and fails it just past
    it, and when the stamp is missing; a board without the line (the ESP32) passes."""
    from hal import erase_check
    from tools import selftest

    assert selftest.ERASE_BOUND_US == erase_check.BOUND_US
    at_bound = {"erase_ms": 45, "error_us": erase_check.BOUND_US, "faults": 0}
    past = {"erase_ms": 45, "error_us": erase_check.BOUND_US + 1, "faults": 0}
    missing = {"erase_ms": 45, "error_us": None, "faults": 0}
    faulty = {"erase_ms": 45, "error_us": 3, "faults": 1}
    for figures, verdict in ((at_bound, True), (past, False), (missing, False), (faulty, False)):
        line, passed = erase_check.report(figures, "pico")
        assert passed is verdict
        assert selftest.erase_verdict("noise\n" + line + "\r\n") == (line, verdict)
    assert selftest.erase_verdict("latency check on esp32: ...") == (None, True)


# --- the boards' capture data ---------------------------------------------------


def test_the_boards_capture_data_is_checked():
    """hal/board_check.py: the RP2040 boards name three distinct PIO0 state machines (the
    levers and play); an ESP32 has no PIO; the probe's machine (3), a machine of PIO1
    (4), one given twice, a wrong count (the levers alone), contacts that close to 3.3 V
    are refused; None (the pin handler alone) is fine."""
    from tests.test_boards import assert_caught, broken, problems_of

    for name in ("pico", "pico_w", "pico_big"):
        assert problems_of(broken(name)) == []
        assert broken(name).CAPTURE_MACHINES == (0, 1, 2)
    assert problems_of(broken("pico", CAPTURE_MACHINES=(2, 1, 0))) == []
    assert problems_of(broken("pico", CAPTURE_MACHINES=None)) == []
    assert_caught(broken("esp32", CAPTURE_MACHINES=(0, 1, 2)), "no PIO")
    assert_caught(broken("pico", CAPTURE_MACHINES=(0, 1, 3)), "3", "0 to 2")
    assert_caught(broken("pico", CAPTURE_MACHINES=(0, 1, 4)), "4", "0 to 2")
    assert_caught(broken("pico", CAPTURE_MACHINES=(1, 1, 2)), "twice")
    assert_caught(broken("pico", CAPTURE_MACHINES=(0, 1)), "lever_left, lever_right, play")
    assert_caught(
        broken("pico", ACTIVE_LOW=False, INPUT_PULL="down", CAPTURE_MACHINES=(0, 1, 2)),
        "ACTIVE_LOW",
    )
