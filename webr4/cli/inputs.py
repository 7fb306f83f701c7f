"""Reading what the user gave a command: the files it names (JSON, a sequence, actions, a HAR, a
session) and the steps of a recording (``--actions``, ``--script``, ``--auto``). Every failure
the user can fix becomes one line: a usage error, or a :class:`~webr4.cli.failures.Failure`."""

from __future__ import annotations

import json
import traceback
from pathlib import Path
from typing import Any

import click

from webr4.browser.actions import ActionError, UserAction, parse_actions
from webr4.browser.launch import BrowserNotFound
from webr4.browser.responses import HarError, ResponseStore
from webr4.cli.failures import Failure
from webr4.record.scripted import Steps, StepsError
from webr4.record.session import Session, SessionError
from webr4.record.steps import AutoExplore, Script, StepSource, user_steps
from webr4.rundir.execution_files import PlanError, plan_from_json


def read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise click.UsageError(f"cannot read {what} {path}: {error.strerror}") from None
    except ValueError as error:
        raise click.UsageError(f"{what} {path} is not valid JSON ({error})") from None


def load_plan(path: Path) -> list[str]:
    """The event ids of a sequence file (see :func:`~webr4.rundir.execution_files.plan_from_json`)."""
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
