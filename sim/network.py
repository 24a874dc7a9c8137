"""The simulator's stand-in for MicroPython's ``network`` module: a Wi-Fi that joins at once.

``WLAN(STA_IF)`` is connected once ``connect`` was called (or at once when
the hall file names no network); ``set_link(False)`` takes the Wi-Fi away
(a test's access point going down) and ``set_link(True)`` brings it back.
"""

import sys

STA_IF = 0
AP_IF = 1

_link = [True]


def install():
    """This module in place of MicroPython's ``network``."""
    sys.modules["network"] = sys.modules["sim.network"]


def set_link(up):
    _link[0] = bool(up)


class WLAN:
    def __init__(self, interface=STA_IF):
        self.interface = interface
        self.on = False
        self.joined = True

    def active(self, flag=None):
        if flag is not None:
            self.on = bool(flag)
        return self.on

    def connect(self, ssid=None, key=None):
        self.joined = True

    def isconnected(self):
        return self.on and self.joined and _link[0]

    def disconnect(self):
        self.joined = False
