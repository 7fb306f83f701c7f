"""Record → explore → classify finds the harmful race of every bundled site, and only those."""

from __future__ import annotations

import pytest

from webr4.browser.driver import Driver
from webr4.sweep.explore import explore
from webr4.sweep.settings import SweepSettings
from webr4.record.session import record

from ..conftest import expected, site_names

pytestmark = pytest.mark.browser  # every test here drives Chromium


@pytest.mark.parametrize("site", site_names())
def test_verdict_matches_the_sites_expectation(driver, sites_url, tmp_path, site):
    facts = expected(site)

    async def check(shared: Driver):
        session = await record(shared, sites_url + site + "/", tmp_path / "session", facts["session"])
        return await explore(shared, session, tmp_path, SweepSettings(bound=1, max_sequences=30))

    summary = driver.run(check)
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
