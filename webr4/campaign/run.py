"""Running a campaign: every entry into a run of its own, ``campaign.json`` kept as each goes.

An entry to record (a :class:`~webr4.campaign.sources.Flow`) is checked by
:func:`~webr4.checking.check`, one recorded already (a :class:`~webr4.campaign.sources.Recorded`)
explored by :func:`~webr4.checking.explore_session` and reported by
:func:`~webr4.report.write.write_report`: ``RUN/sessions/<name>/`` is then what ``webr4 check``
or ``webr4 explore`` writes, which ``report``, ``export``, ``replay`` and ``witness`` read.

Without a cluster the entries run one after another, each with the sweep's own workers. With
one, they share a single connection to it and run side by side, as many at once as it has
workers, so that none of them idles while a sweep waits on its seed replays or its
confirmation.

An entry that fails with an error the user can act on (an unreachable site, a seed that does
not replay) is marked ``failed`` with its line and the others go on. An interrupt, or a browser
lost twice under a sweep, stops the campaign: the entries under way are marked
``interrupted``, and their runs, as every finished one, are kept for ``resume``, which runs the
entries not finished and nothing else.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from webr4.browser.controller import Limits
from webr4.campaign.sources import Entry, Recorded
from webr4.checking import SweepOptions, check, explore_session
from webr4.errors import Webr4Error
from webr4.report.campaign import write_campaign_report
from webr4.report.write import write_report
from webr4.rundir.campaign import (FAILED, FINISHED, INTERRUPTED, RUNNING, Campaign, CampaignDir, CampaignEntry,
                                   CampaignError)
from webr4.rundir.run import RunDir
from webr4.rundir.summary import Summary, SummaryError
from webr4.runlock import claim
from webr4.sweep.backends import DaskConnection
from webr4.sweep.plan_execution import BrowserLost
from webr4.sweep.progress import Progress, Quiet


def _quiet(name: str, side_by_side: bool) -> Progress:
    return Quiet()


@dataclass(frozen=True)
class CampaignOptions:
    """How every entry runs: the ``sweep`` (its settings, workers or cluster, confirmation), and
    for the entries to record their ``seed`` and ``limits``; ``progress`` makes each entry's
    reporter from its name and whether entries run side by side."""

    sweep: SweepOptions = SweepOptions()
    seed: int = 0
    limits: Limits = Limits()
    progress: Callable[[str, bool], Progress] = _quiet


async def run_campaign(source: str, entries: Sequence[Entry], out: Path, options: CampaignOptions = CampaignOptions(),
                       *, resume: bool = False) -> Campaign:
    """Run ``entries`` (read from ``source``) into the campaign directory ``out``, write its
    overview and return the campaign as ``campaign.json`` holds it.

    With ``resume``, the campaign in ``out`` goes on: its finished entries are kept as they are,
    the others continue their runs; ``entries`` must be the ones it was started with
    (:class:`~webr4.rundir.campaign.CampaignError` otherwise, before anything runs, as for a
    campaign in ``out`` without ``resume``). Raises :class:`~webr4.runlock.RunInUse` when another
    process is using ``out``.
    """
    with claim(out):
        files = CampaignDir(out)
        campaign = _begin(files, source, entries, resume)
        todo = [entry for entry in entries if campaign.entry(entry.name).status != FINISHED]
        try:
            if todo:
                async with _shared_cluster(options.sweep) as sweep:
                    at_once = sweep.connection.workers if sweep.connection is not None else 1
                    await _run_all(todo, files, campaign, replace(options, sweep=sweep), at_once)
            left = [entry for entry in campaign.entries if entry.status != FINISHED]
            campaign.status = FAILED if left else FINISHED
        finally:
            if campaign.status == RUNNING:
                campaign.status = INTERRUPTED
            files.write(campaign)
            write_campaign_report(out)
        return campaign


def _begin(files: CampaignDir, source: str, entries: Sequence[Entry], resume: bool) -> Campaign:
    """The campaign to run, stored as running: a new one, or with ``resume`` the one in ``files``."""
    started = Campaign(source, [CampaignEntry(entry.name, entry.source) for entry in entries])
    if files.is_campaign() and not resume:
        raise CampaignError(f"{files.directory} holds a campaign already; add --resume to finish it, "
                            "or choose another --out")
    if files.is_campaign():
        stored = files.read()
        if [(e.name, e.source) for e in stored.entries] != [(e.name, e.source) for e in started.entries]:
            raise CampaignError(f"{source} lists other entries than the campaign in {files.directory} was started "
                                "with; resume it with the same source, or choose another --out")
        started = stored
    started.status = RUNNING
    files.write(started)
    return started


@asynccontextmanager
async def _shared_cluster(sweep: SweepOptions) -> AsyncIterator[SweepOptions]:
    """``sweep`` with one connection to its cluster, if it has one, for every entry to share."""
    if not sweep.cluster or sweep.connection is not None:
        yield sweep
        return
    connection = await DaskConnection.open(sweep.cluster)
    try:
        yield replace(sweep, connection=connection)
    finally:
        await connection.close()


async def _run_all(todo: Sequence[Entry], files: CampaignDir, campaign: Campaign, options: CampaignOptions,
                   at_once: int) -> None:
    """Run ``todo``, ``at_once`` of them at a time, in order; the first failure that stops the
    campaign (an interrupt, a browser lost) stops the others too, and is raised."""
    slots = asyncio.Semaphore(at_once)

    async def one(entry: Entry) -> None:
        async with slots:
            await _run_entry(entry, files, campaign, options, at_once > 1)

    try:
        async with asyncio.TaskGroup() as group:
            for entry in todo:
                group.create_task(one(entry))
    except BaseExceptionGroup as failures:
        raise failures.exceptions[0] from None


async def _run_entry(entry: Entry, files: CampaignDir, campaign: Campaign, options: CampaignOptions,
                     side_by_side: bool) -> None:
    kept = campaign.entry(entry.name)
    run = files.run(kept)
    kept.status, kept.error = RUNNING, None
    files.write(campaign)
    progress = options.progress(entry.name, side_by_side)
    sweep = replace(options.sweep, resume=run.store.is_file())  # a run begun before goes on
    try:
        await _sweep(entry, run.directory, sweep, options, progress)
    except Exception as error:
        failed = isinstance(error, Webr4Error) and not isinstance(error, BrowserLost)
        _settle(kept, files, FAILED if failed else INTERRUPTED, str(error) if failed else None)
        if not failed:
            raise
    except BaseException:  # cancelled: the campaign is interrupted
        _settle(kept, files, INTERRUPTED)
        raise
    else:
        _settle(kept, files, FINISHED)
    finally:
        progress.stop()
        files.write(campaign)


async def _sweep(entry: Entry, out: Path, sweep: SweepOptions, options: CampaignOptions,
                 progress: Progress) -> Summary:
    work = entry.work
    if isinstance(work, Recorded):
        summary = await explore_session(work.session, out, sweep, progress=progress)
        write_report(out)
        return summary
    checked = await check(work.url, out, work.steps, seed=options.seed, limits=options.limits, options=sweep,
                          progress=progress)
    return checked.summary


def _settle(kept: CampaignEntry, files: CampaignDir, status: str, error: str | None = None) -> None:
    """Note in ``kept`` how its run ended (``status``, the ``error`` that failed it) and what its
    summary and report say, when it got that far."""
    run: RunDir = files.run(kept)
    try:
        summary = run.read_summary()
    except SummaryError:
        summary = None
    if summary is not None:
        report = run.report_page()
        kept.took(summary, f"{kept.run}/report/index.html" if report.is_file() else None)
    kept.status, kept.error = status, error
