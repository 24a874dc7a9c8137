"""The manuals' pictures: the displays drawn from clock scripts, the wiring and the data flow."""
