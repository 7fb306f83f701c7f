"""A whole check in one call: record a page, explore its conflict reversals, write the report.

This is what ``webr4 check``, the pytest plugin and ``make demo`` do; each of them adds only its
own way of asking (options, a marker, a bundled site) and of answering (exit status, a failed
test, a printed path). Failures the user can act on raise :class:`~webr4.errors.Webr4Error`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path


from webr4.browser.driver_process import playwright_session
from webr4.browser.limits import Limits
from webr4.browser.driver import Driver
from webr4.browser.launch import launch
from webr4.report.write import write_report
from webr4.rundir.run import RunDir
from webr4.rundir.summary import Summary
from webr4.runlock import claim
from webr4.sweep.backends import Backend, DaskCluster, DaskConnection, WorkerProcesses
from webr4.sweep.confirm import CONFIRM_CHOICES, UnknownConfirm, confirm_run, wanted
from webr4.sweep.early_witness import DriverBrowser, EarlyWitness, LaunchedBrowser, overlaps
from webr4.sweep.explore import explore, reserve
from webr4.sweep.progress import RECORDING, Progress, Quiet
from webr4.sweep.settings import SweepSettings
from webr4.record.scripted import Steps
from webr4.record.session import Session, record
from webr4.record.steps import StepSource, user_steps


@dataclass(frozen=True)
class Checked:
    """The outcome of :func:`check`: the sweep's summary and the report's index page."""

    summary: Summary
    report: Path


@dataclass(frozen=True)
class SweepOptions:
    """A sweep's ``settings`` (what it explores, stored in the run: see
    :class:`~webr4.sweep.settings.SweepSettings`), and how it is run: ``workers`` processes with a
    browser each, or a Dask cluster at ``cluster`` (``local:N``); with ``resume``, the sweep stored
    in the run continues with its own settings; which reversals are then confirmed in plain
    Chromium (``confirm``: ``none``, ``harmful``, ``all``; see :mod:`webr4.sweep.confirm`; any
    other raises :class:`~webr4.sweep.confirm.UnknownConfirm`). A ``connection`` to the cluster
    at ``cluster``, when given, is one several sweeps share (a campaign's): the sweep runs on it
    and leaves it open; else the sweep connects to ``cluster`` itself and closes it after."""

    settings: SweepSettings = SweepSettings()
    workers: int = 1
    cluster: str | None = None
    resume: bool = False
    confirm: str = "harmful"
    connection: DaskConnection | None = None

    def __post_init__(self) -> None:
        if self.confirm not in CONFIRM_CHOICES:
            raise UnknownConfirm(f"unknown confirm {self.confirm!r}; choose one of {', '.join(CONFIRM_CHOICES)}")


async def explore_session(session: Session, out: Path, options: SweepOptions = SweepOptions(), *,
                          progress: Progress = Quiet(), driver: Driver | None = None) -> Summary:
    """Explore ``session`` into the run directory ``out`` on the backend ``options`` ask for.

    One worker runs the executions in this process, in ``driver`` when given (it stays open), else
    in a browser started and closed here. The reversals ``options.confirm`` names are confirmed
    in plain Chromium: while the sweep goes on when it leaves a core spare
    (:mod:`webr4.sweep.early_witness`), in ``driver``'s browser or one started for it; whatever is left
    after the sweep, in ``driver``'s browser while it lives, else one started for it. Raises
    :class:`~webr4.runlock.RunInUse` when another process is using ``out``.
    """
    with claim(out):
        if _in_process(options) and driver is None:
            async with Driver() as own:
                return await _explore_and_confirm(session, out, options, progress, own)
        return await _explore_and_confirm(session, out, options, progress, driver)


def _in_process(options: SweepOptions) -> bool:
    return not options.cluster and options.workers <= 1


async def _explore_and_confirm(session: Session, out: Path, options: SweepOptions, progress: Progress,
                               driver: Driver | None) -> Summary:
    async with _early_witness(session, out, options, progress, driver) as witness:
        summary = await _explore(session, out, options, progress, driver, witness)
        if witness is not None:
            await witness.finish(summary)
    if not any(wanted(r, options.confirm) and r.confirmation is None for r in summary.reversals):
        return summary
    if driver is not None and driver.connected:  # a browser that died under the sweep was replaced there
        return await confirm_run(driver.browser, session, out, options.confirm, options.settings.mask, progress)
    async with playwright_session() as playwright:
        browser = await launch(playwright)
        try:
            return await confirm_run(browser, session, out, options.confirm, options.settings.mask, progress)
        finally:
            await browser.close()


@asynccontextmanager
async def _early_witness(session: Session, out: Path, options: SweepOptions, progress: Progress,
                         driver: Driver | None) -> AsyncIterator[EarlyWitness | None]:
    """The witness that confirms while the sweep goes on, when the sweep leaves a core for it
    (:func:`~webr4.sweep.early_witness.overlaps`; a cluster's never does), else None; stopped at the end."""
    if options.confirm == "none" or options.cluster or not overlaps(options.workers):
        yield None
        return
    source = DriverBrowser(driver) if driver is not None else LaunchedBrowser()
    witness = EarlyWitness(source, session, RunDir(out), options.confirm, options.settings.mask, progress)
    try:
        yield witness
    finally:
        await witness.cancel()
        if isinstance(source, LaunchedBrowser):
            await source.close()


async def _explore(session: Session, out: Path, options: SweepOptions, progress: Progress,
                   driver: Driver | None, witness: EarlyWitness | None) -> Summary:
    if _in_process(options):
        assert driver is not None, "explore_session opens a driver for a sweep in this process"
        return await explore(driver, session, out, options.settings, resume=options.resume, progress=progress,
                             witness=witness)
    backend: Backend
    if options.connection is not None:
        backend = await options.connection.backend(session)
    elif options.cluster:
        backend = await DaskCluster.connect(options.cluster, session)
    else:
        backend = WorkerProcesses(session, options.workers)
    try:
        return await explore(backend, session, out, options.settings, resume=options.resume, progress=progress,
                             witness=witness)
    finally:
        await backend.close()


async def check(url: str, out: Path, actions: StepSource = (), *, seed: int = 0,
                limits: Limits = Limits(), options: SweepOptions = SweepOptions(),
                progress: Progress = Quiet()) -> Checked:
    """Record ``url`` with the user ``actions`` (steps as in ``--actions``, or a
    :class:`~webr4.record.steps.Script` or :class:`~webr4.record.steps.AutoExplore` to take them
    from) into ``out/session``, explore it into the run directory ``out`` and write
    ``out/report/index.html``.

    The sweep's settings are stored in ``out`` first, before recording. With ``options.resume`` a
    session already recorded in ``out/session`` is explored instead of recording again (``url``,
    ``actions``, ``seed`` and ``limits`` are then the session's own), and the sweep stored in
    ``out`` continues where it stopped, with its stored settings, whenever it was interrupted.
    Raises :class:`~webr4.runlock.RunInUse` when another process is using ``out``.
    """
    with claim(out):
        return await _check(url, out, actions, seed, limits, options, progress)


async def _check(url: str, out: Path, actions: StepSource, seed: int, limits: Limits,
                 options: SweepOptions, progress: Progress) -> Checked:
    run = RunDir(out)
    session_dir = run.own_session.directory
    recorded = options.resume and run.own_session.recorded
    if not (options.resume and run.store.is_file()):  # a new sweep: its settings are stored before it starts
        reserve(out, session_dir, options.settings).close()
        options = replace(options, resume=True)
    in_process = _in_process(options)
    steps: Steps = []
    if not recorded:
        progress.phase(RECORDING)  # taking the steps and starting the browser are part of it
        steps = await asyncio.to_thread(user_steps, url, actions)  # a script drives a synchronous page
    async with Driver() as driver:
        if recorded:
            session = Session.load(session_dir)
        else:
            session = await record(driver, url, session_dir, steps, seed=seed, limits=limits)
        if in_process:
            summary = await explore_session(session, out, options, progress=progress, driver=driver)
    if not in_process:  # the workers' browsers do the work; this one is closed first
        summary = await explore_session(session, out, options, progress=progress)
    return Checked(summary, write_report(out))
