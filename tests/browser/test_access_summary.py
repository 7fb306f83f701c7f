"""The page ships each event's access summary, and it is exactly the summary of the full log.

Every bundled site (with its session) and every page under ``tests/sweep/pages`` is recorded
once, then replayed from the recording twice, with the full access log and with the summaries
the page builds itself: both replays run the same events, and each step's summary equals
:func:`webr4.engine.summary.summarise` of that step's full log, less the reads no other step
shares (:func:`webr4.engine.summary.without_unshared_reads`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from webr4.browser.actions import parse_actions
from webr4.browser.responses import ResponseStore
from webr4.engine.summary import summarise, without_unshared_reads
from webr4.serve import serve

from ..conftest import expected, site_names

pytestmark = pytest.mark.browser

PAGES = Path(__file__).resolve().parent.parent / "sweep" / "pages"
SWEEP_PAGES = sorted(str(p.relative_to(PAGES)) for p in PAGES.rglob("*.html"))


@pytest.fixture(scope="module")
def pages_url() -> Iterator[str]:
    with serve(PAGES) as base:
        yield base


def summaries_match(driver, url: str, actions: list, store: ResponseStore, plan: list[str]) -> bool:
    full = driver.execute(url, plan, actions=actions, store=store, record=False, full_accesses=True).trace
    short = driver.execute(url, plan, actions=actions, store=store, record=False).trace
    assert any(s.accesses for s in full.steps)
    expected = without_unshared_reads(replace(full, steps=[replace(s, accesses=summarise(s.accesses))
                                                           for s in full.steps]))
    return short.sequence == full.sequence and all(
        mine.accesses == whole.accesses for mine, whole in zip(short.steps, expected.steps))


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
