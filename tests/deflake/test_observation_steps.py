"""A test's reads and web-first assertions as session steps, under control in a real Chromium.

A ``read`` answers what Playwright's own method answers in that order and writes nothing to the
page (Playwright's own script, which finds the elements, is installed before any event); it
races with the page event that writes what it read, so R4 explores the read before the
response; an ``expect`` waits for its condition as Playwright's retrying assertion does.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from webr4.checking import SweepOptions, check
from webr4.serve import serve
from webr4.rundir.runfiles import RunFiles
from webr4.sweep.settings import SweepSettings

pytestmark = pytest.mark.browser

SITE = Path(__file__).parent / "project" / "site"


def _sweep(steps: list[dict], out: Path, page: str = "cart/") -> list[tuple[list[str], dict[str, object]]]:
    """Each explored sequence's event types and what its reads answered."""
    with serve(SITE) as url:
        checked = asyncio.run(check(url + page, out, steps,
                                    options=SweepOptions(SweepSettings(bound=1), confirm="none")))
    seen = []
    with RunFiles(out) as files:
        for index in range(checked.summary.sequences):
            trace = files.trace(index)
            assert trace is not None
            events = [trace.events[e] for e in trace.sequence]
            seen.append(([e.type for e in events], {e.type: e.params.get("observed") for e in events
                                                    if e.type == "read"}))
            reads = [step for step in trace.steps if trace.events[step.event].type in ("read", "expect")]
            assert all(access.kind.value == "r" for step in reads for access in step.accesses), \
                "a test's look at the page wrote to it"
    return seen


def test_a_read_before_the_response_it_wants_is_explored_and_reads_the_old_text(tmp_path: Path) -> None:
    steps: list[dict] = [{"click": "#add"}, {"wait": 50}, {"read": "#count", "method": "inner_text", "args": []}]
    seed, *reversals = _sweep(steps, tmp_path / "run")
    assert seed[0].index("fetch") < seed[0].index("read") and seed[1] == {"read": "1"}
    assert any(types.index("read") < types.index("fetch") and answers == {"read": "0"}
               for types, answers in reversals)


def test_an_expectation_waits_for_its_condition_so_nothing_reverses_it(tmp_path: Path) -> None:
    steps: list[dict] = [{"click": "#add"}, {"expect": "#count", "assertion": "to_have_text", "args": ["1"]},
                         {"read": "#count", "method": "inner_text", "args": []}]
    sequences = _sweep(steps, tmp_path / "run")
    assert all(types.index("fetch") < types.index("expect") and answers == {"read": "1"}
               for types, answers in sequences)


def test_a_read_of_the_url_races_the_timer_that_changes_it(tmp_path: Path) -> None:
    steps: list[dict] = [{"click": "#go"}, {"wait": 50}, {"read": "html", "method": "page.url", "args": []}]
    seed, *reversals = _sweep(steps, tmp_path / "run", "route/")
    assert seed[0].index("setTimeout") < seed[0].index("read") and str(seed[1]["read"]).endswith("/route/#/done")
    assert any(types.index("read") < types.index("setTimeout") and str(answers["read"]).endswith("/route/")
               for types, answers in reversals)
