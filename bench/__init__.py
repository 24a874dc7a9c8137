"""Benchmarks: the figures the issues ask for, printed and written to bench/latest.json."""
