"""The same decisions give the same execution: identities and final DOM repeat exactly."""

from __future__ import annotations

import pytest

from webr4.browser.actions import parse_actions
from webr4.browser.limits import Limits
from webr4.browser.responses import ResponseStore
from webr4.execution import Capture

from ..conftest import expected, site_names

pytestmark = pytest.mark.browser  # every test here drives Chromium

RUNS = 3  # every sweep test replays each site many more times, and would fail on nondeterminism too
LIMITS = Limits(horizon_ms=5_000)


@pytest.mark.parametrize("site", site_names())
def test_default_schedule_repeats_exactly(driver, sites_url, site):
    actions = parse_actions(expected(site)["session"])
    store = ResponseStore()
    first = driver.execute(sites_url + site + "/", actions=actions, store=store, live_network=True, limits=LIMITS,
                           capture=Capture())
    assert first.trace.steps, "nothing ran"
    for _ in range(RUNS - 1):
        again = driver.execute(sites_url + site + "/", actions=actions, store=store, live_network=False, limits=LIMITS,
                               capture=Capture())
        assert again.trace.sequence == first.trace.sequence
        assert again.dom == first.dom
        assert [e.message for e in again.trace.errors] == [e.message for e in first.trace.errors]


@pytest.mark.parametrize("site", site_names())
def test_a_feasible_swap_is_replayed_exactly(driver, sites_url, site):
    """Swap the first adjacent pair of co-enabled events: ids found again, no step skipped."""
    actions = parse_actions(expected(site)["session"])
    seed = driver.execute(sites_url + site + "/", actions=actions, limits=LIMITS, capture=Capture()).trace
    order = seed.sequence
    swap = next(
        i for i in range(1, len(order) - 1)
        if order[i + 1] in seed.steps[i].enabled and i not in seed.steps[i + 1].predecessors
    )
    plan = order[:swap] + [order[swap + 1], order[swap]]
    replay = driver.execute(sites_url + site + "/", plan, actions=actions, limits=LIMITS, capture=Capture()).trace
    assert replay.sequence[: len(plan)] == plan
    assert replay.skipped == []
