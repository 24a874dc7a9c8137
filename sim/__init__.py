"""The simulated board: `machine` stand-in, HT16K33 model, flash, virtual time, script runner."""
