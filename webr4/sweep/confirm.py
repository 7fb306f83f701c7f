"""Confirming a sweep's reversals in plain Chromium, after the sweep.

For each reversal asked for (``harmful``: those judged harmful; ``all``: every one), both orders of
its racing pair run in a stock context (:mod:`webr4.witness`) and the judgement goes into
``summary.json`` (the reversal's ``confirmation``), with the plain runs' screenshots in its
witness directory (``reversals/<id>/plain/``). A reversal already confirmed (a resumed sweep)
is not run again.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from playwright.async_api import Browser

from webr4.record.session import Session
from webr4.rundir import ReversalReport, RunDir, Summary
from webr4.state.noise import NoiseMask
from webr4.sweep.runfiles import RunFiles
from webr4.witness.confirm import NOT_FORCEABLE, Confirmation, PlainWitness, confirm
from webr4.witness.schedule import PageFacts

CONFIRM_CHOICES = ("none", "harmful", "all")
"""Which reversals are confirmed after a sweep (``--confirm``, ``confirm`` in the settings file)."""
FAIL_ON_CHOICES = ("harmful", "confirmed")
"""What makes ``explore`` and ``check`` exit with status 1 (``--fail-on``): any harmful reversal,
or only one plain Chromium confirmed."""


def wanted(reversal: ReversalReport, which: str) -> bool:
    """Whether ``which`` (one of :data:`CONFIRM_CHOICES`) asks for ``reversal`` to be confirmed."""
    return which == "all" or (which == "harmful" and reversal.verdict == "harmful")


async def confirm_run(browser: Browser, session: Session, out: Path, which: str = "harmful",
                      mask: NoiseMask = NoiseMask()) -> Summary:
    """Confirm the reversals ``which`` asks for in the run directory ``out``, explored from
    ``session``, in fresh contexts of ``browser``; returns the summary as rewritten. The
    comparison uses the run's noise mask and ``mask`` (the user's)."""
    run = RunDir(out)
    summary = run.read_summary()
    if which == "none":
        return summary
    started = time.monotonic()
    page = PageFacts.of_session(session.url, session.actions, session.files.network, session.run_limits.chunking)
    mask = run.read_noise() | mask
    with RunFiles(out) as files:
        for number, reversal in enumerate(summary.reversals):
            if not wanted(reversal, which) or reversal.confirmation is not None:
                continue
            parent, child = files.trace(reversal.parent), files.trace(reversal.id)
            if parent is None or child is None:
                confirmation = Confirmation(NOT_FORCEABLE, "the run keeps no trace of this reversal's sequences")
            else:
                witness = await confirm(browser, page, session.files.network, parent, child, reversal.first_id,
                                        reversal.second_id, reversal.verdict, reversal.differences, mask)
                _keep_screenshots(run, reversal.id, witness)
                confirmation = witness.confirmation
            summary.reversals[number] = replace(reversal, confirmation=confirmation.to_json())
            summary.confirm_seconds = round(summary.confirm_seconds + time.monotonic() - started, 2)
            started = time.monotonic()
            run.write_summary(summary)
    return summary


def _keep_screenshots(run: RunDir, index: int, witness: PlainWitness) -> None:
    """The plain runs' end screenshots, beside webr4's own in the reversal's witness directory."""
    files = run.witness(index)
    for path, plain in ((files.plain_parent_screenshot, witness.parent), (files.plain_child_screenshot, witness.child)):
        png = plain.state.screenshot_png() if plain is not None else None
        if png is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(png)
