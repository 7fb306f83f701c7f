"""Confirmation does not depend on the sweep's browser: when that one died under the sweep (and
the sweep went on in a new one), the plain runs still happen, in a browser of their own."""

from __future__ import annotations

import asyncio

import pytest

from webr4.browser.driver import Driver
from webr4.checking import SweepOptions, explore_session
from webr4.sweep.settings import SweepSettings
from webr4.record.session import record

pytestmark = pytest.mark.browser


def test_a_sweep_whose_browser_died_still_confirms_its_harmful_verdicts(sites_url, tmp_path) -> None:
    async def go():
        async with Driver() as driver:
            session = await record(driver, sites_url + "two-xhr/", tmp_path / "session", [])
            await driver.browser.close()  # as a browser killed under the sweep leaves the caller's driver
            return await explore_session(session, tmp_path, SweepOptions(SweepSettings(max_sequences=4)), driver=driver)

    summary = asyncio.run(go())
    assert summary.harmful()
    assert [r.confirmation_status for r in summary.harmful()] == ["confirmed"] * len(summary.harmful())
