"""Benchmarks: each measures ratios side by side in one run."""
