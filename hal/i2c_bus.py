"""A MicroPython ``machine.I2C`` behind the CircuitPython ``busio.I2C`` interface.

``adafruit_bus_device.i2c_device.I2CDevice`` (and so every Adafruit driver)
expects ``busio.I2C``: locking, and ``start``/``end`` keywords instead of
slices. ``I2CBus`` wraps the ``machine.I2C`` it is given. A whole buffer is
passed on as it is, so a full-buffer write allocates nothing; only a part
of a buffer costs a ``memoryview`` slice.
"""


class I2CBus:
    """``busio.I2C`` for drivers, over the ``machine.I2C`` (or ``SoftI2C``) ``i2c``."""

    def __init__(self, i2c):
        self.i2c = i2c
        self.locked = False

    def try_lock(self):
        """Take the bus; always succeeds (one thread, one user at a time)."""
        self.locked = True
        return True

    def unlock(self):
        self.locked = False

    def write(self, address, buffer):
        """Write the whole ``buffer`` to ``address``, then a stop: the displays' frames,
        without the keywords that would put this call's frame on MicroPython's heap."""
        self.i2c.writeto(address, buffer)

    def writeto(self, address, buffer, *, start=0, end=None):
        """Write ``buffer[start:end]`` to ``address``, then a stop."""
        if start == 0 and (end is None or end == len(buffer)):
            self.i2c.writeto(address, buffer)
        else:
            self.i2c.writeto(address, _part(buffer, start, end))

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        """Read from ``address`` into ``buffer[start:end]``."""
        if start == 0 and (end is None or end == len(buffer)):
            self.i2c.readfrom_into(address, buffer)
        else:
            self.i2c.readfrom_into(address, _part(buffer, start, end))

    def writeto_then_readfrom(
        self, address, out_buffer, in_buffer, *, out_start=0, out_end=None, in_start=0, in_end=None
    ):
        """Write ``out_buffer[out_start:out_end]`` without a stop, then read into ``in_buffer``."""
        if out_start == 0 and (out_end is None or out_end == len(out_buffer)):
            self.i2c.writeto(address, out_buffer, False)
        else:
            self.i2c.writeto(address, _part(out_buffer, out_start, out_end), False)
        if in_start == 0 and (in_end is None or in_end == len(in_buffer)):
            self.i2c.readfrom_into(address, in_buffer)
        else:
            self.i2c.readfrom_into(address, _part(in_buffer, in_start, in_end))

    def scan(self):
        """The addresses that answer on the bus."""
        return self.i2c.scan()


def _part(buffer, start, end):
    if end is None:
        end = len(buffer)
    return memoryview(buffer)[start:end]
