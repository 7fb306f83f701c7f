"""Proving a reversal in an unmodified Chromium: webr4's verdicts, checked without webr4.

A verdict of webr4 rests on its own execution (rewritten scripts, a controlled event loop, a
virtual clock). This package runs the racing pair's two orders again in a stock browser
context, with nothing of webr4's in the page, forcing each order only with what a browser and
its network offer through Playwright's public API, and compares the two plain end states with
webr4's own categories:

* :mod:`webr4.witness.schedule`: a plain schedule for each order of a pair, from the session and
  the explored traces, or the lever that is missing (``not-forceable``);
* :mod:`webr4.witness.plain_run`: running a schedule in a fresh stock context and reading its end state;
* :mod:`webr4.witness.confirm`: the judgement, ``confirmed``, ``reproduced``, ``not-reproduced``
  or ``not-forceable``, in one line.

It imports Playwright and the browser-free parts of webr4 (the trace model, the state
categories, the chunk model), never webr4's browser harness nor the report.
"""
