"""The limits the fits are held to, apart from the kernel so reading them is cheap.

``tools.case.cad`` draws to them and ``tools.case.fits`` checks them; the tests
read them when they are collected, before the kernel is imported. Host only.
"""

TOLERANCE_MM = 0.3  # what a clearance may shrink to in print (FDM holes print small)
MIN_THICKNESS_MM = 1.2  # three perimeters or six layers: the door's lip is this thin
BRIDGE_MM = 20.0  # what a bridge may span without support (PLA, 0.2 mm layers)
