"""Record a session of a test page and sweep it, its harmful verdicts confirmed in plain Chromium."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from webr4.browser.driver import Driver
from webr4.checking import SweepOptions, explore_session
from webr4.record.session import record
from webr4.sweep.settings import SweepSettings
from webr4.rundir.summary import Summary


def record_and_sweep(url: str, directory: Path, steps: list[dict[str, Any]], max_sequences: int = 10) -> Summary:
    """Record ``steps`` on ``url`` under ``directory`` and sweep up to ``max_sequences`` sequences,
    confirming as ``check`` does; the sweep's summary."""

    async def go() -> Summary:
        async with Driver() as driver:
            session = await record(driver, url, directory / "session", steps)
            return await explore_session(session, directory, SweepOptions(SweepSettings(max_sequences=max_sequences)),
                                         driver=driver)

    return asyncio.run(go())
