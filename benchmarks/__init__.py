"""Benchmarks: the extension's cost against a plain Sphinx build (see BENCHMARKS.md)."""
