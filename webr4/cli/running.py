"""Running a command's work to its end, and reading what the user gave it: every failure the
user can fix becomes one line (:class:`~webr4.cli.failures.Failure` or a usage error)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import traceback
from pathlib import Path
from typing import Any, Awaitable, Callable, Coroutine, TypeVar

import click

from webr4 import interrupts
from webr4.browser.actions import ActionError, UserAction, parse_actions
from webr4.browser.driver import Driver
from webr4.browser.launch import BrowserNotFound
from webr4.browser.network import NetworkError
from webr4.browser.responses import HarError, ResponseStore
from webr4.browser.teardown import quiet_lost_browser
from webr4.cli.failures import Failure, Interrupted, one_line
from webr4.errors import Webr4Error
from webr4.record.scripted import Steps, StepsError
from webr4.record.session import Session, SessionError
from webr4.record.steps import AutoExplore, Script, StepSource, user_steps
from webr4.rundir.execution import PlanError, plan_from_json
from webr4.rundir.run import RunDir
from webr4.sweep.execution import BrowserLost
from webr4.rundir.store import damaged

T = TypeVar("T")


def read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise click.UsageError(f"cannot read {what} {path}: {error.strerror}") from None
    except ValueError as error:
        raise click.UsageError(f"{what} {path} is not valid JSON ({error})") from None


def load_plan(path: Path) -> list[str]:
    """The event ids of a sequence file (see :func:`~webr4.rundir.execution.plan_from_json`)."""
    try:
        return plan_from_json(read_json(path, "sequence file"))
    except PlanError as error:
        raise click.UsageError(f"{path}: {error}") from None


def load_actions(path: Path) -> list[UserAction]:
    try:
        return parse_actions(read_json(path, "actions file"))
    except ActionError as error:
        raise click.UsageError(f"{path}: {error}") from None


def load_store(path: Path) -> ResponseStore:
    try:
        return ResponseStore.load_har(path)
    except HarError as error:
        raise click.UsageError(str(error)) from None


def load_session(directory: Path) -> Session:
    try:
        return Session.load(directory)
    except SessionError as error:
        raise click.UsageError(str(error)) from None


def session_steps(url: str, actions: Path | None, script: Path | None, pace: float | None, auto: int | None,
                  seed: int) -> Steps:
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
    source: StepSource
    if script is not None:
        source = Script(script, pace)
    elif auto is not None:
        source = AutoExplore(auto, seed)
    else:
        source = read_json(actions, "actions file") if actions else []
    try:
        return user_steps(url, source)
    except StepsError as error:
        if error.__cause__ is not None and click.get_current_context().find_root().params.get("debug"):
            traceback.print_exception(error.__cause__)  # the script's own traceback
        raise click.UsageError(str(error)) from None
    except ActionError as error:
        raise click.UsageError(f"{actions or script or url}: {error}") from None
    except BrowserNotFound as error:
        raise Failure(str(error)) from None


def interruptible(work: Callable[[], Coroutine[Any, Any, T]], out_dir: Path, resume_command: str) -> T:
    """Run a sweep; an interrupt, or a browser lost twice under it, says what was kept and how to
    go on."""
    try:
        return run(work, out_dir)
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted; what was explored is kept in {out_dir}, continue with: "
                          f"{resume_command}") from None
    except BrowserLost as lost:
        raise Interrupted(f"interrupted: {lost}; what was explored is kept in {out_dir}, continue with: "
                          f"{resume_command}") from None


def with_driver(work: Callable[[Driver], Awaitable[T]], run_dir: Path | None = None) -> T:
    """Run ``work`` with a browser; user-fixable failures become one-line errors (``run_dir``:
    the run whose store it reads, if any)."""
    async def go() -> T:
        async with Driver() as driver:
            return await work(driver)

    return run(go, run_dir)


def run(work: Callable[[], Coroutine[Any, Any, T]], run_dir: Path | None = None) -> T:
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
        raise  # the sweep stopped as interrupted: interruptible says how to go on
    except NetworkError as error:
        raise Failure(f"{error}; check the URL and that the site is running") from None
    except Webr4Error as error:
        raise Failure(str(error)) from None
    except sqlite3.DatabaseError as error:
        if run_dir is None or isinstance(error, sqlite3.OperationalError):
            raise Failure(f"the run store failed: {one_line(error)}; free space or choose another --out") from None
        raise Failure(str(damaged(RunDir(run_dir).store, error))) from None
    except sqlite3.Error as error:  # the run store: most often a full disk
        raise Failure(f"the run store failed: {one_line(error)}; free space or choose another --out") from None
    except OSError as error:  # the output directory: unwritable, a file in the way, a full disk
        if error.filename is None:
            raise  # not about a file webr4 writes: the command's guard reports it as unexpected
        raise Failure(f"cannot write {error.filename}: {error.strerror}; choose another --out") from None
