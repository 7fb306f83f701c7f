"""Record → explore → classify finds the harmful race of every bundled site, and only those."""

from __future__ import annotations

import pytest

from webr4.browser.driver import Driver
from webr4.sweep.explore import explore
from webr4.rundir.runfiles import RunFiles
from webr4.trace import Trace
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
    # At bound 1 no reversal's own races are explored: its page accesses are logged in the steps
    # of its reversed pair alone, which the rules read (and the head's, which runs before the
    # page is told which events to log).
    with RunFiles(tmp_path) as files:
        logged = [_steps_with_page_accesses(files.trace(r.index)) for r in summary.reversals]
    for reversal, events in zip(summary.reversals, logged):
        assert events <= {reversal.first_id, reversal.second_id}, reversal
    assert any(logged) or not summary.reversals

def _steps_with_page_accesses(trace: Trace | None) -> set[str]:
    assert trace is not None
    return {step.event for step in trace.steps[1:]
            if any(not a.location.startswith("event:") for a in step.accesses)}
