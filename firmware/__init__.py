"""The chess clock: time controls, the timing engine, the display frames and the app loop."""
