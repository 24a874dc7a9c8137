"""The clock live on the desktop: the simulated board in real time, in a window or a terminal."""
