"""What ``webr4 witness`` keeps of one reversal: regression tests and Playwright traces.

The generated tests (:func:`webr4.witness.export.generate`) run against the live app, for pytest
or Playwright Test; the offline pytest form serves the recorded responses from the session's HAR
(:func:`webr4.witness.export.write_pytest`), for pages whose third-party responses cannot be
reached, and so cannot see a fix; the traces hold both plain runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from playwright.async_api import Browser

from webr4.browser.driver_process import playwright_session
from webr4.browser.launch import launch
from webr4.errors import Webr4Error
from webr4.record.session import Session
from webr4.rundir.outputs import write_atomically
from webr4.rundir.run import RunDir
from webr4.rundir.summary import ReversalReport
from webr4.sweep.replay import find_reversal, stored_trace
from webr4.rundir.runfiles import RunFiles
from webr4.witness.confirm import PlainWitness
from webr4.witness.export import NoCheck, generate, race_test_of, write_pytest, write_test, write_traces
from webr4.witness.asserted_outcome import Read, reads_of
from webr4.witness.pagefacts import PageFacts
from webr4.witness.racetest import Unwritable
from webr4.witness.schedule import NotForceable, PlainSchedule, plain_schedules

class WitnessError(Webr4Error):
    """A reversal has no plain witness to export (one line)."""


@dataclass(frozen=True)
class Keep:
    """What to write of one reversal: the live tests (``pytest``, ``playwright_test``), the offline
    pytest test (``offline``: ``pytest`` in its HAR form) and the traces (``trace``)."""

    pytest: Path | None = None
    playwright_test: Path | None = None
    offline: bool = False
    trace: Path | None = None


def reversal_schedules(run_dir: Path, reversal_id: int) -> tuple[PlainSchedule, PlainSchedule, Session,
                                                                   ReversalReport]:
    """The plain schedules of reversal ``reversal_id`` of the run in ``run_dir`` (the parent's
    order, the reversed one), its session and its report; :class:`WitnessError` when no lever
    forces them."""
    summary, reversal = find_reversal(run_dir, reversal_id)
    run = RunDir(run_dir)
    session = Session.load(run.session(summary.session).directory)
    limits = session.run_limits
    page = PageFacts.of_session(session.url, session.actions, session.files.network, limits.chunking,
                                limits.service_workers)
    with RunFiles(run_dir) as files:
        parent, child = stored_trace(files, run, reversal.parent), stored_trace(files, run, reversal.id)
    schedules = plain_schedules(page, parent, child, reversal.first_id, reversal.second_id)
    if isinstance(schedules, NotForceable):
        raise WitnessError(f"reversal {reversal_id} cannot be forced in plain Chromium: {schedules.lever}")
    return schedules[0], schedules[1], session, reversal


async def export_witness(run_dir: Path, reversal_id: int, keep: Keep, browser: Browser | None = None) -> list[Path]:
    """Write what ``keep`` asks for of reversal ``reversal_id``; returns the paths written. The
    plain runs go to fresh contexts of ``browser``, else of a Chromium of their own."""
    parent, reversed_, session, reversal = reversal_schedules(run_dir, reversal_id)
    written: list[Path] = []
    if keep.pytest is not None and keep.offline:
        matched = (reversal.confirmation or {}).get("matched") or reversal.differences
        about = (f"{reversed_.order} must leave {session.url} as {parent.order} does "
                 f"(webr4 found: {reversal.verdict}, {', '.join(reversal.reasons) or 'no reason'})")
        written += write_pytest(keep.pytest, parent, reversed_, session.files.network, list(matched), about)
    live = [(path, language) for path, language in ((None if keep.offline else keep.pytest, "python"),
                                                    (keep.playwright_test, "typescript")) if path is not None]
    if not live and keep.trace is None:
        return written

    async def in_plain(plain: Browser) -> list[Path]:
        kept: list[Path] = []
        if live:
            try:
                test = await generate(plain, parent, reversed_, session.files.network, _end_doms(run_dir, reversal),
                                      test_name(live[0][0]))
            except (NoCheck, Unwritable) as error:
                raise WitnessError(f"no live test of reversal {reversal_id}: {error}; "
                                   "--pytest FILE --offline keeps it as recorded") from None
            kept += [write_test(path, test, language) for path, language in live]
        if keep.trace is not None:
            kept += await write_traces(plain, parent, reversed_, session.files.network, keep.trace)
        return kept

    if browser is not None:
        return written + await in_plain(browser)
    async with playwright_session() as playwright:
        own = await launch(playwright)
        try:
            return written + await in_plain(own)
        finally:
            await own.close()


def keep_regression_tests(run: RunDir, reversal: ReversalReport, witness: PlainWitness, reads: Sequence[Read]
                          ) -> list[Path]:
    """Write the tests of a confirmed reversal into its witness directory, both languages
    (:meth:`~webr4.rundir.run.Witness.regression_test`), with the race in one sentence beside
    them, for the report to show: from the confirmation's own plain runs, which read ``reads``
    (:func:`end_reads`). None when the race has no readable test (the reason goes there instead)."""
    files = run.witness(reversal.id)
    if witness.schedules is None or witness.parent is None or witness.child is None:
        return []
    parent, reversed_ = witness.schedules
    try:
        test = race_test_of(reversed_, reads, witness.parent, witness.child, "race")
    except (NoCheck, Unwritable) as error:
        write_atomically(files.no_test, f"{error}\n")
        return []
    write_atomically(files.story, test.sentence() + "\n")
    return [write_test(files.regression_test(language), test, language) for language in ("python", "typescript")]


def end_reads(run_dir: Path, reversal: ReversalReport) -> list[Read]:
    """What a generated test of ``reversal`` may check: where webr4's own ends of its sequences
    differ (none when the run keeps no end state)."""
    try:
        return reads_of(*_end_doms(run_dir, reversal))
    except WitnessError:
        return []


def _end_doms(run_dir: Path, reversal: ReversalReport) -> tuple[str, str]:
    """webr4's own DOM at the end of the parent's sequence and of the reversal's."""
    with RunFiles(run_dir) as files:
        states = files.state(reversal.parent), files.state(reversal.id)
    if states[0] is None or states[1] is None:
        raise WitnessError(f"the run keeps no end state of reversal {reversal.id}'s sequences")
    return states[0].dom, states[1].dom


def test_name(path: Path) -> str:
    """The test function's name from its file's (``test_add_item.py`` → ``add_item``)."""
    stem = path.name.split(".")[0].removeprefix("test_").removeprefix("test-")
    name = re.sub(r"\W+", "_", stem).strip("_").lower()
    return name if name and not name[0].isdigit() else f"race_{name}"
