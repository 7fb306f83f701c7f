"""One-off tools that profiled a part of webr4 to answer one question, run by hand.

They are not benchmark sections: the registry (:mod:`benchmarks.registry`) does not name them and
``make bench`` does not run them. Some wrap or replace private callables of webr4 and Playwright
to time them, which a section may not do. Each module's docstring says what it measured and
where its finding is written.
"""
