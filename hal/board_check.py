"""What each chip's pins can do, and ``check(board)``: a board definition against it.

The tables hold the facts a pin map must respect: which GPIOs a board can
wire, which are input only or have no internal pulls, which are taken by the
module or board itself, which are read at reset (strapping), which reach the
ADC, and which pins can carry I2C. Every output-capable GPIO of both chips
can drive PWM (the buzzer), so the output checks cover it. The inputs' pull
and polarity, the LEDs' polarity, the watchdog's timeout and the battery's
millivolts and the CPU clock are checked too. ``check`` returns the problems as
sentences (an empty list when the board is sound); it runs on the host (the
tests, ``make deploy`` and ``make selftest``, as ``python -m hal.board_check pico``) and
on a board alike. It sits in the hardware layer, not in ``boards/``, which holds
the definitions as data only.
"""

import boards
from firmware.input_codes import NAMES as INPUT_NAMES
from hal.watchdog import MIN_MS as WATCHDOG_MIN_MS
from hal.watchdog import RP2040_MAX_MS as WATCHDOG_MAX_MS

LEVER_NAMES = INPUT_NAMES[:2]  # firmware.input_codes: the levers come first
CAPTURED_NAMES = INPUT_NAMES[:3]  # then play: the inputs that start or stop a clock

# HT16K33: 0x70 plus the three address jumpers A0-A2.
HT16K33_ADDRESSES = range(0x70, 0x78)
# The backpacks the hardware layer drives: 0.56" (a point after each digit) and
# 1.2" (no points; other lamps in RAM row 2, hal/displays.py).
DISPLAY_KINDS = ("0.56in", "1.2in")
# The inputs' pull: the chip's internal pull-up, pull-down, or none (resistors on the board).
PULLS = ("up", "down", "none")


class Chip:
    """The pin facts of one chip (on the module or board the clock uses)."""

    def __init__(
        self,
        name,
        gpio,
        input_only,
        no_pull,
        reserved,
        strapping,
        adc,
        i2c_ids,
        i2c_pairs=None,
        fixed_dividers=None,
        radio=False,
        cpu_freqs=(),
    ):
        self.name = name
        self.gpio = gpio  # pins a board can wire at all
        self.input_only = input_only  # no output driver
        self.no_pull = no_pull  # no internal pull-up or pull-down
        self.reserved = reserved  # pin: what the module or board uses it for
        self.strapping = strapping  # pin: what its level at reset selects
        self.adc = adc  # pins machine.ADC can read (with the radio on)
        self.i2c_ids = i2c_ids  # hardware I2C buses
        # bus id: ((sda, scl), ...); None where any output-capable pin can carry I2C.
        self.i2c_pairs = i2c_pairs
        # ADC pins behind a divider on the board itself: pin: (numerator, denominator).
        self.fixed_dividers = fixed_dividers or {}
        self.radio = radio  # Wi-Fi on the module: a board may set NETWORK
        # CPU clocks machine.freq() sets on this chip with the peripherals working.
        self.cpu_freqs = cpu_freqs


# Raspberry Pi Pico / Pico W. GP23-25 and GP29 are wired on the board, not to
# the header; GP29 reaches the ADC (ADC3) through the board's VSYS/3 divider.
RP2040 = Chip(
    "rp2040",
    gpio=tuple(range(0, 23)) + (26, 27, 28),
    input_only=(),
    no_pull=(),
    reserved={
        23: "the power supply's mode control (Pico W: wireless power)",
        24: "VBUS sense (Pico W: wireless data)",
        25: "the on-board LED (Pico W: wireless chip select)",
        29: "VSYS/3 on ADC3 (Pico W: also the wireless SPI clock)",
    },
    strapping={},
    adc=(26, 27, 28, 29),
    i2c_ids=(0, 1),
    i2c_pairs={
        0: ((0, 1), (4, 5), (8, 9), (12, 13), (16, 17), (20, 21)),
        1: ((2, 3), (6, 7), (10, 11), (14, 15), (18, 19), (26, 27)),
    },
    fixed_dividers={29: (1, 3)},
    # The system PLL reaches these exactly; USB keeps its own 48 MHz PLL.
    cpu_freqs=(48_000_000, 64_000_000, 96_000_000, 120_000_000, 125_000_000, 133_000_000),
)

# ESP32-WROOM-32 (ESP32-DevKitC). GPIO20, 24 and 28-31 do not exist; GPIO37
# and 38 are not brought out of the module. GPIO1 and 3 are UART0, the USB
# serial port that carries the REPL and mpremote. Only ADC1 (GPIO32-39) is
# listed: ADC2 cannot be read while Wi-Fi is on.
ESP32 = Chip(
    "esp32",
    gpio=tuple(range(0, 20)) + (21, 22, 23, 25, 26, 27, 32, 33, 34, 35, 36, 39),
    input_only=(34, 35, 36, 37, 38, 39),
    no_pull=(34, 35, 36, 37, 38, 39),
    reserved={
        1: "UART0 TX, the USB serial port (REPL, mpremote)",
        3: "UART0 RX, the USB serial port (REPL, mpremote)",
        6: "the SPI flash (CLK)",
        7: "the SPI flash (SD0)",
        8: "the SPI flash (SD1)",
        9: "the SPI flash (SD2)",
        10: "the SPI flash (SD3)",
        11: "the SPI flash (CMD)",
    },
    strapping={
        0: "the boot mode (low: serial download)",
        2: "the boot mode (must be low or open for serial download)",
        5: "the SDIO slave timing",
        12: "the flash voltage (high: 1.8 V, which the module's 3.3 V flash cannot run on)",
        15: "the boot messages on UART0 and the SDIO slave timing",
    },
    adc=(32, 33, 34, 35, 36, 39),  # ADC1 on the pins the module brings out
    i2c_ids=(0, 1),
    i2c_pairs=None,
    radio=True,
    cpu_freqs=(80_000_000, 160_000_000, 240_000_000),  # what MicroPython's esp32 port takes
)

# Raspberry Pi Pico W: the RP2040 with the CYW43439 radio. GP23-25 and GP29 run the
# radio (power, data, chip select, SPI clock), so GP29's VSYS/3 cannot be read while
# the radio works: a Pico W measures the cell through its own divider on an ADC pin
# of the header (GP26-28).
RP2040_W = Chip(
    "rp2040w",
    gpio=RP2040.gpio,
    input_only=(),
    no_pull=(),
    reserved={
        23: "the wireless chip's power",
        24: "the wireless chip's data line",
        25: "the wireless chip's chip select",
        29: "the wireless chip's SPI clock (and VSYS/3, unreadable with the radio on)",
    },
    strapping={},
    adc=(26, 27, 28),
    i2c_ids=(0, 1),
    i2c_pairs=RP2040.i2c_pairs,
    radio=True,
    cpu_freqs=RP2040.cpu_freqs,
)

CHIPS = {"rp2040": RP2040, "rp2040w": RP2040_W, "esp32": ESP32}

# How a board uses a pin: inputs are read with the internal pulls on (the
# levers and keys), outputs drive (I2C, buzzer, LEDs), "adc" is measured.
_IN = "input"
_OUT = "output"
_ADC = "adc"


def _is_whole(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _roles(board, problems):
    """The board's pins as (role, use, pin), reporting the names it lacks."""
    roles = []
    inputs = getattr(board, "INPUTS", None)
    if not isinstance(inputs, dict):
        problems.append("INPUTS is missing or not a dict of name: GPIO")
        inputs = {}
    for name in INPUT_NAMES:
        if name not in inputs:
            problems.append("INPUTS has no %r" % name)
        else:
            roles.append((name, _IN, inputs[name]))
    for name in inputs:
        if name not in INPUT_NAMES:
            problems.append("INPUTS names %r, which the firmware does not know" % (name,))
    for attribute, use, optional in (
        ("I2C_SDA", _OUT, False),
        ("I2C_SCL", _OUT, False),
        ("BUZZER_PIN", _OUT, False),
        ("LED_LEFT", _OUT, True),
        ("LED_RIGHT", _OUT, True),
        ("BATTERY_ADC_PIN", _ADC, True),
    ):
        if not hasattr(board, attribute):
            problems.append("%s is missing" % attribute)
            continue
        pin = getattr(board, attribute)
        if pin is None and optional:
            continue
        roles.append((attribute, use, pin))
    _probe_roles(board, problems, roles)
    return roles


def _probe_roles(board, problems, roles):
    """The latency check's probe outputs (``LATENCY_PROBE_PINS``, optional): one spare
    output a lever, jumpered to it (hal/latency_check.py)."""
    probes = getattr(board, "LATENCY_PROBE_PINS", None)
    if probes is None:
        return
    if not isinstance(probes, dict):
        problems.append("LATENCY_PROBE_PINS is not a dict of lever name: GPIO")
        return
    for name in probes:
        if name not in LEVER_NAMES:
            problems.append("LATENCY_PROBE_PINS names %r, not a lever" % (name,))
        else:
            roles.append(("LATENCY_PROBE_PINS[%s]" % name, _OUT, probes[name]))


def _check_pin(chip, role, use, pin, problems, pull="up"):
    if not _is_whole(pin):
        problems.append("%s is %r, not a GPIO number" % (role, pin))
        return
    where = "%s on GPIO%d" % (role, pin)
    if use == _ADC:
        if pin not in chip.adc:
            pins = ", ".join("GPIO%d" % adc_pin for adc_pin in chip.adc)
            problems.append(
                "%s: not an ADC pin of the %s (those are %s)" % (where, chip.name, pins)
            )
        return
    if pin in chip.reserved:
        problems.append("%s: taken by %s" % (where, chip.reserved[pin]))
        return
    if pin not in chip.gpio:
        problems.append("%s: not a usable GPIO of the %s" % (where, chip.name))
        return
    if use == _OUT and pin in chip.input_only:
        problems.append("%s: input only, it cannot drive an output" % where)
    if use == _IN and pin in chip.no_pull and pull != "none":
        problems.append("%s: no internal pull-up or pull-down there" % where)
    if pin in chip.strapping:
        problems.append(
            "%s: a strapping pin, its level at reset sets %s" % (where, chip.strapping[pin])
        )


def _check_i2c(chip, board, problems):
    bus = getattr(board, "I2C_ID", None)
    if bus not in chip.i2c_ids:
        problems.append("I2C_ID %r: the %s has I2C buses %r" % (bus, chip.name, chip.i2c_ids))
        return
    if chip.i2c_pairs is None:
        return
    pair = (getattr(board, "I2C_SDA", None), getattr(board, "I2C_SCL", None))
    if pair not in chip.i2c_pairs[bus]:
        problems.append(
            "I2C%d cannot use SDA %r / SCL %r; its (SDA, SCL) pairs are %r"
            % (bus, pair[0], pair[1], chip.i2c_pairs[bus])
        )


def _check_battery(chip, board, problems):
    pin = getattr(board, "BATTERY_ADC_PIN", None)
    if pin is None:
        return
    divider = getattr(board, "BATTERY_DIVIDER", None)
    if not (
        isinstance(divider, tuple)
        and len(divider) == 2
        and _is_whole(divider[0])
        and _is_whole(divider[1])
        and 0 < divider[0] <= divider[1]
    ):
        problems.append(
            "BATTERY_DIVIDER %r is not (numerator, denominator) with 0 < numerator <= denominator"
            % (divider,)
        )
        return
    fixed = chip.fixed_dividers.get(pin)
    if fixed is not None and divider != fixed:
        problems.append(
            "BATTERY_DIVIDER %r: GPIO%d sits behind the board's own divider %r"
            % (divider, pin, fixed)
        )


def _check_polarity(board, problems):
    """Inputs: a pull that holds the contact's open level; LEDs: a polarity."""
    active_low = getattr(board, "ACTIVE_LOW", None)
    if not isinstance(active_low, bool):
        problems.append("ACTIVE_LOW %r is not True or False" % (active_low,))
    pull = boards.input_pull(board)
    if pull not in PULLS:
        problems.append("INPUT_PULL %r is not one of %s" % (pull, ", ".join(PULLS)))
    elif (pull == "up" and active_low is False) or (pull == "down" and active_low is True):
        problems.append(
            "INPUT_PULL %r with ACTIVE_LOW %r: a pressed contact would read like an open one"
            % (pull, active_low)
        )
    if not isinstance(getattr(board, "LED_ACTIVE_HIGH", None), bool):
        problems.append("LED_ACTIVE_HIGH is missing or not True or False")


def _check_figures(board, problems, chip):
    """The CPU clock, the watchdog's timeout and the battery's millivolts."""
    kind = getattr(board, "DISPLAY_KIND", "0.56in")
    if kind not in DISPLAY_KINDS:
        problems.append("DISPLAY_KIND %r is not one of %s" % (kind, ", ".join(DISPLAY_KINDS)))
    cells = getattr(board, "BATTERY_CELLS", 1)
    if not _is_whole(cells) or not 1 <= cells <= 4:
        problems.append("BATTERY_CELLS %r is not 1 to 4 cells in parallel" % (cells,))
    hertz = getattr(board, "CPU_FREQ_HZ", None)
    if hertz is not None and hertz not in chip.cpu_freqs:
        problems.append(
            "CPU_FREQ_HZ %r: the %s runs at %s"
            % (hertz, chip.name, ", ".join("%d" % value for value in chip.cpu_freqs))
        )
    watchdog = getattr(board, "WATCHDOG_MS", None)
    if not _is_whole(watchdog) or not WATCHDOG_MIN_MS <= watchdog <= WATCHDOG_MAX_MS:
        problems.append(
            "WATCHDOG_MS %r: the watchdog takes %d..%d ms (the RP2040's counts at most %d; "
            "a step feeds it once a second at least, so twice that at least)"
            % (watchdog, WATCHDOG_MIN_MS, WATCHDOG_MAX_MS, WATCHDOG_MAX_MS)
        )
    if getattr(board, "BATTERY_ADC_PIN", None) is None:
        return
    names = [("BATTERY_LOW_MV", 1800, 12000)]
    if hasattr(board, "BATTERY_LOW_HALL_MV"):
        names.append(("BATTERY_LOW_HALL_MV", 1800, 12000))
    for name, lowest, highest in names + [
        ("BATTERY_ADC_FULL_SCALE_MV", 1000, 3600),
    ]:
        value = getattr(board, name, None)
        if not _is_whole(value) or not lowest <= value <= highest:
            problems.append(
                "%s %r is not whole millivolts in %d..%d" % (name, value, lowest, highest)
            )


def _address(value):
    return "0x%02x" % value if _is_whole(value) else repr(value)


def _check_displays(board, problems):
    left = getattr(board, "DISPLAY_LEFT", None)
    right = getattr(board, "DISPLAY_RIGHT", None)
    for name, address in (("DISPLAY_LEFT", left), ("DISPLAY_RIGHT", right)):
        if not _is_whole(address) or address not in HT16K33_ADDRESSES:
            problems.append(
                "%s %s: an HT16K33 answers at 0x70-0x77 only" % (name, _address(address))
            )
    if left == right:
        problems.append("DISPLAY_LEFT and DISPLAY_RIGHT are both %s" % _address(left))


def check(board):
    """The problems of ``board``'s definition as sentences; [] if there are none."""
    problems = []
    chip = CHIPS.get(getattr(board, "CHIP", None))
    if chip is None:
        problems.append(
            "CHIP %r is not one of %s" % (getattr(board, "CHIP", None), ", ".join(sorted(CHIPS)))
        )
        return problems
    roles = _roles(board, problems)
    pull = boards.input_pull(board)
    used = {}
    for role, use, pin in roles:
        _check_pin(chip, role, use, pin, problems, pull)
        if _is_whole(pin):
            if pin in used:
                problems.append("GPIO%d is used twice: %s and %s" % (pin, used[pin], role))
            else:
                used[pin] = role
    _check_i2c(chip, board, problems)
    _check_battery(chip, board, problems)
    _check_displays(board, problems)
    _check_polarity(board, problems)
    _check_figures(board, problems, chip)
    _check_network(chip, board, problems)
    _check_capture(chip, board, problems)
    return problems


def _check_capture(chip, board, problems):
    """CAPTURE_MACHINES (hal/capture.py): None, or one PIO0 state machine (0-2: the
    fourth is the erase check's probe) for each input that starts or stops a clock (the
    levers and play), distinct, on an RP2040, for contacts that close to ground."""
    machines = getattr(board, "CAPTURE_MACHINES", None)
    if machines is None:
        return
    where = "CAPTURE_MACHINES %r" % (machines,)
    if not chip.name.startswith("rp2040"):
        problems.append("%s: the %s has no PIO" % (where, chip.name))
        return
    if not isinstance(machines, tuple) or len(machines) != len(CAPTURED_NAMES):
        problems.append(
            "%s: not a tuple of one state machine for each of %s"
            % (where, ", ".join(CAPTURED_NAMES))
        )
        return
    for machine in machines:
        if not _is_whole(machine) or not 0 <= machine <= 2:
            problems.append(
                "%s: %r is not a PIO0 state machine free of the probe (0 to 2)" % (where, machine)
            )
    if len(set(machines)) != len(machines):
        problems.append("%s: a state machine given twice" % where)
    if getattr(board, "ACTIVE_LOW", True) is not True:
        problems.append("%s: the capture's program needs ACTIVE_LOW contacts" % where)


def _check_network(chip, board, problems):
    """NETWORK (the tournament hall, docs/hall.md) only where the chip has a radio."""
    network = getattr(board, "NETWORK", False)
    if network is not True and network is not False:
        problems.append("NETWORK %r is not True or False" % (network,))
    elif network and not chip.radio:
        problems.append("NETWORK is True but the %s has no radio" % chip.name)


# The simulator's ideal board (boards/sim.py): no chip to deploy to.
SIMULATED = ("sim", "browser")  # the simulator's board and the web page's: no hardware


def board_names(simulated=False):
    """The boards of boards/ by name, sorted: its files are the one list of them (the
    Makefile, the tools, the tests and the manuals read it). ``simulated``: the
    simulator's ``sim`` and the web page's ``browser`` too. Host only (a board holds
    its own definition alone)."""
    import os

    folder = boards.__file__.rsplit("/", 1)[0]
    found = sorted(
        entry[:-3]
        for entry in os.listdir(folder)
        if entry.endswith(".py") and entry != "__init__.py"
    )
    return found if simulated else [name for name in found if name not in SIMULATED]


def main(names):
    """Check the boards ``names`` (``python -m hal.board_check pico esp32``); 0 if all pass."""
    status = 0
    for name in names:
        try:
            board = boards.load(name)
        except ValueError as error:
            print("%s: %s" % (name, error))
            status = 1
            continue
        problems = check(board)
        if problems:
            status = 1
            for problem in problems:
                print("%s: %s" % (name, problem))
        else:
            print("%s: ok" % name)
    return status


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
