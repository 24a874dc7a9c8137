"""The hardware layer: interrupts, tick source, displays and storage over `machine`."""
