"""The simulator's stand-in for micropython-lib's ``umqtt`` package (``simple.py``)."""
