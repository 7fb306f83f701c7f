"""``webr4 explore`` and ``check``: a session's reversals explored and judged (``check`` records the
session first), the report written, and the closing lines and exit status of a sweep."""

from __future__ import annotations

import sqlite3
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from webr4.checking import Checked, SweepOptions, check, explore_session
from webr4.cli.failures import Failure
from webr4.cli.explore_options import explore_options, settle_conflicts
from webr4.cli.options import WEB_URL, execution_limits, record_options
from webr4.cli.inputs import load_session, session_steps
from webr4.cli.work import interruptible
from webr4.config import load_settings
from webr4.errors import Webr4Error
from webr4.report import ci
from webr4.report.write import write_report
from webr4.rundir.outputs import Output, OutputError, check_outputs
from webr4.rundir.run import RunDir
from webr4.runlock import RunInUse, claim
from webr4.state.noise import NoiseMask
from webr4.sweep.progress import Progress, progress_for
from webr4.sweep.settings import SweepSettings
from webr4.rundir.store import RunStore, StoreError, damaged


@click.command("explore")
@click.argument("session_dir", metavar="SESSION", type=click.Path(path_type=Path, file_okay=False))
@click.option("--out", "out_dir", type=click.Path(path_type=Path), required=True, help="Run directory.")
@explore_options
def explore_command(session_dir: Path, out_dir: Path, **sweep: Any) -> None:
    """Explore the reversals of a recorded SESSION and classify each one.

    Exits with status 1 when a reversal is judged harmful.
    """
    session = load_session(session_dir)
    _refuse_foreign(out_dir)
    resume = resume_command()
    options, progress, outputs = sweep_options(out_dir, keep=(out_dir, session_dir),
                                                 **settle_conflicts(sweep))

    async def explore_and_report() -> Checked:
        summary = await explore_session(session, out_dir, options, progress=progress)
        return Checked(summary, write_report(out_dir))

    try:
        checked = interruptible(explore_and_report, out_dir, resume)
    finally:
        progress.stop()  # a live bar lets go of the terminal before the closing lines, however it ended
    _report(checked, out_dir, progress=outputs)


def _refuse_foreign(out_dir: Path) -> None:
    """Refuse to write a run into a directory that holds something else (see
    :meth:`~webr4.rundir.run.RunDir.is_run`): webr4 never overwrites files it did not write. A
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


@click.command("check")
@click.argument("url", type=WEB_URL)
@click.option("--out", "out_dir", type=click.Path(path_type=Path), required=True,
              help="Run directory (the session goes to RUN/session).")
@record_options
@explore_options
def check_command(url: str, out_dir: Path, actions: Path | None, script: Path | None, pace: float | None,
                  auto: int | None, seed: int, horizon: float, max_events: int, event_timeout: float,
                  parse_chunks: str, chunk_kb: int, step_wait: float, block_service_workers: bool,
                  **sweep: Any) -> None:
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
        session = load_session(session_dir)
        if session.url != url:
            click.echo(f"note: resuming the session recorded from {session.url}; the URL given ({url}) is ignored",
                       err=True)
        limits = session.run_limits
        _note_overridden("the recorded session's settings", {
            "seed": (session.seed, seed), "parse_chunks": (limits.parse_chunks, parse_chunks),
            "chunk_kb": (limits.chunk_kb, chunk_kb), "horizon": (limits.horizon_ms, horizon),
            "max_events": (limits.max_events, max_events), "event_timeout": (limits.event_timeout_s, event_timeout),
            "step_wait": (limits.step_wait_ms, step_wait),
            "block_service_workers": (limits.service_workers == "block", block_service_workers)})
        given = [f"--{name}" for name, value in (("actions", actions), ("script", script), ("auto", auto))
                 if value is not None]
        if given:
            click.echo(f"note: resuming with the recorded session's user actions; {' and '.join(given)} "
                       "is ignored", err=True)
    else:
        steps = session_steps(url, actions, script, pace, auto, seed)
    resume = resume_command()
    options, progress, outputs = sweep_options(out_dir, keep=(out_dir,), **settle_conflicts(sweep))
    limits = execution_limits(horizon, max_events, event_timeout, parse_chunks, chunk_kb, step_wait,
                              block_service_workers)
    try:
        checked = interruptible(lambda: check(url, out_dir, steps, seed=seed, limits=limits, options=options,
                                               progress=progress), out_dir, resume)
    finally:
        progress.stop()  # a live bar lets go of the terminal before the closing lines, however it ended
    _report(checked, out_dir, progress=outputs)


@dataclass(frozen=True)
class SweepOutputs:
    """Where a sweep's closing lines go, and which CI files to write after it."""

    to_stderr: bool
    junit: Path | None
    sarif: Path | None
    fail_on: str = "harmful"


def sweep_options(out_dir: Path, *, keep: tuple[Path, ...], bound: int, strategy: str, max_sequences: int | None,
                  time_limit: float | None, budget: float | None, mask: tuple[str, ...], mask_heap: tuple[str, ...],
                  rules: str | None, workers: int, cluster: str | None, resume: bool, progress: str | None,
                  junit: Path | None, sarif: Path | None, force: bool = False, confirm: str = "harmful",
                  fail_on: str = "harmful", exhaustive: bool = False) -> tuple[SweepOptions, Progress, SweepOutputs]:
    """The explore options of the command line, merged with the settings file (their conflicts
    settled by :func:`~webr4.cli.explore_options.settle_conflicts`) and checked, the CI files among
    them before anything is written (``keep``: the run and session directories).

    With ``--budget``, ``--bound`` (given on the command line or in the settings file) is the
    highest bound explored; without one, bounds go up while the budget lasts."""
    try:
        check_outputs([Output(option, path, option.removeprefix("--"))
                       for option, path in (("--junit", junit), ("--sarif", sarif)) if path is not None],
                      keep=keep, force=force)
    except OutputError as error:
        raise click.UsageError(str(error)) from None
    given_rules = tuple(r.strip() for r in rules.split(",") if r.strip()) if rules else None
    try:
        file = load_settings()
        cap = bound if budget is None else _budget_cap(bound)
        settings = SweepSettings.from_settings(
            file, mask=NoiseMask.from_options(mask, mask_heap), bound=cap, strategy=strategy,
            max_sequences=max_sequences, time_limit=time_limit, budget=budget, exhaustive=exhaustive,
            **({"rules": given_rules} if given_rules is not None else {}))
    except Webr4Error as error:
        raise click.UsageError(str(error)) from None
    if resume:
        _note_stored_settings(out_dir, settings)
    options = SweepOptions(settings, workers=workers, cluster=cluster, resume=resume, confirm=confirm)
    reporter = progress_for(progress or ("bar" if sys.stderr.isatty() else "quiet"))
    return options, reporter, SweepOutputs(progress == "json", junit, sarif, fail_on)


def _budget_cap(bound: int) -> int | None:
    """The highest bound a ``--budget`` sweep explores: ``--bound`` when given (on the command line
    or in the settings file), else none."""
    given = click.get_current_context().get_parameter_source("bound")
    return None if given == click.core.ParameterSource.DEFAULT else bound


def resume_command() -> str:
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


def _report(checked: Checked, out_dir: Path, *, progress: SweepOutputs) -> None:
    """The closing lines of a sweep and its CI files; exit status 1 when a reversal is harmful."""
    summary = checked.summary
    for line in summary.closing_lines():
        click.echo(line, err=progress.to_stderr)
    click.echo(f"report: {checked.report}", err=progress.to_stderr)
    for path, write in ((progress.junit, ci.write_junit), (progress.sarif, ci.write_sarif)):
        if path is not None:
            try:
                click.echo(f"wrote {write(out_dir, path)}", err=progress.to_stderr)
            except OSError as error:
                raise Failure(f"cannot write {path}: {error.strerror}; choose another path") from None
    if summary.confirmed() if progress.fail_on == "confirmed" else summary.harmful():
        raise SystemExit(1)


def _note_stored_settings(out_dir: Path, settings: SweepSettings) -> None:
    """Say on stderr which ``settings`` given for a resumed sweep differ from the stored ones: the
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
    given = settings.to_json()
    given.pop("exhaustive")  # it wins over the stored settings: it runs what a grouped sweep left
    for values in (stored, given):  # the mask's parts are the options --mask and --mask-heap
        masks = values.pop("mask", None) or {}
        values.update(mask=masks.get("selectors", []), mask_heap=masks.get("heap_paths", []))
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
