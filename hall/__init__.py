"""The tournament hall on the host: broker, simulated clocks, the arbiter's view (docs/hall.md)."""
