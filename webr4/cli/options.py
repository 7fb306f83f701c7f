"""The options several commands share, and the types that check their values (the sweep's own options,
which name the strategies and the progress modes, are :mod:`webr4.cli.explore_options`)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import click

from webr4.browser.limits import Limits
from webr4.config import DurationError, parse_duration
from webr4.instrument.chunks import CHUNK_MODELS
from webr4.record.steps import web_url_problem


class _WebUrl(click.ParamType):
    """The URL of a page on a web server: webr4 records and replays what the page fetches over
    HTTP, so a ``data:``, ``file:`` or host-less URL is refused up front."""

    name = "url"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        url = str(value)
        problem = web_url_problem(url)
        if problem:
            self.fail(problem, param, ctx)
        return url


class _Duration(click.ParamType):
    """A duration with its unit (``90s``, ``5m``, ``1h``), as seconds."""

    name = "duration"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, float):  # converted already (a default is converted once more)
            return value
        try:
            return parse_duration(str(value))
        except DurationError as error:
            self.fail(str(error), param, ctx)


class _FiniteRange(click.FloatRange):
    """A :class:`click.FloatRange` of finite numbers: ``nan`` and ``inf``, which Python reads as
    numbers, are no amount of time at all, and are refused like a number out of range."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{number} is not a finite number.", param, ctx)
        return number


WEB_URL = _WebUrl()
DURATION = _Duration()
POSITIVE = _FiniteRange(min=0, min_open=True)  # a duration or budget: more than zero
NOT_NEGATIVE = _FiniteRange(min=0)
AT_LEAST_ONE = click.IntRange(min=1)


def execution_limits(horizon: float, max_events: int, event_timeout: float, parse_chunks: str, chunk_kb: int,
                     step_wait: float, block_service_workers: bool) -> Limits:
    """The execution limits that :func:`limit_options` gave."""
    return Limits(horizon_ms=horizon, max_events=max_events, event_timeout_s=event_timeout,
                  parse_chunks=parse_chunks, chunk_kb=chunk_kb, step_wait_ms=step_wait,
                  service_workers="block" if block_service_workers else "allow")


def limit_options(command: Any) -> Any:
    command = click.option("--horizon", type=POSITIVE, default=60_000.0, show_default=True,
                           help="Virtual milliseconds after which the default schedule stops.")(command)
    command = click.option("--max-events", type=AT_LEAST_ONE, default=5_000, show_default=True,
                           help="Most events one execution runs.")(command)
    command = click.option("--event-timeout", type=POSITIVE, default=10.0, show_default=True,
                           help="Wall seconds one event may take before the run is cut (endless loops).")(command)
    command = click.option("--parse-chunks", type=click.Choice(CHUNK_MODELS), default="yield", show_default=True,
                           help="Where parsing is split into events: yield, only where Chromium's parser can "
                                "let other tasks run; element, before every script, resource and targeted "
                                "element (R4's adversarial model).")(command)
    command = click.option("--chunk-kb", type=click.IntRange(min=1), default=16, show_default=True,
                           help="With --parse-chunks yield: the document's bytes are modelled as arriving "
                                "every this many KB, and parsing may pause between arrivals.")(command)
    command = click.option("--step-wait", type=POSITIVE, default=30_000.0, show_default=True,
                           help="Virtual milliseconds a user step waits for its target to become actionable, "
                                "letting the page's events run meanwhile.")(command)
    command = click.option("--block-service-workers/--allow-service-workers", default=True, show_default=True,
                           help="Block the page's service workers (their registration resolves to undefined, "
                                "and the run says so), or let them run: their own code and fetches then run "
                                "outside webr4's control, served from the recording.")(command)
    return command


def record_options(command: Any) -> Any:
    command = click.option("--seed", default=0, show_default=True,
                           help="Seed for Math.random and crypto.getRandomValues.")(command)
    command = click.option("--actions", type=click.Path(path_type=Path, dir_okay=False),
                           help='JSON list of user steps, e.g. [{"click": "#add"}, {"wait": 500}]; '
                                "page load only without --actions, --script and --auto.")(command)
    command = click.option("--script", type=click.Path(path_type=Path, dir_okay=False),
                           help="Python file defining run(page) that drives a Playwright page (sync API); "
                                "the user actions it performs become the session's, with the real time "
                                "between them.")(command)
    command = click.option("--pace", type=NOT_NEGATIVE, metavar="MS",
                           help="With --script: put exactly MS virtual milliseconds (plus the script's own "
                                "waits) between actions instead of the real time they took.")(command)
    command = click.option("--auto", type=click.IntRange(min=1), metavar="N",
                           help="Explore automatically: up to N actions on elements with event handlers "
                                "(chosen with --seed).")(command)
    return limit_options(command)
