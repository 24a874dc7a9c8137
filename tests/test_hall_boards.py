"""The boards with a network: the Pico W's definition, NETWORK only where a radio is, and
the hall's code loaded only on a board with a network and a hall file."""

import json
import sys

from boards import pico, pico_w
from hal import board_check
from hall.clock import HallClock, install_network
from sim import vclock
from sim.world import SimBoard, fresh_flash, remove_flash
from tests.test_boards import assert_caught, broken, problems_of


def test_pico_w_keeps_the_pico_wiring_but_the_battery():
    for name in ("INPUTS", "I2C_SDA", "I2C_SCL", "BUZZER_PIN", "LED_LEFT", "LED_RIGHT"):
        assert getattr(pico_w, name) == getattr(pico, name)
    assert pico_w.BATTERY_ADC_PIN == 28  # GP29 is the radio's SPI clock on the Pico W
    assert pico_w.NETWORK is True and getattr(pico, "NETWORK", False) is False
    assert problems_of(pico_w) == []


def test_network_only_where_the_chip_has_a_radio():
    assert_caught(broken("pico", NETWORK=True), "NETWORK", "no radio")
    assert_caught(broken("pico_w", NETWORK="yes"), "NETWORK")
    assert problems_of(broken("esp32", NETWORK=True)) == []


def test_pico_w_radio_pins_are_taken():
    assert_caught(broken("pico_w", BATTERY_ADC_PIN=29), "BATTERY_ADC_PIN", "not an ADC")
    assert_caught(broken("pico_w", LED_LEFT=25), "GPIO25", "wireless")
    assert_caught(broken("pico_w", BATTERY_LOW_HALL_MV=900), "BATTERY_LOW_HALL_MV")
    assert board_check.CHIPS["rp2040w"].radio and not board_check.CHIPS["rp2040"].radio


def booted_modules(board_name, hall_file):
    install_network()
    for name in ("hal.hall_link", "firmware.hall_settings"):
        sys.modules.pop(name, None)
        package, _, module = name.partition(".")
        if hasattr(sys.modules[package], module):
            delattr(sys.modules[package], module)  # else `from hal import hall_link` finds it
    flash = fresh_flash("300")
    if hall_file:
        with open(flash + "/hall.json", "w") as handle:
            json.dump({"broker": "127.0.0.1", "port": 1, "user": "clock-1", "board": 1}, handle)
    board = SimBoard(flash, board_name=board_name)
    app = board.boot()
    loaded = {name for name in sys.modules if name in ("hal.hall_link", "firmware.hall_settings")}
    app.hardware.stop()
    remove_flash(flash)
    return loaded, app


def test_the_hall_code_loads_only_with_a_network_and_a_hall_file():
    assert booted_modules("pico", True)[0] == set()  # no radio: the file is ignored
    assert booted_modules("pico_w", False)[0] == set()  # no hall file: offline as ever
    loaded, app = booted_modules("pico_w", True)
    assert loaded == {"hal.hall_link", "firmware.hall_settings"}  # the link and its file's reading
    assert app.hall.board == 1
    # The radio draws too: the low-battery mark comes at the hall's threshold.
    assert app.hardware.battery.low_mv == pico_w.BATTERY_LOW_HALL_MV


def menu_press(clock, key):
    clock.board.press(key)
    clock.advance(vclock.now_ms() + 400)


def test_the_board_number_in_the_setup_menu():
    hall = {"broker": "127.0.0.1", "port": 9, "user": "", "password": "secret-pw", "board": 7}
    clock = HallClock(hall)
    try:
        clock.advance(4000)
        menu_press(clock, "set")  # the menu opens on its first item
        menu_press(clock, "minus")  # back from the first item: the last, the board number
        assert clock.board.display_text() == "bd  |   7"
        menu_press(clock, "set")
        menu_press(clock, "plus")
        menu_press(clock, "plus")
        assert clock.board.display_text() == "bd  |   9"
        menu_press(clock, "set")
        with open(clock.flash + "/hall.json") as handle:
            stored = json.load(handle)
        assert stored["board"] == 9 and stored["password"] == "secret-pw"
        assert clock.link.topic == b"hall/board/9" and clock.link.user == "clock-9"
        assert "secret" not in clock.board.display_text()
    finally:
        clock.close()


def test_a_board_without_a_network_has_no_board_number_item():
    from firmware.menu import items as menu_items

    assert menu_items.BOARD_ITEM not in menu_items.ITEMS
    assert menu_items.HALL_ITEMS[-1] == menu_items.BOARD_ITEM
