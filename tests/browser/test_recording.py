"""A recording fixes the order of events and the responses, not accesses: it runs the same
rewritten scripts as a replay, with the access log off, so a logged replay of its plan runs the
same events and finds the page's accesses the recording did not log."""

from __future__ import annotations

import asyncio

import pytest

from webr4.browser.driver import Driver
from webr4.execution import Capture
from webr4.record.session import record

from ..conftest import expected

pytestmark = pytest.mark.browser

SITE = "two-xhr"


def _page_locations(steps) -> set[str]:
    return {a.location for step in steps for a in step.accesses if not a.location.startswith("event:")}


def test_a_recording_logs_no_page_access_and_a_replay_of_it_runs_the_same_events(sites_url, tmp_path, driver):
    async def go():
        async with Driver() as recorder:
            return await record(recorder, sites_url + SITE + "/", tmp_path / "session", expected(SITE)["session"])

    session = asyncio.run(go())
    seed = session.seed_trace()
    replay = driver.execute(session.url, seed.sequence, actions=session.user_actions, store=session.network(),
                            live_network=False, limits=session.run_limits, capture=Capture())
    assert replay.trace.sequence == seed.sequence
    assert not _page_locations(seed.steps) and _page_locations(replay.trace.steps)
