"""webr4's benchmarks: ``make bench`` (``python -m benchmarks``)."""
