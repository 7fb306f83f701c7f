"""The options of the commands that explore (``explore``, ``check``): apart from the options every
command shares (:mod:`webr4.cli.options`), because their choices come from the sweep, which
``record`` never imports."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from webr4.cli.options import AT_LEAST_ONE, DURATION, POSITIVE
from webr4.engine.strategies import STRATEGIES
from webr4.sweep.confirm import CONFIRM_CHOICES, FAIL_ON_CHOICES
from webr4.sweep.progress import MODES


def explore_options(command: Any) -> Any:
    command = click.option("--bound", type=AT_LEAST_ONE, default=1, show_default=True,
                           help="Conflict-reversal bound k: reversals stacked on the recording.")(command)
    command = click.option("--strategy", type=click.Choice(STRATEGIES), default="r4", show_default=True,
                           help="r4: one conflict reversal per sequence; delay: delay-bounded random "
                                "sampling (--bound delays); wave: random happens-before-respecting swaps.")(command)
    command = click.option("--max-sequences", type=AT_LEAST_ONE,
                           help="Stop after this many explored sequences.")(command)
    command = click.option("--time-limit", type=POSITIVE, help="Stop after this many seconds.")(command)
    command = click.option("--budget", type=DURATION, metavar="DURATION",
                           help="Explore for this long (90s, 5m, 1h) and stop with the best found: bound 1 "
                                "in order of likely harm, then bound 2, 3, ... while time remains, up to "
                                "--bound when it is given (no cap otherwise).")(command)
    command = click.option("--mask", multiple=True, metavar="SELECTOR",
                           help="Ignore this part of the DOM when comparing (#id, .class, tag); repeatable; adds "
                                "to [mask] selectors of webr4.toml.")(command)
    command = click.option("--mask-heap", multiple=True, metavar="PATH",
                           help="Ignore this heap path (window.cache); repeatable.")(command)
    command = click.option("--rules", metavar="NAMES",
                           help="Comma-separated classifier rules to use (default: all).")(command)
    command = click.option("--workers", type=click.IntRange(min=1), default=os.cpu_count() or 1, show_default=True,
                           help="Executions run at once, each worker process with a browser of its own.")(command)
    command = click.option("--cluster", metavar="ADDRESS",
                           help="Run executions on a Dask cluster: tcp://HOST:PORT of its scheduler, or local:N "
                                "to start N local workers (needs webr4[cluster]).")(command)
    command = click.option("--resume", is_flag=True,
                           help="Continue the interrupted sweep in --out with its own settings; finished "
                                "executions are not run again.")(command)
    command = click.option("--progress", type=click.Choice(MODES), default=None,
                           help="bar: a live progress bar (default on a terminal); json: one JSON object per "
                                "line on stdout; quiet: nothing (default otherwise).")(command)
    command = click.option("--junit", type=click.Path(path_type=Path, dir_okay=False),
                           help="Also write the verdicts as JUnit XML here (as 'webr4 export' does).")(command)
    command = click.option("--sarif", type=click.Path(path_type=Path, dir_okay=False),
                           help="Also write the verdicts as SARIF 2.1.0 here.")(command)
    command = click.option("--force", is_flag=True,
                           help="Replace an existing --junit or --sarif file that webr4 did not write.")(command)
    command = click.option("--confirm", type=click.Choice(CONFIRM_CHOICES), default="harmful", show_default=True,
                           help="Run these reversals' two orders in plain Chromium (no webr4 code in the page), "
                                "beside the sweep when a core is spare, else after it, and say whether the "
                                "difference is confirmed there.")(command)
    command = click.option("--fail-on", type=click.Choice(FAIL_ON_CHOICES), default="harmful", show_default=True,
                           help="Exit with status 1 on any harmful reversal, or only on one plain Chromium "
                                "confirmed.")(command)
    return command
