"""The timer rule of happens-before, in Chromium: timers set by one task with non-decreasing delays
fire in creation order, and that order survives a timer in between being cleared."""

from __future__ import annotations

import pytest

from webr4.engine.hb import HappensBefore
from webr4.serve import serve
from webr4.trace import Category

DELAYS = (3, 1, 2, 1, 1, 0, 2)
CLEARED = 3  # cleared after every timer is set, so later timers were created after it
PAGE = "<!DOCTYPE html><body><script>\nvar fired = [];\n" + "".join(
    f"var t{i} = setTimeout(function () {{ fired.push({i}); }}, {delay});\n" for i, delay in enumerate(DELAYS)
) + f"clearTimeout(t{CLEARED});\n</script></body>"


@pytest.fixture(scope="module")
def timers_url(tmp_path_factory):
    root = tmp_path_factory.mktemp("timers")
    (root / "index.html").write_text(PAGE)
    with serve(root) as base:
        yield base


def test_timers_of_one_task_are_ordered_exactly_by_the_fifo_rule(driver, timers_url):
    trace = driver.execute(timers_url).trace
    # the page's script is on lines 3.., one timer per line
    step_of = {int(trace.events[s.event].params["site"].split(":")[-2]) - 3: n
               for n, s in enumerate(trace.steps) if trace.events[s.event].category is Category.TIMER}
    assert sorted(step_of) == [i for i in range(len(DELAYS)) if i != CLEARED]
    hb = HappensBefore(trace.steps)
    ordered = {(i, j) for i in step_of for j in step_of if hb.happens_before(step_of[i], step_of[j])}
    assert ordered == {(i, j) for i in step_of for j in step_of if i < j and DELAYS[i] <= DELAYS[j]}
