"""Confirming a sweep's reversals in plain Chromium, after the sweep, and exporting one.

(A sweep with a core to spare confirms them while it goes on, one reversal at a time with
:func:`confirm_reversal`: :mod:`webr4.sweep.early`; what is left is confirmed here.)

For each reversal asked for (``harmful``: those judged harmful; ``all``: every one), both orders of
its racing pair run in a stock context (:mod:`webr4.witness`) and the judgement goes into
``summary.json`` (the reversal's ``confirmation``), with the plain runs' screenshots in its
witness directory (``reversals/<id>/plain/``), and into the run's store with the reversal's
report, so that a reversal already confirmed is not run again, in a resumed sweep too.
:func:`export_witness` writes what ``webr4 witness`` keeps of one reversal: a standalone pytest
test and Playwright traces (:mod:`webr4.witness.export`).
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from playwright.async_api import Browser, async_playwright

from webr4.browser.launch import launch
from webr4.errors import Webr4Error
from webr4.record.session import Session
from webr4.rundir.run import RunDir
from webr4.rundir.summary import ReversalReport, Summary
from webr4.state.noise import NoiseMask
from webr4.sweep.replay import find_reversal, stored_trace
from webr4.sweep.progress import CONFIRMING, Progress, Quiet
from webr4.sweep.runfiles import RunFiles
from webr4.sweep.store import RunStore
from webr4.witness.confirm import NOT_FORCEABLE, Confirmation, PlainWitness, confirm
from webr4.witness.export import write_pytest, write_traces
from webr4.witness.pagefacts import PageFacts
from webr4.trace import Trace
from webr4.witness.schedule import NotForceable, PlainSchedule, plain_schedules

CONFIRM_CHOICES = ("none", "harmful", "all")
"""Which reversals are confirmed after a sweep (``--confirm``, ``confirm`` in the settings file)."""
FAIL_ON_CHOICES = ("harmful", "confirmed")
"""What makes ``explore`` and ``check`` exit with status 1 (``--fail-on``): any harmful reversal,
or only one plain Chromium confirmed."""


class UnknownConfirm(Webr4Error, ValueError):
    """A choice of reversals to confirm that is none of :data:`CONFIRM_CHOICES`."""


def wanted(reversal: ReversalReport, which: str) -> bool:
    """Whether ``which`` (one of :data:`CONFIRM_CHOICES`) asks for ``reversal`` to be confirmed."""
    return which == "all" or (which == "harmful" and reversal.verdict == "harmful")


def keep_confirmation(run: RunDir, summary: Summary, number: int, confirmation: Confirmation) -> None:
    """Put ``confirmation`` into reversal ``number`` of ``summary`` (the caller writes it) and into
    the run's store, where a resumed sweep finds it with the reversal's report."""
    reversal = summary.reversals[number]
    summary.reversals[number] = replace(reversal, confirmation=confirmation.to_json())
    if run.store.is_file():
        store = RunStore.open(run.directory)
        try:
            store.confirmed(reversal.index, confirmation.to_json())
        finally:
            store.close()


async def confirm_run(browser: Browser, session: Session, out: Path, which: str = "harmful",
                      mask: NoiseMask = NoiseMask(), progress: Progress = Quiet()) -> Summary:
    """Confirm the reversals ``which`` asks for in the run directory ``out``, explored from
    ``session``, in fresh contexts of ``browser``; returns the summary as rewritten. The
    comparison uses the run's noise mask and ``mask`` (the user's); ``progress`` hears of each one."""
    run = RunDir(out)
    summary = run.read_summary()
    if which == "none":
        return summary
    started = time.monotonic()
    limits = session.run_limits
    page = PageFacts.of_session(session.url, session.actions, session.files.network, limits.chunking,
                                limits.service_workers)
    mask = run.read_noise() | mask
    progress.phase(CONFIRMING, sum(wanted(r, which) and r.confirmation is None for r in summary.reversals))
    with RunFiles(out) as files:
        for number, reversal in enumerate(summary.reversals):
            if not wanted(reversal, which) or reversal.confirmation is not None:
                continue
            parent, child = files.trace(reversal.parent), files.trace(reversal.id)
            confirmation = await confirm_reversal(browser, page, session, run, reversal, parent, child, mask)
            keep_confirmation(run, summary, number, confirmation)
            summary.confirm_seconds = round(summary.confirm_seconds + time.monotonic() - started, 2)
            started = time.monotonic()
            run.write_summary(summary)
            progress.confirmed(reversal.id, confirmation.to_json())
    progress.stop()
    return summary


async def confirm_reversal(browser: Browser, page: PageFacts, session: Session, run: RunDir,
                           reversal: ReversalReport, parent: Trace | None, child: Trace | None,
                           mask: NoiseMask) -> Confirmation:
    """Run ``reversal``'s two orders in fresh contexts of ``browser`` and judge them, its parent's
    and its own traces given (None: the run keeps none, and nothing can be forced); the plain
    runs' screenshots go into its witness directory of ``run``."""
    if parent is None or child is None:
        return Confirmation(NOT_FORCEABLE, "the run keeps no trace of this reversal's sequences")
    witness = await confirm(browser, page, session.files.network, parent, child, reversal.first_id,
                            reversal.second_id, reversal.verdict, reversal.differences, mask)
    _keep_screenshots(run, reversal.id, witness)
    return witness.confirmation


def _keep_screenshots(run: RunDir, index: int, witness: PlainWitness) -> None:
    """The plain runs' end screenshots, beside webr4's own in the reversal's witness directory."""
    files = run.witness(index)
    for path, plain in ((files.plain_parent_screenshot, witness.parent), (files.plain_child_screenshot, witness.child)):
        png = plain.state.screenshot_png() if plain is not None else None
        if png is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(png)


class WitnessError(Webr4Error):
    """A reversal has no plain witness to export (one line)."""


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


async def export_witness(run_dir: Path, reversal_id: int, *, pytest_file: Path | None = None,
                         trace_file: Path | None = None) -> list[Path]:
    """Write reversal ``reversal_id``'s standalone pytest test (and its HAR beside it) to
    ``pytest_file`` and the Playwright traces of both plain runs at ``trace_file``; returns the
    paths written."""
    parent, reversed_, session, reversal = reversal_schedules(run_dir, reversal_id)
    written: list[Path] = []
    if pytest_file is not None:
        matched = (reversal.confirmation or {}).get("matched") or reversal.differences
        about = (f"{reversed_.order} must leave {session.url} as {parent.order} does "
                 f"(webr4 found: {reversal.verdict}, {', '.join(reversal.reasons) or 'no reason'})")
        written += write_pytest(pytest_file, parent, reversed_, session.files.network, list(matched), about)
    if trace_file is not None:
        async with async_playwright() as playwright:
            browser = await launch(playwright)
            try:
                written += await write_traces(browser, parent, reversed_, session.files.network, trace_file)
            finally:
                await browser.close()
    return written
