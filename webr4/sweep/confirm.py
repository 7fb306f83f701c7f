"""Confirming a sweep's reversals in plain Chromium, after the sweep, and exporting one.

(A sweep with a core to spare confirms them while it goes on, one reversal at a time with
:func:`confirm_reversal`: :mod:`webr4.sweep.early_witness`; what is left is confirmed here.)

For each reversal asked for (``harmful``: those judged harmful; ``all``: every one), both orders of
its racing pair run in a stock context (:mod:`webr4.witness`) and the judgement goes into
``summary.json`` (the reversal's ``confirmation``), with the plain runs' screenshots in its
witness directory (``reversals/<id>/plain/``), and into the run's store with the reversal's
report, so that a reversal already confirmed is not run again, in a resumed sweep too.
What ``webr4 witness`` keeps of one reversal is written by :mod:`webr4.sweep.regression`.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from playwright.async_api import Browser

from webr4.errors import Webr4Error
from webr4.record.session import Session
from webr4.rundir.run import RunDir
from webr4.rundir.summary import ReversalReport, Summary
from webr4.state.noise import NoiseMask
from webr4.sweep.progress import CONFIRMING, Progress, Quiet
from webr4.rundir.runfiles import RunFiles
from webr4.rundir.store import RunStore
from webr4.sweep.regression import end_reads, keep_regression_tests
from webr4.witness.confirm import CONFIRMED, NOT_FORCEABLE, Confirmation, PlainWitness, confirm
from webr4.witness.pagefacts import PageFacts
from webr4.trace import Trace

CONFIRM_CHOICES = ("none", "harmful", "all")
"""Which reversals are confirmed after a sweep (``--confirm``, ``confirm`` in the settings file)."""
FAIL_ON_CHOICES = ("harmful", "confirmed")
"""What makes ``explore`` and ``check`` exit with status 1 (``--fail-on``): any harmful reversal,
or only one plain Chromium confirmed (:meth:`~webr4.rundir.summary.Summary.confirmed`: never one
``confirmed-extreme``, whose order needs timing no network or person produces)."""


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
    reads = end_reads(run.directory, reversal) if reversal.verdict == "harmful" else []
    witness = await confirm(browser, page, session.files.network, parent, child, reversal.first_id,
                            reversal.second_id, reversal.verdict, reversal.differences, mask,
                            [read.to_json() for read in reads])
    _keep_screenshots(run, reversal.id, witness)
    if witness.confirmation.status == CONFIRMED:
        keep_regression_tests(run, replace(reversal, confirmation=witness.confirmation.to_json()), witness, reads)
    return witness.confirmation


def _keep_screenshots(run: RunDir, index: int, witness: PlainWitness) -> None:
    """The plain runs' end screenshots, beside webr4's own in the reversal's witness directory."""
    files = run.witness(index)
    for path, plain in ((files.plain_parent_screenshot, witness.parent), (files.plain_child_screenshot, witness.child)):
        png = plain.state.screenshot_png() if plain is not None else None
        if png is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(png)
