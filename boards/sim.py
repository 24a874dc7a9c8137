"""The simulated board: the Pico's wiring, on the simulator's `machine` module."""

from boards.pico import *  # noqa: F403  (the same pins, buses and addresses)

NAME = "sim"
