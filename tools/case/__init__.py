"""The clock's printable enclosure, generated from a board definition (docs/build.md)."""
