"""The simulated hardware: ``sim.machine`` pins, timers and I2C, the HT16K33 model, its decoder.

The end-to-end cases drive the real Adafruit ``Seg7x4`` driver through
``hal.i2c_bus.I2CBus`` into the chip model and read the display back, and
check that ``hal.displays.SegmentDisplay`` (on the library's ``HT16K33`` base
class) puts a frame in the chip's RAM exactly where ``Seg7x4`` puts it.
"""

import sys

import pytest

from hal.i2c_bus import I2CBus
from sim import ht16k33
from sim import machine as sim_machine

IRQ_BOTH = sim_machine.Pin.IRQ_FALLING | sim_machine.Pin.IRQ_RISING

# Segments a..g of the digits, worked out from the 7-segment layout.
SEG = {"0": 0x3F, "1": 0x06, "3": 0x4F, "4": 0x66, "5": 0x6D, "F": 0x71}
DOT = 0x80


@pytest.fixture(autouse=True)
def board(monkeypatch):
    monkeypatch.setitem(sys.modules, "machine", sim_machine)
    sim_machine.reset()
    yield sim_machine
    sim_machine.reset()


class Recorder:
    """A pin or timer handler that notes what it saw."""

    def __init__(self):
        self.calls = []

    def __call__(self, source):
        level = source.value() if isinstance(source, sim_machine.Pin) else None
        self.calls.append((source, level))


def ram_with(digits, colon=False):
    ram = bytearray(16)
    for address, pattern in zip(ht16k33.DIGIT_BYTES, digits, strict=True):
        ram[address] = pattern
    if colon:
        ram[ht16k33.COLON_BYTE] = ht16k33.COLON_BIT
    return ram


# --- pins ------------------------------------------------------------------


def test_pins_with_one_id_share_the_line():
    Pin = sim_machine.Pin
    first = Pin(5, Pin.IN, Pin.PULL_UP)
    second = Pin(5)
    other = Pin(6, Pin.IN, Pin.PULL_UP)
    sim_machine.drive(5, 0)
    assert first.value() == 0
    assert second.value() == 0
    assert second() == 0
    assert other.value() == 1


def test_pull_up_reads_high_and_pull_down_low_when_undriven():
    Pin = sim_machine.Pin
    assert Pin(1, Pin.IN, Pin.PULL_UP).value() == 1
    assert Pin(2, Pin.IN, Pin.PULL_DOWN).value() == 0
    sim_machine.drive(1, 0)
    sim_machine.drive(2, 1)
    assert Pin(1).value() == 0
    assert Pin(2).value() == 1
    sim_machine.drive(1, None)  # let go: back to the pull
    assert Pin(1).value() == 1


def test_output_pin_reads_its_latch():
    Pin = sim_machine.Pin
    led = Pin(25, Pin.OUT, value=0)
    led.on()
    assert led.value() == 1 and sim_machine.pin_level(25) == 1
    led.off()
    assert led() == 0
    led(1)
    assert led.value() == 1


@pytest.mark.parametrize(
    ("trigger", "expected_levels"),
    [
        (sim_machine.Pin.IRQ_FALLING, [0, 0]),
        (sim_machine.Pin.IRQ_RISING, [1, 1]),
        (IRQ_BOTH, [0, 1, 0, 1]),
    ],
)
def test_irq_fires_only_on_the_chosen_edges(trigger, expected_levels):
    Pin = sim_machine.Pin
    pin = Pin(14, Pin.IN, Pin.PULL_UP)
    handler = Recorder()
    pin.irq(handler=handler, trigger=trigger, hard=True)
    for level in (1, 0, 0, 1, 1, 0, 1):  # repeats of the same level are no edges
        sim_machine.drive(14, level)
    assert [level for _, level in handler.calls] == expected_levels


def test_handler_gets_the_irq_pin_and_already_reads_the_new_level():
    Pin = sim_machine.Pin
    pin = Pin(15, Pin.IN, Pin.PULL_UP)
    handler = Recorder()
    pin.irq(handler=handler, trigger=IRQ_BOTH)
    Pin(15)  # another object on the same line changes nothing
    sim_machine.drive(15, 0)
    assert handler.calls == [(pin, 0)]
    assert handler.calls[0][0] is pin


def test_irq_none_stops_the_handler():
    Pin = sim_machine.Pin
    pin = Pin(16, Pin.IN, Pin.PULL_UP)
    handler = Recorder()
    pin.irq(handler=handler, trigger=IRQ_BOTH)
    pin.irq(handler=None)
    sim_machine.drive(16, 0)
    assert handler.calls == []


def test_reset_forgets_pins_and_handlers():
    Pin = sim_machine.Pin
    pin = Pin(17, Pin.IN, Pin.PULL_UP)
    handler = Recorder()
    pin.irq(handler=handler)
    sim_machine.reset()
    assert Pin(17).value() == 0  # a fresh line: the pull-up is gone
    sim_machine.drive(17, 1)
    sim_machine.drive(17, 0)
    assert handler.calls == []


# --- timers ----------------------------------------------------------------


def test_timer_is_listed_while_active_and_fire_calls_back():
    Timer = sim_machine.Timer
    handler = Recorder()
    timer = Timer(-1)
    assert sim_machine.timers() == []
    timer.init(mode=Timer.PERIODIC, period=20, callback=handler)
    assert sim_machine.timers() == [timer]
    assert timer.period_ms == 20 and timer.next_due is None
    timer.fire()
    timer.fire()
    assert handler.calls == [(timer, None), (timer, None)]
    timer.deinit()
    assert sim_machine.timers() == []


def test_one_shot_timer_stops_after_firing_and_freq_sets_period():
    Timer = sim_machine.Timer
    handler = Recorder()
    timer = Timer(mode=Timer.ONE_SHOT, freq=50, callback=handler)
    assert timer.period_ms == 20
    timer.fire()
    assert len(handler.calls) == 1
    assert sim_machine.timers() == []
    timer.fire()  # a stopped timer does not fire
    assert len(handler.calls) == 1


def test_timer_without_period_is_refused():
    with pytest.raises(ValueError):
        sim_machine.Timer(-1).init(callback=Recorder())


# --- I2C -------------------------------------------------------------------


def test_missing_device_nacks_with_eio():
    i2c = sim_machine.I2C(0)
    with pytest.raises(OSError) as caught:
        i2c.writeto(0x70, b"\x21")
    assert caught.value.args[0] == 5 and caught.value.errno == 5
    assert i2c.scan() == []


def test_unplugged_chip_nacks_and_is_not_touched():
    chip = ht16k33.HT16K33()
    sim_machine.attach_i2c(0, 0x70, chip)
    i2c = sim_machine.I2C(0)
    i2c.writeto(0x70, bytes([0x00, 0x3F, 0, 0x06]))
    ram_before = bytes(chip.ram)
    writes_before = chip.writes
    chip.present = False
    with pytest.raises(OSError):
        i2c.writeto(0x70, bytes([0x00, 0xFF, 0xFF, 0xFF]))
    with pytest.raises(OSError):
        i2c.readfrom_into(0x70, bytearray(2))
    assert bytes(chip.ram) == ram_before
    assert chip.writes == writes_before
    assert i2c.scan() == []
    chip.present = True
    assert i2c.scan() == [0x70]


def test_devices_are_per_bus():
    sim_machine.attach_i2c(1, 0x70, ht16k33.HT16K33())
    with pytest.raises(OSError):
        sim_machine.I2C(0).writeto(0x70, b"\x21")
    assert sim_machine.I2C(1).writeto(0x70, b"\x21") == 1


def test_soft_i2c_reaches_the_soft_bus():
    sim_machine.attach_i2c(sim_machine.SOFT_I2C_BUS, 0x3C, ht16k33.HT16K33())
    Pin = sim_machine.Pin
    assert sim_machine.SoftI2C(scl=Pin(3), sda=Pin(2)).scan() == [0x3C]


def test_watchdog_pwm_adc_and_board_facts():
    now = [100]
    sim_machine.set_clock(lambda: now[0])
    watchdog = sim_machine.WDT(timeout=2000)
    watchdog.feed()
    now[0] = 250
    watchdog.feed()
    assert sim_machine.watchdog() is watchdog
    assert (watchdog.timeout_ms, watchdog.feeds, watchdog.last_feed_ms) == (2000, 2, 250)
    buzzer = sim_machine.PWM(sim_machine.Pin(13), freq=2000, duty_u16=32768)
    assert sim_machine.pwm_of(13) is buzzer
    assert (buzzer.freq(), buzzer.duty_u16(), buzzer.active) == (2000, 32768, True)
    buzzer.duty_u16(0)
    buzzer.deinit()
    assert (buzzer.duty_u16(), buzzer.active) == (0, False)
    with pytest.raises(ValueError):
        buzzer.duty_u16(70000)
    sim_machine.set_adc(26, 40000)
    assert sim_machine.ADC(sim_machine.Pin(26)).read_u16() == 40000
    assert sim_machine.ADC(27).read_u16() == 0
    assert sim_machine.reset_cause() == sim_machine.PWRON_RESET == 1
    assert sim_machine.freq() == 125_000_000
    assert sim_machine.unique_id() == b"SIMBOARD"
    assert sim_machine.disable_irq() == 0


# --- the HT16K33 model -----------------------------------------------------


def test_chip_commands():
    chip = ht16k33.HT16K33()
    assert (chip.oscillator_on, chip.display_on, chip.brightness) == (False, False, 15)
    chip.write(b"\x21")
    chip.write(bytes([0x80 | 0x01 | 2 << 1]))
    chip.write(bytes([0xE0 | 7]))
    assert chip.oscillator_on and chip.display_on
    assert chip.blink_rate == 2 and chip.brightness == 7
    chip.write(b"\x80")
    chip.write(b"\x20")
    assert not chip.display_on and not chip.oscillator_on and chip.blink_rate == 0
    assert chip.writes == 5
    assert chip.ram == bytearray(16)  # commands never reach the RAM


def test_chip_ram_write_auto_increments_and_wraps():
    chip = ht16k33.HT16K33()
    chip.write(bytes([0x0E, 0xA1, 0xA2, 0xA3, 0xA4]))  # starts at 14, wraps to 0
    assert chip.ram[14] == 0xA1 and chip.ram[15] == 0xA2
    assert chip.ram[0] == 0xA3 and chip.ram[1] == 0xA4
    assert chip.ram[2:14] == bytearray(12)
    chip.write(memoryview(bytes([0x00, 1, 2, 3]))[:3])  # a memoryview part of a buffer
    assert chip.ram[0:3] == bytearray([1, 2, 0])  # the sliced-off byte is not written


def test_chip_ram_reads_back_from_the_address_pointer():
    chip = ht16k33.HT16K33()
    sim_machine.attach_i2c(0, 0x70, chip)
    i2c = sim_machine.I2C(0)
    i2c.writeto(0x70, bytes([0x00]) + bytes(range(16)))
    assert i2c.readfrom_mem(0x70, 0x0E, 4) == bytes([14, 15, 0, 1])
    buffer = bytearray(2)
    I2CBus(i2c).writeto_then_readfrom(0x70, bytes([0x05, 0x99]), buffer, out_end=1)
    assert buffer == bytearray([5, 6])


# --- decoding --------------------------------------------------------------


def test_decode_by_hand():
    assert ht16k33.decode_seg7x4(bytearray(16)) == "    "
    assert ht16k33.decode_seg7x4(ram_with([0, SEG["4"] | DOT, SEG["5"], SEG["1"]])) == " 4.51"
    assert ht16k33.decode_seg7x4(ram_with([0, SEG["1"], SEG["3"], SEG["0"]], True)) == " 1:30"
    assert ht16k33.decode_seg7x4(ram_with([SEG["F"] | DOT, 0, 0, DOT])) == "F.   ."
    assert ht16k33.decode_seg7x4(ram_with([0x49, 0x01, 0x80, 0x00])) == "?? . "


def test_decode_ignores_other_ram_bytes():
    ram = bytearray([0xFF] * 16)
    for address in ht16k33.DIGIT_BYTES:
        ram[address] = SEG["0"]
    ram[ht16k33.COLON_BYTE] = 0xFF & ~ht16k33.COLON_BIT
    assert ht16k33.decode_seg7x4(ram) == "0000"


# --- end to end: the Adafruit driver on the simulated bus ------------------


@pytest.fixture
def display():
    from adafruit_ht16k33.segments import Seg7x4

    chip = ht16k33.HT16K33()
    sim_machine.attach_i2c(0, 0x70, chip)
    driver = Seg7x4(I2CBus(sim_machine.I2C(0)), address=0x70, auto_write=False)
    return driver, chip


def shown(driver, chip, text):
    driver.fill(0)
    driver.print(text)
    driver.show()
    return ht16k33.decode_seg7x4(chip.ram)


def test_driver_sets_the_chip_up(display):
    _, chip = display
    assert chip.oscillator_on and chip.display_on
    assert chip.blink_rate == 0 and chip.brightness == 15


def test_driver_text_reads_back(display):
    driver, chip = display
    assert shown(driver, chip, "4.51") == " 4.51"
    assert shown(driver, chip, "1:30") == " 1:30"
    assert shown(driver, chip, "12.34") == "12.34"
    assert shown(driver, chip, "Err") == " Err"
    assert shown(driver, chip, "PLAY") == "PLAy"
    assert shown(driver, chip, "good") == "Good"
    assert shown(driver, chip, "SOS") == " 5o5"  # S is drawn as 5


def test_driver_letters_read_back_as_themselves(display):
    driver, chip = display
    dashes = "kmwx"  # the driver has no shape for these and draws "-"
    for letter in "abcdefghijklmnopqrtuvwxy":
        text = shown(driver, chip, letter)
        expected = "-" if letter in dashes else letter
        assert text[:3] == "   " and text[3].lower() == expected, letter


def test_driver_raw_digits_and_colon(display):
    driver, chip = display
    driver.fill(0)
    for index, pattern in enumerate([SEG["1"], SEG["3"], SEG["0"], 0x49]):
        driver.set_digit_raw(index, pattern)
    driver.colon = True
    driver.show()
    assert ht16k33.decode_seg7x4(chip.ram) == "13:0?"
    driver.colon = False
    driver.set_digit_raw(3, 0)
    driver.show()
    assert ht16k33.decode_seg7x4(chip.ram) == "130 "


def beside_seg7x4(ours):
    """``SegmentDisplay`` on chip ``ours`` at 0x70, and ``show(frame)``: the frame shown
    there and the same digits and colon through the library's ``Seg7x4`` on a second
    chip at 0x71, whose RAM ours must equal."""
    from adafruit_ht16k33.ht16k33 import HT16K33
    from adafruit_ht16k33.segments import Seg7x4

    from hal.displays import SegmentDisplay

    theirs = ht16k33.HT16K33()
    sim_machine.attach_i2c(0, 0x70, ours)
    sim_machine.attach_i2c(0, 0x71, theirs)
    bus = I2CBus(sim_machine.I2C(0))
    display = SegmentDisplay(bus, 0x70, HT16K33)
    driver = Seg7x4(bus, address=0x71, auto_write=False)

    def show(frame):
        display.show_frame(bytearray(frame))
        for index in range(4):
            driver.set_digit_raw(index, frame[index])
        driver.colon = frame[4] != 0
        driver.show()
        assert ours.ram == theirs.ram, frame

    return display, show


def test_segment_display_writes_the_ram_seg7x4_writes():
    ours = ht16k33.HT16K33()
    display, show = beside_seg7x4(ours)
    assert ours.oscillator_on and ours.display_on and ours.brightness == 15
    frames = (
        (SEG["1"], SEG["3"] | DOT, SEG["0"], SEG["5"], 1),
        (0xFF, 0x00, 0x81, 0x7F, 0),
        (0, 0, 0, SEG["F"], 1),
        (0, 0, 0, 0, 0),
    )
    for frame in frames:
        show(frame)
    assert ht16k33.decode_seg7x4(ours.ram) == "    "
    display.show_frame(bytearray((SEG["1"], SEG["3"], SEG["0"], SEG["5"], 1)))
    assert ht16k33.decode_seg7x4(ours.ram) == "13:05"


def test_full_buffer_reaches_the_machine_bus_unsliced():
    seen = []

    class Spy:
        def writeto(self, address, buffer, stop=True):
            seen.append((address, buffer, stop))

        def readfrom_into(self, address, buffer, stop=True):
            buffer[0] = 0x42

    bus = I2CBus(Spy())
    frame = bytearray(17)
    bus.writeto(0x70, frame, start=0, end=len(frame))
    bus.writeto(0x70, frame)
    assert seen[0][1] is frame and seen[1][1] is frame
    bus.writeto(0x71, frame, start=1, end=3)
    assert isinstance(seen[2][1], memoryview) and len(seen[2][1]) == 2
    into = bytearray(4)
    bus.readfrom_into(0x70, into, start=2)
    assert into == bytearray([0, 0, 0x42, 0])
    assert bus.try_lock() and bus.locked
    bus.unlock()
    assert not bus.locked


class CountingChip(ht16k33.HT16K33):
    """The chip model, noting the length of every write it takes."""

    def __init__(self):
        self.lengths = []
        super().__init__()

    def write(self, buf):
        self.lengths.append(len(buf))
        super().write(buf)


def test_a_frame_with_one_change_sends_that_row_alone():
    # HT16K33 datasheet: a write's first byte sets the RAM address, the data that
    # follows fills RAM from there. A frame that changes one digit or the colon needs
    # that row alone; the chip holds the others. Its RAM must be Seg7x4's throughout.
    ours = CountingChip()
    display, show_beside = beside_seg7x4(ours)

    def show(frame):
        del ours.lengths[:]
        show_beside(frame)
        return ours.lengths

    assert show((SEG["1"], SEG["3"], SEG["0"], SEG["5"], 1)) == [17]  # first: all of it
    assert show((SEG["1"], SEG["3"], SEG["0"], SEG["5"], 0)) == [2]  # the colon's row
    assert show((SEG["1"], SEG["3"], SEG["0"], SEG["4"], 0)) == [2]  # the last digit's
    assert show((SEG["1"] | DOT, SEG["3"], SEG["0"], SEG["4"], 0)) == [2]  # the first's
    assert show((SEG["1"] | DOT, SEG["3"], SEG["0"], SEG["4"], 0)) == []  # the same: none
    assert show((SEG["1"], SEG["4"], SEG["0"], SEG["4"], 0)) == [17]  # two changes
    ours.present = False  # unplugged: the write fails, and the chip may lose its RAM
    display.show_frame(bytearray((SEG["1"], SEG["4"], SEG["0"], SEG["5"], 0)))
    assert not display.took_last()
    ours.present = True
    ours.power_on()
    lengths = show((SEG["1"], SEG["4"], SEG["0"], SEG["5"], 0))
    assert lengths[-1] == 17  # set up again, then the whole frame, not one row
