"""The page ships each event's access summary, and it is exactly the summary of the full log.

Every bundled site (with its session) and every page under ``tests/sweep/pages`` is recorded
once, then replayed from the recording twice, with the full access log and as webr4 runs: both
replays run the same events, and each step's accesses are :func:`webr4.access_summary.summarise`
of that step's full log, less every variable and property no other step touches (the page holds
them back and never hands them over), whose written names the step keeps in ``unlisted_writes``.
Every answer computed from the accesses is the full log's
(:func:`benchmarks.profiling.held_accesses.differing_answers`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.profiling.held_accesses import as_before, differing_answers
from webr4.access_summary import by_location
from webr4.browser.actions import parse_actions
from webr4.browser.responses import ResponseStore
from webr4.execution import AccessLog, Capture
from webr4.serve import serve
from webr4.trace import Access, AccessKind, Trace

from ..conftest import expected, site_names

pytestmark = pytest.mark.browser

PAGES = Path(__file__).resolve().parent.parent / "sweep" / "pages"
HELD_PAGE = Path(__file__).resolve().parent / "pages"
SWEEP_PAGES = sorted(str(p.relative_to(PAGES)) for p in PAGES.rglob("*.html"))


@pytest.fixture(scope="module")
def pages_url() -> Iterator[str]:
    with serve(PAGES) as base:
        yield base


JS_LOCATIONS = ("prop:", "scope:", "global:")


def name_in(location: str) -> str:
    """The property or variable name of a variable or property location."""
    if location.startswith("prop:"):
        return location.partition(".")[2]
    return location.partition(":")[2] if location.startswith("global:") else location.split(":", 2)[2]


def held_back_rightly(full: Trace, held: Trace) -> bool:
    """Each step of ``held`` lists what ``full``'s summary lists but the locations it holds back:
    exactly the variables and properties touched by that step alone, their written names kept."""
    touching = Counter(location for step in full.steps for location in {a.location for a in step.accesses})
    for mine, whole in zip(held.steps, as_before(full).steps):
        listed = {access.location for access in mine.accesses}
        left_out = [location for location in by_location(whole.accesses) if location not in listed]
        if any(touching[location] > 1 or not location.startswith(JS_LOCATIONS) for location in left_out):
            return False
        if any(touching[location] == 1 and location.startswith(JS_LOCATIONS) for location in listed):
            return False
        if not same_accesses(mine.accesses, tuple(a for a in whole.accesses if a.location in listed)):
            return False
        gone = set(left_out)
        written = {name_in(a.location) for a in whole.accesses if a.kind is AccessKind.WRITE and a.location in gone}
        if not written <= set(mine.unlisted_writes):
            return False
    return True


def same_accesses(mine: tuple[Access, ...], whole: tuple[Access, ...]) -> bool:
    """The same accesses in the same order, but for the writes to ``event:`` locations (the events
    the step created), which are compared as a set: the browser reports two events a step created
    (two images' loads) in the order their requests happen to reach it, which varies from replay
    to replay, and only which events a step created is read (``webr4.trace.creation_edges``)."""
    def created(accesses: tuple[Access, ...]) -> Counter[Access]:
        return Counter(a for a in accesses if a.location.startswith("event:"))

    def others(accesses: tuple[Access, ...]) -> list[Access]:
        return [a for a in accesses if not a.location.startswith("event:")]

    return others(mine) == others(whole) and created(mine) == created(whole)


def summaries_match(driver, url: str, actions: list, store: ResponseStore, plan: list[str]) -> bool:
    full = driver.execute(url, plan, actions=actions, store=store, live_network=False,
                          capture=Capture(accesses=AccessLog.FULL)).trace
    held = driver.execute(url, plan, actions=actions, store=store, live_network=False, capture=Capture()).trace
    assert any(s.accesses for s in full.steps)
    return held.sequence == full.sequence and held_back_rightly(full, held) and not differing_answers(full, held)


def assert_summaries_match(driver, url: str, steps: list[dict]) -> None:
    """Two replays agree up to a native event's timing (a style sheet's load, an observer's
    delivery), which a loaded machine can move; a wrong summary differs every time."""
    actions = parse_actions(steps)
    store = ResponseStore()
    plan = driver.execute(url, actions=actions, store=store, live_network=True, capture=Capture()).trace.sequence
    assert any(summaries_match(driver, url, actions, store, plan) for _ in range(3))


@pytest.mark.parametrize("site", site_names())
def test_a_sites_summaries_are_those_of_its_full_log(driver, sites_url, site):
    assert_summaries_match(driver, sites_url + site + "/", expected(site)["session"])


@pytest.mark.parametrize("page", SWEEP_PAGES)
def test_a_pages_summaries_are_those_of_its_full_log(driver, pages_url, page):
    assert_summaries_match(driver, pages_url + page, [])


@pytest.fixture(scope="module")
def held_url() -> Iterator[str]:
    with serve(HELD_PAGE) as base:
        yield base + "held/"


def test_a_location_one_event_touches_leaves_its_written_name_and_one_a_later_event_touches_takes_its_place(
        driver, held_url):
    store = ResponseStore()
    plan = driver.execute(held_url, store=store, live_network=True, capture=Capture()).trace.sequence
    held = driver.execute(held_url, plan, store=store, live_network=False, capture=Capture()).trace
    assert held.sequence == plan

    def writing(suffix: str):
        return next(step for step in held.steps if any(a.location.endswith(suffix) and a.kind is AccessKind.WRITE
                                                       for a in step.accesses))

    def page_locations(step) -> list[str]:
        """The locations of the page's own names that ``step`` lists, object ids left out."""
        names = {"total", "done", "early", "late", "shared", "later", "count"}
        return [re.sub(r"^prop:\d+", "prop:", location) for location in by_location(step.accesses)
                if location.startswith(JS_LOCATIONS) and name_in(location) in names]

    # `made.early`, read by the second timer, is handed over and back in its place in the first.
    first = writing("global:shared")
    assert page_locations(first) == ["prop:.early", "global:shared", "global:later"]
    assert {"total", "done", "late"} <= set(first.unlisted_writes)
    later = next(step for step in held.steps if "count" in step.unlisted_writes)
    assert page_locations(later) == ["global:shared", "prop:.early", "global:later"]
