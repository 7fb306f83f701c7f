"""The ``webr4`` command line.

Every failure the user can fix (a bad file, an unreachable site, no browser) ends in one line
on stderr naming the problem and what to do — never a traceback.

Exit status: 0 when no harmful race was found, 1 when one was (``explore``, ``check``; ``replay``
when the difference does not reproduce), 2 for bad input or a failure that stopped the command,
130 when interrupted (Ctrl-C, SIGTERM; see :mod:`webr4.interrupts`, whose ``main`` is the
program that runs this command line). Nothing else: the group's guard turns any unexpected
exception into status 2 and one line (the traceback too with ``--debug`` or ``WEBR4_DEBUG=1``).

Defaults for every option can come from ``webr4.toml`` (or ``[tool.webr4]`` in
``pyproject.toml``) in the working directory; see :mod:`webr4.config`.
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import sqlite3
import sys
import tempfile
import time
import traceback
import webbrowser
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable, Coroutine, TypeVar
from urllib.parse import urlsplit

import click

from webr4 import __version__, interrupts
from webr4.browser.actions import UserAction, parse_actions
from webr4.browser.controller import Limits
from webr4.browser.driver import Driver, Execution
from webr4.browser.launch import BrowserNotFound
from webr4.browser.network import NetworkError
from webr4.browser.responses import ResponseStore
from webr4.browser.teardown import quiet_lost_browser
from webr4.resources import resource_dir
from webr4.serve import serve
from webr4.checking import Checked, SweepOptions, check, explore_session
from webr4.classify import RULES
from webr4.classify.differences import MAX_ITEMS, differences_line
from webr4.config import ConfigError, load_settings
from webr4.errors import Webr4Error
from webr4.instrument.chunks import CHUNK_MODELS
from webr4.report import ci
from webr4.report.write import write_report
from webr4.rundir import ExecutionFiles, RunDir, SummaryError
from webr4.runlock import RunInUse, claim
from webr4.state.noise import NoiseMask
from webr4.state.snapshot import StateSnapshot
from webr4.record.auto import auto_actions
from webr4.engine.strategies import STRATEGIES
from webr4.sweep.confirm import CONFIRM_CHOICES, FAIL_ON_CHOICES, export_witness
from webr4.sweep.execution import BrowserLost
from webr4.sweep.progress import MODES, Progress, progress_for
from webr4.record.scripted import actions_from_script
from webr4.sweep.replay import ReplayError, find_reversal, replay_reversal, write_traces
from webr4.record.session import Session, SessionError, record
from webr4.sweep.store import RunStore, StoreError, damaged
from webr4.trace import plan_from_json

T = TypeVar("T")


class Failure(click.ClickException):
    """A one-line error that stopped the command (exit status 2, like a usage error)."""

    exit_code = 2


class Interrupted(click.ClickException):
    """The command was interrupted (Ctrl-C, SIGTERM): exit status 130 and how to go on."""

    exit_code = 130

    def show(self, file: Any = None) -> None:
        click.echo(self.message, err=True)


_EXIT_STATUSES = (0, 1, 2, 130)


def _one_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else ""


class _Guarded(click.Group):
    """The command group, with one guard around every command: whatever escapes a command ends
    in one of the documented exit statuses and one line on stderr, never a traceback."""

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        """As click's, except that an interrupt before a command starts (click's "Aborted!",
        status 1) is status 130 like one inside a command."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        if sys.stdout is None:  # started with standard output closed (`>&-`): what it writes would be lost
            click.echo("Error: standard output is closed, and webr4 writes its results there; redirect it "
                       "instead (>/dev/null to discard them)", err=True)
            sys.exit(Failure.exit_code)
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except click.Abort:
            click.echo("interrupted", err=True)
            sys.exit(Interrupted.exit_code)
        except click.UsageError as error:  # the message names the fix: no usage header before it
            click.echo(f"Error: {error.format_message().strip().splitlines()[0]}", err=True)
            sys.exit(error.exit_code)
        except click.ClickException as error:
            error.show()
            sys.exit(error.exit_code)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: click.Context) -> Any:
        previous = interrupts.install()
        try:
            if interrupts.requested():  # a signal came while webr4 started, where it could not stop it
                raise KeyboardInterrupt
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except SystemExit as exiting:
            if exiting.code is None or exiting.code in _EXIT_STATUSES:
                raise
            raise Failure(f"stopped with exit status {exiting.code!r}, which webr4 does not use") from None
        except KeyboardInterrupt:
            raise Interrupted("interrupted") from None
        except BrokenPipeError:
            _silence_stdout()
            raise Failure("standard output was closed before webr4 finished writing") from None
        except Exception as error:
            if ctx.params.get("debug"):
                traceback.print_exc()
            hint = "" if ctx.params.get("debug") else "; run with --debug (or WEBR4_DEBUG=1) for the traceback"
            raise Failure(f"unexpected {type(error).__name__}: {_one_line(error)}{hint}") from None
        finally:
            interrupts.restore(previous)


def _silence_stdout() -> None:
    """Point standard output at the null device so that flushing it at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (e.g. captured by a test runner)
        pass


def _read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise click.UsageError(f"cannot read {what} {path}: {error.strerror}") from None
    except ValueError as error:
        raise click.UsageError(f"{what} {path} is not valid JSON ({error})") from None


def _limits(horizon: float, max_events: int, event_timeout: float, parse_chunks: str, chunk_kb: int,
            step_wait: float) -> Limits:
    return Limits(horizon_ms=horizon, max_events=max_events, event_timeout_s=event_timeout,
                  parse_chunks=parse_chunks, chunk_kb=chunk_kb, step_wait_ms=step_wait)


class _WebUrl(click.ParamType):
    """The URL of a page on a web server: webr4 records and replays what the page fetches over
    HTTP, so a ``data:``, ``file:`` or host-less URL is refused up front."""

    name = "url"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        url = str(value)
        shown = url if len(url) <= 60 else url[:57] + "..."
        try:
            parts = urlsplit(url)
            host = parts.hostname
        except ValueError as error:
            self.fail(f"{shown} is not a valid URL ({error})", param, ctx)
        if parts.scheme not in ("http", "https") or not host:
            self.fail(f"{shown} is not an http:// or https:// URL; webr4 loads pages from a web server "
                      "(serve a local page with: python -m http.server)", param, ctx)
        return url


WEB_URL = _WebUrl()
POSITIVE = click.FloatRange(min=0, min_open=True)  # a duration or budget: more than zero
AT_LEAST_ONE = click.IntRange(min=1)


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
    return command


@click.group(cls=_Guarded, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="webr4")
@click.option("--browser", type=click.Path(path_type=Path, dir_okay=False), envvar="WEBR4_CHROMIUM",
              help="Chromium binary to drive (default: WEBR4_CHROMIUM, /usr/bin/chromium, then Playwright's).")
@click.option("--no-sandbox", is_flag=True,
              help="Run Chromium without its sandbox (also WEBR4_NO_SANDBOX=1); it is off anyway as root.")
@click.option("--debug", is_flag=True, envvar="WEBR4_DEBUG",
              help="Print the traceback of an unexpected error (also WEBR4_DEBUG=1).")
@click.pass_context
def main(ctx: click.Context, browser: Path | None, no_sandbox: bool, debug: bool) -> None:
    """Find the event races in a web app that hurt its users.

    Option defaults are read from webr4.toml (or [tool.webr4] in pyproject.toml) in the working
    directory; the command line overrides them.
    """
    try:
        settings = load_settings()
    except ConfigError as error:
        raise click.UsageError(str(error)) from None
    _check_temporary_directory()
    ctx.default_map = settings.default_map()
    if browser is not None:
        from_environment = ctx.get_parameter_source("browser") == click.core.ParameterSource.ENVIRONMENT
        given = f"WEBR4_CHROMIUM={browser}" if from_environment else f"--browser {browser}"
    else:
        browser, given = settings.browser, f'browser = "{settings.browser}" in the settings file'
    if browser is not None:
        if not browser.is_file():  # named as the user gave it, before any launch
            raise Failure(f"{given} is not a file: point it at a Chromium binary")
        os.environ["WEBR4_CHROMIUM"] = str(browser)  # read by the launcher, here and in worker processes
    if no_sandbox:
        os.environ["WEBR4_NO_SANDBOX"] = "1"


def _check_temporary_directory() -> None:
    """Browsers and Playwright keep their profiles in the temporary directory: a ``TMPDIR`` that
    cannot hold them is named up front rather than failing deep in a browser launch."""
    chosen = os.environ.get("TMPDIR")
    if chosen and not (os.path.isdir(chosen) and os.access(chosen, os.W_OK | os.X_OK)):
        raise Failure(f"TMPDIR={chosen} is not a writable directory; point TMPDIR at one or unset it")
    try:
        with tempfile.TemporaryFile():
            pass
    except OSError as error:
        raise Failure(f"cannot create a temporary file in {tempfile.gettempdir()}: {error.strerror}") from None


@main.command()
@click.argument("url", type=WEB_URL)
@click.option("--out", "out_dir", type=click.Path(path_type=Path), required=True,
              help="Directory for trace.json, state.json, network.har (and screenshot.png).")
@click.option("--sequence", type=click.Path(path_type=Path, dir_okay=False),
              help="JSON list of event ids to execute in order (or a trace.json); default schedule otherwise.")
@click.option("--actions", type=click.Path(path_type=Path, dir_okay=False),
              help='JSON list of user steps, e.g. [{"click": "#add"}, {"wait": 500}].')
@click.option("--network", type=click.Path(path_type=Path, dir_okay=False),
              help="Serve the network from this HAR file instead of the live site.")
@click.option("--seed", default=0, show_default=True, help="Seed for Math.random and crypto.getRandomValues.")
@click.option("--screenshot/--no-screenshot", default=True, show_default=True)
@limit_options
def run(url: str, out_dir: Path, sequence: Path | None, actions: Path | None, network: Path | None, seed: int,
        screenshot: bool, horizon: float, max_events: int, event_timeout: float,
        parse_chunks: str, chunk_kb: int, step_wait: float) -> None:
    """Execute URL once under control and write its trace and final state to --out."""
    plan = _load_plan(sequence) if sequence else []
    steps = _load_actions(actions) if actions else []
    store = _load_store(network) if network else ResponseStore()
    execution = _run_once(url, plan, steps, store, record=network is None, seed=seed, screenshot=screenshot,
                          limits=_limits(horizon, max_events, event_timeout, parse_chunks, chunk_kb, step_wait))
    files = _write_execution(out_dir, execution, store)
    trace = execution.trace
    if trace.navigation is not None:
        ended = f"left the page for {trace.navigation.target}"
    else:
        ended = f"cut by {trace.truncated}" if trace.truncated else "nothing left pending"
    click.echo(f"{len(trace.steps)} events, {len(trace.skipped)} skipped, {len(trace.errors)} errors, {ended}")
    click.echo(f"wrote {files.trace}")


def _load_plan(path: Path) -> list[str]:
    raw = _read_json(path, "sequence file")
    if isinstance(raw, dict) and "steps" in raw and "sequence" not in raw:
        raw = [step["event"] for step in raw["steps"] if isinstance(step, dict) and "event" in step]
    try:
        return plan_from_json(raw)
    except ValueError as error:
        raise click.UsageError(f"{path}: {error}") from None


def _load_actions(path: Path) -> list[UserAction]:
    try:
        return parse_actions(_read_json(path, "actions file"))
    except ValueError as error:
        raise click.UsageError(f"{path}: {error}") from None


def _load_store(path: Path) -> ResponseStore:
    try:
        return ResponseStore.load_har(path)
    except ValueError as error:
        raise click.UsageError(str(error)) from None


def _run_once(url: str, plan: list[str], actions: list[UserAction], store: ResponseStore, *, record: bool,
              seed: int, screenshot: bool, limits: Limits) -> Execution:
    return _with_driver(lambda driver: driver.execute(url, plan, actions=actions, store=store, record=record,
                                                      limits=limits, seed=seed, screenshot=screenshot))


def _write_execution(out_dir: Path, execution: Execution, store: ResponseStore) -> ExecutionFiles:
    files = ExecutionFiles(out_dir)
    try:
        files.write(execution.trace, StateSnapshot.from_execution(execution, execution.heap))
        store.save_har(files.network)
    except OSError as error:
        raise Failure(f"cannot write to {out_dir}: {error.strerror}") from None
    return files


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
    command = click.option("--pace", type=click.FloatRange(min=0), metavar="MS",
                           help="With --script: put exactly MS virtual milliseconds (plus the script's own "
                                "waits) between actions instead of the real time they took.")(command)
    command = click.option("--auto", type=click.IntRange(min=1), metavar="N",
                           help="Explore automatically: up to N actions on elements with event handlers "
                                "(chosen with --seed).")(command)
    return limit_options(command)


def explore_options(command: Any) -> Any:
    command = click.option("--bound", type=AT_LEAST_ONE, default=1, show_default=True,
                           help="Conflict-reversal bound k: reversals stacked on the recording.")(command)
    command = click.option("--strategy", type=click.Choice(STRATEGIES), default="r4", show_default=True,
                           help="r4: one conflict reversal per sequence; delay: delay-bounded random "
                                "sampling (--bound delays); wave: random happens-before-respecting swaps.")(command)
    command = click.option("--max-sequences", type=AT_LEAST_ONE,
                           help="Stop after this many explored sequences.")(command)
    command = click.option("--time-limit", type=POSITIVE, help="Stop after this many seconds.")(command)
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
    command = click.option("--confirm", type=click.Choice(CONFIRM_CHOICES), default="harmful", show_default=True,
                           help="After the sweep, run these reversals' two orders in plain Chromium (no webr4 code "
                                "in the page) and say whether the difference is confirmed there.")(command)
    command = click.option("--fail-on", type=click.Choice(FAIL_ON_CHOICES), default="harmful", show_default=True,
                           help="Exit with status 1 on any harmful reversal, or only on one plain Chromium "
                                "confirmed.")(command)
    return command


@main.command("record")
@click.argument("url", type=WEB_URL)
@click.option("--out", "out_dir", type=click.Path(path_type=Path), required=True, help="New session directory.")
@record_options
def record_command(url: str, out_dir: Path, actions: Path | None, script: Path | None, pace: float | None,
                   auto: int | None, seed: int, horizon: float, max_events: int, event_timeout: float,
                   parse_chunks: str, chunk_kb: int, step_wait: float) -> None:
    """Record a session of URL: the seed every exploration replays."""
    steps = _session_steps(url, actions, script, pace, auto, seed)
    limits = _limits(horizon, max_events, event_timeout, parse_chunks, chunk_kb, step_wait)
    session = _with_driver(lambda driver: record(driver, url, out_dir, steps, seed=seed, limits=limits))
    trace = session.seed_trace()
    click.echo(f"recorded {len(trace.steps)} events of {url} into {out_dir}")


@main.command("explore")
@click.argument("session_dir", metavar="SESSION", type=click.Path(path_type=Path, file_okay=False))
@click.option("--out", "out_dir", type=click.Path(path_type=Path), required=True, help="Run directory.")
@explore_options
def explore_command(session_dir: Path, out_dir: Path, **sweep: Any) -> None:
    """Explore the reversals of a recorded SESSION and classify each one.

    Exits with status 1 when a reversal is judged harmful.
    """
    session = _load_session(session_dir)
    _refuse_foreign(out_dir)
    resume = _resume_command()
    options, progress, outputs = _sweep_options(out_dir, **sweep)

    async def explore_and_report() -> Checked:
        summary = await explore_session(session, out_dir, options, progress=progress)
        return Checked(summary, write_report(out_dir))

    _report(_interruptible(explore_and_report, out_dir, resume), out_dir, progress=outputs)


def _refuse_foreign(out_dir: Path) -> None:
    """Refuse to write a run into a directory that holds something else (see
    :meth:`~webr4.rundir.RunDir.is_run`): webr4 never overwrites files it did not write. A
    directory that exists is held for the rest of the command (:func:`~webr4.runlock.claim`),
    and refused when another webr4 is using it."""
    if out_dir.exists() and not out_dir.is_dir():
        raise Failure(f"--out {out_dir} is a file; choose a directory")
    if out_dir.is_dir():  # held from here on, so that what it holds is not judged while another webr4 writes it
        try:
            click.get_current_context().with_resource(claim(out_dir))
        except RunInUse as error:
            raise Failure(str(error)) from None
    if out_dir.is_dir() and any(out_dir.iterdir()) and not RunDir(out_dir).is_run():
        raise Failure(f"--out {out_dir} is not empty and is not a webr4 run; choose a new or empty directory")


@main.command("check")
@click.argument("url", type=WEB_URL)
@click.option("--out", "out_dir", type=click.Path(path_type=Path), required=True,
              help="Run directory (the session goes to RUN/session).")
@record_options
@explore_options
def check_command(url: str, out_dir: Path, actions: Path | None, script: Path | None, pace: float | None,
                  auto: int | None, seed: int, horizon: float, max_events: int, event_timeout: float,
                  parse_chunks: str, chunk_kb: int, step_wait: float, **sweep: Any) -> None:
    """Record URL, explore it and write the report, in one command.

    Exits with status 1 when a reversal is judged harmful. With --resume, the session recorded
    in RUN/session is reused instead of recording again.
    """
    _refuse_foreign(out_dir)
    own_session = RunDir(out_dir).own_session
    session_dir, recorded = own_session.directory, own_session.recorded
    if recorded and not sweep["resume"]:
        raise Failure(f"{out_dir} already holds a recorded session; add --resume to finish its sweep, "
                      "or choose another --out")
    steps: Any = []
    if recorded:
        session = _load_session(session_dir)
        if session.url != url:
            click.echo(f"note: resuming the session recorded from {session.url}; the URL given ({url}) is ignored",
                       err=True)
        limits = session.run_limits
        _note_overridden("the recorded session's settings", {
            "seed": (session.seed, seed), "parse_chunks": (limits.parse_chunks, parse_chunks),
            "chunk_kb": (limits.chunk_kb, chunk_kb), "horizon": (limits.horizon_ms, horizon),
            "max_events": (limits.max_events, max_events), "event_timeout": (limits.event_timeout_s, event_timeout),
            "step_wait": (limits.step_wait_ms, step_wait)})
        given = [f"--{name}" for name, value in (("actions", actions), ("script", script), ("auto", auto))
                 if value is not None]
        if given:
            click.echo(f"note: resuming with the recorded session's user actions; {' and '.join(given)} "
                       "is ignored", err=True)
    else:
        steps = _session_steps(url, actions, script, pace, auto, seed)
    resume = _resume_command()
    options, progress, outputs = _sweep_options(out_dir, **sweep)
    limits = _limits(horizon, max_events, event_timeout, parse_chunks, chunk_kb, step_wait)
    checked = _interruptible(lambda: check(url, out_dir, steps, seed=seed, limits=limits, options=options,
                                           progress=progress), out_dir, resume)
    _report(checked, out_dir, progress=outputs)


@main.command("replay", context_settings={"ignore_unknown_options": True})  # ID -1 is an ID, not an option
@click.argument("run_dir", metavar="RUN", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.argument("reversal_id", metavar="ID", type=int)
@click.option("--traces", "traces_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Instead of replaying, write both stored traces to DIR/parent/trace.json and DIR/child/trace.json.")
def replay_command(run_dir: Path, reversal_id: int, traces_dir: Path | None) -> None:
    """Re-execute both sequences of reversal ID and check that the difference reproduces."""
    try:
        if traces_dir is not None:
            for path in write_traces(run_dir, reversal_id, traces_dir):
                click.echo(f"wrote {path}")
            return
        outcome = _with_driver(lambda driver: replay_reversal(driver, run_dir, reversal_id), run_dir)
    except ReplayError as error:
        raise click.UsageError(str(error)) from None
    except OSError as error:
        raise Failure(f"cannot write the traces in {traces_dir}: {error.strerror}") from None
    click.echo(f"reported:  {_differences_in_words(outcome.reported)}")
    click.echo(f"replayed:  {_differences_in_words(outcome.now)}")
    click.echo("reproduced" if outcome.reproduced else "NOT reproduced")
    confirmation = find_reversal(run_dir, reversal_id)[1].confirmation
    if confirmation:
        click.echo(f"confirmation: {confirmation['status']}: {confirmation['line']}")
    if not outcome.reproduced:
        raise SystemExit(1)


@main.command("witness")
@click.argument("run_dir", metavar="RUN", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.argument("reversal_id", metavar="ID", type=int)
@click.option("--pytest", "pytest_file", type=click.Path(path_type=Path, dir_okay=False),
              help="Write a standalone pytest test (needing only pytest and playwright; the HAR goes beside it) "
                   "that fails while the race is there.")
@click.option("--trace", "trace_file", type=click.Path(path_type=Path, dir_okay=False),
              help="Write Playwright traces of both orders in plain Chromium: the reversed one here, the "
                   "parent's beside it (NAME-parent.zip); open them with 'playwright show-trace'.")
def witness_command(run_dir: Path, reversal_id: int, pytest_file: Path | None, trace_file: Path | None) -> None:
    """Keep reversal ID's race as plain Chromium shows it, without webr4: a test and traces."""
    if pytest_file is None and trace_file is None:
        raise click.UsageError("give --pytest FILE, --trace FILE or both")
    for path in _run(lambda: export_witness(run_dir, reversal_id, pytest_file=pytest_file, trace_file=trace_file)):
        click.echo(f"wrote {path}")


def _differences_in_words(differences: dict[str, list[str]]) -> str:
    return differences_line(differences, per_category=MAX_ITEMS) if differences else "no difference"


@main.command("report")
@click.argument("run_dir", metavar="RUN", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.option("--open", "open_page", is_flag=True, help="Open the report in the default browser.")
def report_command(run_dir: Path, open_page: bool) -> None:
    """Write the HTML report of the run directory RUN to RUN/report/index.html."""
    try:
        page = write_report(run_dir)
    except SummaryError as error:
        raise click.UsageError(str(error)) from None
    except StoreError as error:
        raise Failure(str(error)) from None
    except sqlite3.DatabaseError as error:  # found damaged only where it was read
        raise Failure(str(damaged(RunDir(run_dir).store, error))) from None
    except OSError as error:
        raise Failure(f"cannot write the report in {run_dir}: {error.strerror}") from None
    click.echo(f"report: {page}")
    if open_page and not webbrowser.open(page.resolve().as_uri()):
        click.echo(f"note: no browser to open the report with here; open {page} in one", err=True)


@main.command("export")
@click.argument("run_dir", metavar="RUN", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.option("--junit", type=click.Path(path_type=Path, dir_okay=False), help="Write JUnit XML here.")
@click.option("--sarif", type=click.Path(path_type=Path, dir_okay=False), help="Write SARIF 2.1.0 here.")
@click.option("--allow-unfinished", is_flag=True,
              help="Export a sweep that is still running or was interrupted (its verdicts are partial).")
def export_command(run_dir: Path, junit: Path | None, sarif: Path | None, allow_unfinished: bool) -> None:
    """Write the verdicts of RUN for CI; exit status 1 when RUN has a harmful race.

    A sweep that has not finished is refused (status 2) unless --allow-unfinished is given.
    """
    try:
        summary = RunDir(run_dir).read_summary()
    except SummaryError as error:
        raise click.UsageError(str(error)) from None
    unfinished = ci.unfinished_reason(run_dir, summary)
    if unfinished and not allow_unfinished:
        raise Failure(f"{unfinished}, or pass --allow-unfinished")
    if unfinished:
        click.echo(f"warning: {unfinished}", err=True)
    for option, path, write in (("--junit", junit, ci.write_junit), ("--sarif", sarif, ci.write_sarif)):
        if path is not None:
            try:
                click.echo(f"wrote {write(run_dir, path)}")
            except OSError as error:
                raise click.BadParameter(f"cannot write {path}: {error.strerror}", param_hint=option) from None
    found = summary.harmful()
    click.echo(f"{len(found)} harmful of {len(summary.reversals)} reversals")
    for reversal in found:
        click.echo(ci.in_words(run_dir, reversal))
    if found:
        raise SystemExit(1)


def _session_steps(url: str, actions: Path | None, script: Path | None, pace: float | None, auto: int | None,
                   seed: int) -> Any:
    """The user steps from whichever of --actions, --script and --auto was given (none: page load only).

    A script or the auto-explorer drives its own synchronous Playwright page, so this runs
    before any asynchronous driver starts.
    """
    given = [name for name, value in (("--actions", actions), ("--script", script), ("--auto", auto))
             if value is not None]
    if len(given) > 1:
        raise click.UsageError(f"give at most one of --actions, --script and --auto (got {' and '.join(given)})")
    if pace is not None and script is None:
        raise click.UsageError("--pace sets the time between the actions of a --script; give --script too")
    try:
        if script is not None:
            steps: Any = actions_from_script(script, url, pace)
        elif auto is not None:
            steps = auto_actions(url, auto, seed)
        else:
            steps = _read_json(actions, "actions file") if actions else []
    except ValueError as error:
        if error.__cause__ is not None and click.get_current_context().find_root().params.get("debug"):
            traceback.print_exception(error.__cause__)  # the script's own traceback
        raise click.UsageError(str(error)) from None
    except BrowserNotFound as error:
        raise Failure(str(error)) from None
    _validate_actions(steps, actions or script or url)
    return steps


def _validate_actions(steps: Any, path: Path | str | None) -> None:
    try:
        parse_actions(steps)
    except ValueError as error:
        raise click.UsageError(f"{path}: {error}") from None


def _load_session(directory: Path) -> Session:
    try:
        return Session.load(directory)
    except SessionError as error:
        raise click.UsageError(str(error)) from None


@dataclass(frozen=True)
class _Outputs:
    """Where a sweep's closing lines go, and which CI files to write after it."""

    to_stderr: bool
    junit: Path | None
    sarif: Path | None
    fail_on: str = "harmful"


def _sweep_options(out_dir: Path, *, bound: int, strategy: str, max_sequences: int | None,
                   time_limit: float | None, mask: tuple[str, ...], mask_heap: tuple[str, ...], rules: str | None,
                   workers: int, cluster: str | None, resume: bool, progress: str | None, junit: Path | None,
                   sarif: Path | None, confirm: str = "harmful",
                   fail_on: str = "harmful") -> tuple[SweepOptions, Progress, _Outputs]:
    """The explore options of the command line, merged with the settings file and checked."""
    try:
        settings = load_settings()
        user_mask = NoiseMask.from_options(settings.mask_selectors + mask, settings.mask_heap + mask_heap)
        rule_names = [r.strip() for r in rules.split(",") if r.strip()] if rules else settings.rules
        if rule_names is not None:
            unknown = sorted(set(rule_names) - set(RULES))
            if unknown:
                raise ValueError(f"unknown rule(s) {', '.join(unknown)}; known: {', '.join(RULES)}")
    except (ValueError, ConfigError) as error:
        raise click.UsageError(str(error)) from None
    if resume:
        _note_stored_settings(out_dir, bound=bound, strategy=strategy, max_sequences=max_sequences,
                              time_limit=time_limit, rules=rule_names, mask=user_mask.to_json()["selectors"],
                              mask_heap=user_mask.to_json()["heap_paths"])
    options = SweepOptions(bound=bound, strategy=strategy, max_sequences=max_sequences, time_limit=time_limit,
                           mask=user_mask, rules=rule_names, workers=workers, cluster=cluster, resume=resume,
                           confirm=confirm)
    reporter = progress_for(progress or ("bar" if sys.stderr.isatty() else "quiet"))
    return options, reporter, _Outputs(progress == "json", junit, sarif, fail_on)


def _resume_command() -> str:
    """The command that continues the current one: its arguments and every option given on the
    command line (so that a sweep interrupted before its settings were stored goes on as the
    same sweep, and one that resumes records again as it would have), plus ``--resume``."""
    ctx = click.get_current_context()
    words = ["webr4", ctx.command_path.split()[-1]]
    for param in ctx.command.params:
        name, value = param.name or "", ctx.params.get(param.name or "")
        if isinstance(param, click.Argument):
            words.append(str(value))
        elif isinstance(param, click.Option) and name != "resume" \
                and ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE:
            if param.is_flag:
                words.append(param.opts[0] if value else param.secondary_opts[0])
            else:
                given: Any = value if param.multiple else (value,)
                for one in given:
                    words += [param.opts[0], str(one)]
    return shlex.join(words + ["--resume"])


def _interruptible(work: Callable[[], Coroutine[Any, Any, T]], out_dir: Path, resume_command: str) -> T:
    """Run a sweep; an interrupt, or a browser lost twice under it, says what was kept and how to
    go on."""
    try:
        return _run(work, out_dir)
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted; what was explored is kept in {out_dir}, continue with: "
                          f"{resume_command}") from None
    except BrowserLost as lost:
        raise Interrupted(f"interrupted: {lost}; what was explored is kept in {out_dir}, continue with: "
                          f"{resume_command}") from None


def _report(checked: Checked, out_dir: Path, *, progress: _Outputs) -> None:
    """The closing lines of a sweep and its CI files; exit status 1 when a reversal is harmful."""
    summary = checked.summary
    counts = ", ".join(f"{n} {verdict}" for verdict, n in sorted(summary.counts.items())) or "no reversals"
    click.echo(f"{summary.sequences} sequences in {summary.seconds:g} s: {counts} ({summary.stop_reason})",
               err=progress.to_stderr)
    if summary.confirmations:
        confirmed = ", ".join(f"{n} {status}" for status, n in sorted(summary.confirmations.items()))
        click.echo(f"in plain Chromium ({summary.confirm_seconds:g} s): {confirmed}", err=progress.to_stderr)
    click.echo(f"report: {checked.report}", err=progress.to_stderr)
    for path, write in ((progress.junit, ci.write_junit), (progress.sarif, ci.write_sarif)):
        if path is not None:
            try:
                click.echo(f"wrote {write(out_dir, path)}", err=progress.to_stderr)
            except OSError as error:
                raise Failure(f"cannot write {path}: {error.strerror}; choose another path") from None
    if summary.confirmed() if progress.fail_on == "confirmed" else summary.harmful():
        raise SystemExit(1)


def _note_stored_settings(out_dir: Path, **given: Any) -> None:
    """Say on stderr which settings given for a resumed sweep differ from the stored ones: the
    stored ones win, so that the sweep stays the one it was."""
    if not RunDir(out_dir).store.is_file():
        return  # RunStore.open says what is wrong
    try:
        store = RunStore.open(out_dir)
        try:
            stored = dict(store.get("settings") or {})
        finally:
            store.close()
    except StoreError as error:
        raise Failure(str(error)) from None
    except sqlite3.DatabaseError as error:
        raise Failure(str(damaged(RunDir(out_dir).store, error))) from None
    masks = stored.pop("mask", None) or {}
    stored.update(mask=masks.get("selectors", []), mask_heap=masks.get("heap_paths", []))
    _note_overridden("the stored settings", {name: (stored[name], value) for name, value in given.items()
                                             if name in stored})


def _note_overridden(whose: str, settings: dict[str, tuple[Any, Any]]) -> None:
    """Name on stderr, in one line, each option given (on the command line or in the settings
    file) whose value loses to ``whose``: ``settings`` maps an option's parameter name to (the
    value that wins, the value given)."""
    context = click.get_current_context()
    sources = (click.core.ParameterSource.COMMANDLINE, click.core.ParameterSource.DEFAULT_MAP)
    ignored = [f"{name.replace('_', '-')} {kept!r} (not {value!r})" for name, (kept, value) in settings.items()
               if context.get_parameter_source(name) in sources and _comparable(value) != _comparable(kept)]
    if ignored:
        click.echo(f"note: resuming with {whose}: {', '.join(ignored)}", err=True)


def _comparable(value: Any) -> Any:
    return list(value) if isinstance(value, (tuple, list)) else value


def _with_driver(work: Callable[[Driver], Awaitable[T]], run_dir: Path | None = None) -> T:
    """Run ``work`` with a browser; user-fixable failures become one-line errors (``run_dir``:
    the run whose store it reads, if any)."""
    async def go() -> T:
        async with Driver() as driver:
            return await work(driver)

    return _run(go, run_dir)


def _run(work: Callable[[], Coroutine[Any, Any, T]], run_dir: Path | None = None) -> T:
    """Run ``work`` to completion; user-fixable failures become one-line errors. ``run_dir`` is
    the run whose store ``work`` uses, if any: a store that turns out damaged is named as such."""
    try:
        try:
            with asyncio.Runner() as runner:
                quiet_lost_browser(runner.get_loop())
                return runner.run(interrupts.cancelled_by_signals(work()))
        except Exception:
            if interrupts.requested():  # failed because of the signal (it took the browser down too)
                raise KeyboardInterrupt from None
            raise
    except BrowserLost:
        raise  # the sweep stopped as interrupted: _interruptible says how to go on
    except NetworkError as error:
        raise Failure(f"{error}; check the URL and that the site is running") from None
    except Webr4Error as error:
        raise Failure(str(error)) from None
    except sqlite3.DatabaseError as error:
        if run_dir is None or isinstance(error, sqlite3.OperationalError):
            raise Failure(f"the run store failed: {_one_line(error)}; free space or choose another --out") from None
        raise Failure(str(damaged(RunDir(run_dir).store, error))) from None
    except sqlite3.Error as error:  # the run store: most often a full disk
        raise Failure(f"the run store failed: {_one_line(error)}; free space or choose another --out") from None
    except OSError as error:  # the output directory: unwritable, a file in the way, a full disk
        if error.filename is None:
            raise  # not about a file webr4 writes: the command's guard reports it as unexpected
        raise Failure(f"cannot write {error.filename}: {error.strerror}; choose another --out") from None


@main.group()
def sites() -> None:
    """The bundled sites with known races."""


@sites.command("list")
def sites_list() -> None:
    """Name, pattern and expected verdict of each bundled site."""
    for site in sorted(p for p in resource_dir("sites").iterdir() if (p / "expected.json").is_file()):
        expected = json.loads((site / "expected.json").read_text())
        verdict = "harmful" if expected.get("harmful") else "harmless"
        click.echo(f"{site.name:28} {verdict:9} {expected.get('pattern', '')}")


@sites.command("serve")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port on 127.0.0.1 (0: any free port).")
def sites_serve(port: int) -> None:
    """Serve the bundled sites on loopback until interrupted."""
    try:
        with serve(resource_dir("sites"), port) as base:
            click.echo(f"serving {resource_dir('sites')} at {base} (Ctrl-C to stop)")
            try:
                while True:
                    time.sleep(3600)
            except KeyboardInterrupt:
                pass
    except OSError as error:
        raise Failure(f"cannot serve on port {port}: {error.strerror}; try --port 0") from None


if __name__ == "__main__":
    main()
