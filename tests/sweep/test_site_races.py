"""The conflicts of every bundled site's recorded session are exactly those its expected.json lists.

One seed execution per site (the recording of its ``session`` steps). Its conflicts are what R4
reverses: the uncovered races after the default filters, and the events a step disabled (a
cancelled timer, an aborted request), each in the stable words a report uses — the two events'
labels, sorted, and the location in words (``scheduling of <event>`` for a disabled event).
"""

from __future__ import annotations

import pytest

from webr4.browser.actions import parse_actions
from webr4.browser.responses import ResponseStore
from webr4.engine.describe import describe_location
from webr4.engine.filters import DEFAULT_FILTERS
from webr4.engine.races import find_races
from webr4.execution import Capture
from webr4.trace import Trace, event_location

from ..conftest import expected, site_names

pytestmark = pytest.mark.browser

Conflict = tuple[tuple[str, str], str]


def _label(trace: Trace, event: str) -> str:
    found = trace.events.get(event)
    return found.label if found is not None else event


def _pair(first: str, second: str) -> tuple[str, str]:
    return (first, second) if first <= second else (second, first)


def conflicts(trace: Trace) -> set[Conflict]:
    """The seed's uncovered races (default filters) and disabled events, in words."""
    found = {
        (_pair(_label(trace, trace.steps[race.first].event), _label(trace, trace.steps[race.second].event)),
         describe_location(race.location, trace))
        for race in find_races(trace, filters=DEFAULT_FILTERS).uncovered
    }
    for index, step in enumerate(trace.steps):
        for disabled in step.enabled - trace.enabled_before(index + 1) - {step.event}:
            found.add((_pair(_label(trace, step.event), _label(trace, disabled)),
                       describe_location(event_location(disabled), trace)))
    return found


def fixture_conflicts(site: str) -> set[Conflict]:
    return {(_pair(*race["events"]), race["location"]) for race in expected(site)["races"]}


@pytest.mark.parametrize("site", site_names())
def test_seed_conflicts_are_the_expected_ones(driver, sites_url, site):
    actions = parse_actions(expected(site)["session"])
    execution = driver.execute(sites_url + site + "/", actions=actions, store=ResponseStore(), live_network=True,
                               capture=Capture())
    assert conflicts(execution.trace) == fixture_conflicts(site)
