"""The simulated board: `machine` stand-in, HT16K33 model, virtual time, scenario runner."""
