"""What each chip makes the clock wait for: flash, bus, collection and socket times, as data.

A board names its chip in ``CHIP`` (boards/*.py); ``boards/chips/<CHIP>.py``
holds the figures the simulated board's latency model (``sim.latency``)
works from, each beside the datasheet or measurement it comes from. Every
time is a pair ``(typical, max)`` in microseconds. The firmware never
imports these modules: they cost the board no heap.
"""
