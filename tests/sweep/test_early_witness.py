"""Confirming in plain Chromium while the sweep goes on: only with a core beyond the sweep's
workers, each witness starting once its reversal is judged."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import expected
from webr4.browser.driver import Driver
from webr4.checking import SweepOptions, explore_session
from webr4.record.session import Session, record
from webr4.sweep import early_witness
from webr4.sweep.progress import JsonLines
from webr4.sweep.settings import SweepSettings
from webr4.witness.confirm import Confirmation


def test_a_sweep_overlaps_its_confirmation_only_with_a_core_beyond_its_workers() -> None:
    assert early_witness.overlaps(1, cores=2)
    assert early_witness.overlaps(3, cores=8)
    assert not early_witness.overlaps(2, cores=2)
    assert not early_witness.overlaps(1, cores=1)


async def _sweep(driver: Driver, session: Session, out: Path, monkeypatch: pytest.MonkeyPatch,
                 resume: bool = False) -> list[str]:
    """The progress events of a sweep of ``session`` (or of resuming it) confirming every reversal,
    with ``witness`` where each witness started."""
    stream = io.StringIO()
    confirm_reversal = early_witness.confirm_reversal

    async def noted(*arguments: Any) -> Confirmation:
        stream.write('{"event": "witness"}\n')
        return await confirm_reversal(*arguments)

    monkeypatch.setattr(early_witness, "confirm_reversal", noted)
    options = SweepOptions(SweepSettings(max_sequences=3), confirm="all", resume=resume)
    summary = await explore_session(session, out, options, progress=JsonLines(stream), driver=driver)
    assert summary.sequences == 3 and all(r.confirmation is not None for r in summary.reversals)
    return [json.loads(line)["event"] for line in stream.getvalue().splitlines()]


@pytest.mark.browser
def test_a_witness_starts_during_the_sweep_when_a_core_is_spare(sites_url, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(early_witness, "usable_cores", lambda: 2)

    async def go() -> tuple[list[str], list[str]]:
        async with Driver() as driver:
            session = await record(driver, sites_url + "slideshow/", tmp_path / "session",
                                   expected("slideshow")["session"])
            first = await _sweep(driver, session, tmp_path / "run", monkeypatch)
            return first, await _sweep(driver, session, tmp_path / "run", monkeypatch, resume=True)

    events, resumed = asyncio.run(go())
    assert events.index("witness") < events.index("finish")  # the first reversal's, during the second's run
    assert "witness" not in resumed  # the confirmations were kept with the reversals' reports


@pytest.mark.browser
def test_a_witness_stopped_by_a_full_disk_stops_the_sweep_with_that_error(sites_url, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(early_witness, "usable_cores", lambda: 2)
    attempts: list[int] = []

    async def disk_full(*arguments: Any) -> Confirmation:
        attempts.append(1)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(early_witness, "confirm_reversal", disk_full)

    async def go() -> None:
        async with Driver() as driver:
            session = await record(driver, sites_url + "slideshow/", tmp_path / "session",
                                   expected("slideshow")["session"])
            await explore_session(session, tmp_path / "run",
                                  SweepOptions(SweepSettings(max_sequences=3), confirm="all"), driver=driver)

    with pytest.raises(OSError, match="No space left"):
        asyncio.run(go())
    assert len(attempts) == 1  # no second witness started over the first one's error
