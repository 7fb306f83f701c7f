"""The page ships each event's access summary, and it is exactly the summary of the full log.

Every bundled site (with its session) and every page under ``tests/sweep/pages`` is recorded
once, then replayed from the recording twice, with the full access log and as webr4 runs: both
replays run the same events, and each step's accesses are :func:`webr4.engine.summary.summarise`
of that step's full log, less the reads no other step shares
(:func:`webr4.engine.summary.without_unshared_reads`) and less the locations the page held back
and never handed over — on objects and scopes the step created, which no other step touched —
whose written names the step keeps in ``unlisted_writes``. Every answer computed from the
accesses is the full log's (:func:`benchmarks.held_accesses.differing_answers`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.held_accesses import as_before, differing_answers
from webr4.browser.actions import parse_actions
from webr4.browser.responses import ResponseStore
from webr4.engine.summary import by_location
from webr4.serve import serve
from webr4.trace import AccessKind, Trace

from ..conftest import expected, site_names

pytestmark = pytest.mark.browser

PAGES = Path(__file__).resolve().parent.parent / "sweep" / "pages"
HELD_PAGE = Path(__file__).resolve().parent / "pages"
SWEEP_PAGES = sorted(str(p.relative_to(PAGES)) for p in PAGES.rglob("*.html"))


@pytest.fixture(scope="module")
def pages_url() -> Iterator[str]:
    with serve(PAGES) as base:
        yield base


def name_in(location: str) -> str:
    """The property or variable name of a location on an object or a closure scope."""
    return location.partition(".")[2] if location.startswith("prop:") else location.split(":", 2)[2]


def held_back_rightly(full: Trace, held: Trace) -> bool:
    """Each step of ``held`` lists what ``full``'s summary lists but the locations it holds back:
    only on objects and scopes, touched by that step alone, their written names kept."""
    touching = Counter(location for step in full.steps for location in {a.location for a in step.accesses})
    for mine, whole in zip(held.steps, as_before(full).steps):
        listed = {access.location for access in mine.accesses}
        left_out = [location for location in by_location(whole.accesses) if location not in listed]
        if any(touching[location] > 1 or not location.startswith(("prop:", "scope:")) for location in left_out):
            return False
        if mine.accesses != tuple(a for a in whole.accesses if a.location in listed):
            return False
        gone = set(left_out)
        written = {name_in(a.location) for a in whole.accesses if a.kind is AccessKind.WRITE and a.location in gone}
        if not written <= set(mine.unlisted_writes):
            return False
    return True


def summaries_match(driver, url: str, actions: list, store: ResponseStore, plan: list[str]) -> bool:
    full = driver.execute(url, plan, actions=actions, store=store, record=False, full_accesses=True).trace
    held = driver.execute(url, plan, actions=actions, store=store, record=False).trace
    assert any(s.accesses for s in full.steps)
    return held.sequence == full.sequence and held_back_rightly(full, held) and not differing_answers(full, held)


def assert_summaries_match(driver, url: str, steps: list[dict]) -> None:
    """Two replays agree up to a native event's timing (a style sheet's load, an observer's
    delivery), which a loaded machine can move; a wrong summary differs every time."""
    actions = parse_actions(steps)
    store = ResponseStore()
    plan = driver.execute(url, actions=actions, store=store, record=True).trace.sequence
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


def test_objects_no_other_event_touches_leave_their_written_names_and_one_shared_takes_its_place(driver, held_url):
    store = ResponseStore()
    plan = driver.execute(held_url, store=store, record=True).trace.sequence
    full = driver.execute(held_url, plan, store=store, record=False, full_accesses=True).trace
    held = driver.execute(held_url, plan, store=store, record=False).trace
    publishing = [step.event for step in full.steps if any(a.location == "global:shared" and a.kind is AccessKind.WRITE
                                                           for a in step.accesses)]
    mine, whole = (next(s for s in trace.steps if s.event in publishing) for trace in (held, as_before(full)))
    scratch = next(location.partition(".")[0] for location in by_location(whole.accesses)
                   if location.endswith(".total"))
    assert list(by_location(mine.accesses)) == [location for location in by_location(whole.accesses)
                                                if not location.startswith(scratch + ".")]
    assert {"total", "done"} <= set(mine.unlisted_writes)
    # An object first seen as a value belongs to the event that first touches its properties.
    counting = [step for step in held.steps if "count" in step.unlisted_writes]
    assert len(counting) == 1 and not [a for a in counting[0].accesses if a.location.endswith(".count")]
