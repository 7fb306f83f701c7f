"""Approximate replay, bounds, and what a trace says about itself."""

from __future__ import annotations

import pytest

from webr4.browser.limits import Limits
from webr4.execution import Capture
from webr4.trace import Trace

pytestmark = pytest.mark.browser  # every test here drives Chromium


def test_a_planned_event_that_never_appears_is_skipped_and_the_run_completes(driver, sites_url):
    url = sites_url + "two-xhr/"
    seed = driver.execute(url, capture=Capture()).trace
    plan = seed.sequence[:2] + ["t-no-such-event"] + seed.sequence[2:]
    replay = driver.execute(url, plan, capture=Capture()).trace
    assert replay.skipped == ["t-no-such-event"]
    assert replay.sequence == seed.sequence
    assert replay.truncated is None


def test_a_never_ending_interval_is_cut_by_the_virtual_horizon(driver, sites_url):
    trace = driver.execute(sites_url + "ticking-clock/", limits=Limits(horizon_ms=20_000), capture=Capture()).trace
    assert trace.truncated == "horizon"
    assert trace.enabled_at_end  # the clock would go on ticking
    assert max(step.time for step in trace.steps) <= 20_000
    ticks = [s for s in trace.steps if trace.events[s.event].type == "setInterval"]
    assert len(ticks) >= 19
    # every firing of the interval happens after the previous one
    for earlier, later in zip(ticks, ticks[1:]):
        assert trace.steps.index(earlier) in later.predecessors


def test_trace_json_round_trip_is_exact(driver, sites_url):
    trace = driver.execute(sites_url + "stale-select/", capture=Capture()).trace
    assert Trace.loads(trace.dumps()) == trace
