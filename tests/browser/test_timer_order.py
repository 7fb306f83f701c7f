"""Timers under control fire in the order plain Chromium fires them (due time, then creation
order, whatever task created them), and happens-before keeps the explorer from reversing them."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from webr4.browser.actions import parse_actions
from webr4.engine.hb import HappensBefore
from webr4.engine.races import find_races
from webr4.execution import Capture
from webr4.serve import serve
from webr4.record.scripted import plain_page
from webr4.trace import Category, Event, Trace

pytestmark = pytest.mark.browser

LOG = "<p id='out'></p><script>\nvar fired = [];\nfunction log(x) { fired.push(x); out.textContent = fired.join(','); }\n"

DELAYS = (3, 1, 2, 1, 1, 0, 2)
CLEARED = 3  # cleared after every timer is set, so later timers were created after it
PAGES = {
    "one-task": "<!DOCTYPE html><body><script>\nvar fired = [];\n" + "".join(
        f"var t{i} = setTimeout(function () {{ fired.push({i}); }}, {delay});\n" for i, delay in enumerate(DELAYS)
    ) + f"clearTimeout(t{CLEARED});\n</script></body>",
    # (a) two separate clicks each set a 1000 ms timer
    "two-clicks": "<!DOCTYPE html><body><button id='go'>go</button>" + LOG + """var clicks = 0;
go.addEventListener('click', function () { var k = ++clicks; setTimeout(function () { log('click' + k); }, 1000); });
</script></body>""",
    # (b) a task sets a 3000 ms timer while 1000 ms and 1 ms timers set by other tasks are pending
    # (far apart: a busy machine may run the three setting tasks hundreds of milliseconds apart)
    "long-after-short": "<!DOCTYPE html><body>" + LOG + """setTimeout(function () { setTimeout(function () { log('1000ms'); }, 1000); }, 0);
setTimeout(function () { setTimeout(function () { log('1ms'); }, 1); }, 0);
setTimeout(function () { setTimeout(function () { log('3000ms'); }, 3000); }, 0);
</script></body>""",
    # (c) equal delays set by different tasks
    "same-delay": "<!DOCTYPE html><body>" + LOG + """setTimeout(function () { setTimeout(function () { log('a'); }, 50); }, 0);
setTimeout(function () { setTimeout(function () { log('b'); }, 50); }, 0);
setTimeout(function () { setTimeout(function () { log('c'); }, 50); }, 0);
</script></body>""",
    # a chain of zero-delay timers, each set by the callback of the one before
    "nested": """<!DOCTYPE html><body><script>
var gaps = [], last = performance.now();
function link() { var now = performance.now(); gaps.push(now - last); last = now; if (gaps.length < 10) setTimeout(link, 0); }
setTimeout(link, 0);
</script></body>""",
}


@pytest.fixture(scope="module")
def pages_url(tmp_path_factory):
    root: Path = tmp_path_factory.mktemp("timers")
    for name, html in PAGES.items():
        (root / name).mkdir()
        (root / name / "index.html").write_text(html)
    with serve(root) as base:
        yield base


def chromium_order(url: str, clicks: int = 0, count: int = 3) -> list[str]:
    """The order plain Chromium logs the timers in."""
    with plain_page(url) as page:
        for _ in range(clicks):
            page.click("#go")
        page.wait_for_function(f"fired.length >= {count}", timeout=10_000)
        return page.evaluate("fired.map(String)")


def logged(dom: str) -> list[str]:
    start = dom.index('<p id="out">') + len('<p id="out">')
    return dom[start:dom.index("</p>", start)].strip().split(",")


def timer_steps(trace: Trace) -> list[int]:
    """Steps of the timers that log (the ones set inside another callback or a click)."""
    def logs(event: Event) -> bool:
        return (event.category is Category.TIMER and event.creator is not None
                and trace.events[event.creator].category is not Category.PARSE)

    return [n for n, step in enumerate(trace.steps) if logs(trace.events[step.event])]


def assert_never_reversed(trace: Trace, steps: list[int]) -> None:
    hb = HappensBefore(trace.steps)
    assert all(hb.happens_before(i, j) for i, j in combinations(steps, 2))
    racing = {race.pair for race in find_races(trace).races}
    assert not racing & set(combinations(steps, 2))


def test_timers_of_one_task_are_ordered_by_delay_then_creation(driver, pages_url):
    trace = driver.execute(pages_url + "one-task/", capture=Capture()).trace
    # the page's script is on lines 3.., one timer per line
    step_of = {int(trace.events[s.event].params["site"].split(":")[-2]) - 3: n
               for n, s in enumerate(trace.steps) if trace.events[s.event].category is Category.TIMER}
    assert sorted(step_of) == [i for i in range(len(DELAYS)) if i != CLEARED]
    hb = HappensBefore(trace.steps)
    ordered = {(i, j) for i in step_of for j in step_of if hb.happens_before(step_of[i], step_of[j])}
    assert ordered == {(i, j) for i in step_of for j in step_of if (DELAYS[i], i) < (DELAYS[j], j)}


def test_timers_of_two_clicks_fire_in_click_order(driver, pages_url):
    url = pages_url + "two-clicks/"
    execution = driver.execute(url, actions=parse_actions([{"click": "#go"}, {"click": "#go"}]), capture=Capture())
    assert logged(execution.dom) == chromium_order(url, clicks=2, count=2) == ["click1", "click2"]
    assert_never_reversed(execution.trace, timer_steps(execution.trace))


def test_a_long_timer_fires_after_shorter_ones_of_other_tasks(driver, pages_url):
    url = pages_url + "long-after-short/"
    execution = driver.execute(url, capture=Capture())
    assert logged(execution.dom) == chromium_order(url) == ["1ms", "1000ms", "3000ms"]
    assert_never_reversed(execution.trace, timer_steps(execution.trace))


def test_equal_delays_of_different_tasks_fire_in_creation_order(driver, pages_url):
    url = pages_url + "same-delay/"
    execution = driver.execute(url, capture=Capture())
    assert logged(execution.dom) == chromium_order(url) == ["a", "b", "c"]
    assert_never_reversed(execution.trace, timer_steps(execution.trace))


def test_nested_timers_are_clamped_to_4_ms_as_in_chromium(driver, pages_url):
    url = pages_url + "nested/"
    with plain_page(url) as page:
        page.wait_for_function("gaps.length >= 10", timeout=10_000)
        native = page.evaluate("gaps")
    assert min(native[6:]) >= 3.5  # from the 7th timer of the chain on, at least 4 ms apart
    trace = driver.execute(url, capture=Capture()).trace
    delays = [trace.events[s.event].params["delay"] for s in trace.steps
              if trace.events[s.event].category is Category.TIMER]
    assert delays == [0] * 6 + [4] * 4
