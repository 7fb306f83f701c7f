"""Record → explore → classify finds the harmful race of every bundled site, and only those."""

from __future__ import annotations

import asyncio

import pytest

from webr4.browser.driver import Driver
from webr4.sweep.explore import explore
from webr4.record.session import Session, record

from ..conftest import expected, site_names

pytestmark = pytest.mark.browser  # every test here drives Chromium


async def _check(url: str, actions: list, out) -> tuple[Session, object]:
    async with Driver() as driver:
        session = await record(driver, url, out / "session", actions)
        return session, await explore(driver, session, out, bound=1, max_sequences=30)


@pytest.mark.parametrize("site", site_names())
def test_verdict_matches_the_sites_expectation(sites_url, tmp_path, site):
    facts = expected(site)
    _, summary = asyncio.run(_check(sites_url + site + "/", facts["session"], tmp_path))
    harmful = [r for r in summary.reversals if r.verdict == "harmful"]
    assert bool(harmful) == facts["harmful"], summary.reversals
    # the site's race is judged for the stated reason
    judged = harmful if facts["harmful"] else summary.reversals
    for code in facts["reasons"]:
        assert any(code in r.reasons for r in judged), (code, summary.reversals)
    assert not [r for r in summary.reversals if r.verdict == "error"]
    for reversal in harmful:
        # each report names a real pair of events and a location
        assert reversal.first and reversal.second and reversal.location
        assert (tmp_path / "sequences" / str(reversal.index) / "state.png").is_file()
    assert (tmp_path / "summary.json").is_file()
