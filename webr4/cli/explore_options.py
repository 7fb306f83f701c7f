"""The options of the commands that explore (``explore``, ``check``): apart from the options every
command shares (:mod:`webr4.cli.options`), because their choices come from the sweep, which
``record`` never imports; and the pairs of them a sweep cannot take together."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, NamedTuple

import click

from webr4.cli.options import AT_LEAST_ONE, DURATION, POSITIVE
from webr4.config import load_settings
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
    command = click.option("--time-limit", type=POSITIVE, default=None,
                           help="Stop after this many seconds.")(command)
    command = click.option("--budget", type=DURATION, default=None, metavar="DURATION",
                           help="Explore for this long (90s, 5m, 1h) and stop with the best found: bound 1 "
                                "in order of likely harm, then bound 2, 3, ... while time remains, up to "
                                "--bound when it is given (no cap otherwise).")(command)
    command = click.option("--exhaustive", is_flag=True,
                           help="Run every reversal. Otherwise the reversals that race through the same two "
                                "code sites (a module loader's queue or cache, say) are a group: the first "
                                "runs and stands for the others, which run only once one of the group is "
                                "neither harmless nor unrealised. With --resume, runs those the sweep left to "
                                "their group.")(command)
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
                                "confirmed with timing a network and a person produce (not one it confirmed "
                                "only under extreme timing: confirmed-extreme).")(command)
    return command


class Conflict(NamedTuple):
    """Two options a sweep cannot take together: ``clash`` says whether their values (``first``'s,
    then ``second``'s) do, and ``why`` says why and what to drop, formatted with the two options'
    names (``{first}``, ``{second}``) and ``second``'s value (``{value}``). Each option declares a
    default that clashes with nothing."""

    first: str
    second: str
    clash: Callable[[Any, Any], bool]
    why: str


CONFLICTS = (
    Conflict("budget", "time_limit", lambda budget, limit: budget is not None and limit is not None,
             "{first} and {second} both limit the sweep's time; give one of them"),
    Conflict("budget", "strategy", lambda budget, strategy: budget is not None and strategy != "r4",
             "{first} orders R4's reversals by likely harm; drop {second} {value} or {first}"),
)
"""The explore options that cannot go together, by parameter name."""


def settle_conflicts(values: dict[str, Any]) -> dict[str, Any]:
    """``values`` (the current command's explore options, by parameter name) with each value from
    the settings file that clashes with one given on the command line put back to its option's
    default: the command line wins. Raises :class:`click.UsageError` for a clash of two values
    given in the same place, naming them as they were given (options, or the file's keys)."""
    ctx = click.get_current_context()
    settled = dict(values)
    for conflict in CONFLICTS:  # first the command line wins, so that what it drops clashes no more
        if conflict.clash(settled[conflict.first], settled[conflict.second]):
            in_file = _in_file(ctx, conflict)
            if len(in_file) == 1:
                settled[in_file[0]] = _declared_default(ctx, in_file[0])
    for conflict in CONFLICTS:
        if conflict.clash(settled[conflict.first], settled[conflict.second]):
            raise click.UsageError(_conflict_line(conflict, settled[conflict.second], bool(_in_file(ctx, conflict))))
    return settled


def _in_file(ctx: click.Context, conflict: Conflict) -> list[str]:
    """Which of ``conflict``'s options took their value from the settings file."""
    return [name for name in (conflict.first, conflict.second)
            if ctx.get_parameter_source(name) == click.core.ParameterSource.DEFAULT_MAP]


def _declared_default(ctx: click.Context, name: str) -> Any:
    """The default the option ``name`` of the current command declares (not the settings file's)."""
    return next(param.default for param in ctx.command.params if param.name == name)


def _conflict_line(conflict: Conflict, value: Any, in_file: bool) -> str:
    """Why ``conflict``'s two values cannot go together: named as settings file keys (after the
    file's name) when ``in_file``, else as command-line options."""
    if in_file:
        first, second = (name.replace("_", "-") for name in (conflict.first, conflict.second))
        return f"{load_settings().source}: " + conflict.why.format(first=first, second=second, value=value)
    first, second = (f"--{name.replace('_', '-')}" for name in (conflict.first, conflict.second))
    return conflict.why.format(first=first, second=second, value=value)
