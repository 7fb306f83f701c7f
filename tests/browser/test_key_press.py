"""A key press is two user events, keydown and keyup, as in Chromium: a timer set in keydown can
run before the key comes up, and the explorer may put it on either side."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from webr4.browser.actions import parse_actions
from webr4.engine.hb import HappensBefore
from webr4.execution import Capture
from webr4.record.scripted import plain_page
from webr4.trace import Category

from ..route_server import page_server

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><body><input id="field"><p id="out"></p><script>
var log = [];
function note(x) { log.push(x); out.textContent = log.join(','); }
['keydown', 'keypress', 'beforeinput', 'input', 'keyup'].forEach(function (type) {
  field.addEventListener(type, function () {
    note(type);
    if (type === 'keydown') setTimeout(function () { note('timer'); }, 0);
  });
});
</script></body>"""


@pytest.fixture(scope="module")
def keys_url() -> Iterator[str]:
    with page_server(PAGE) as url:
        yield url


def out_text(dom: str) -> str:
    start = dom.index('<p id="out">') + len('<p id="out">')
    return dom[start:dom.index("</p>", start)].strip()


def test_a_timer_set_in_keydown_runs_before_keyup_as_chromium_allows(driver, keys_url):
    with plain_page(keys_url) as page:
        page.focus("#field")
        page.keyboard.down("a")
        page.wait_for_function("log.indexOf('timer') >= 0")
        page.keyboard.up("a")
        native = page.evaluate("log")
    execution = driver.execute(keys_url, actions=parse_actions([{"press": "#field", "key": "a"}]), capture=Capture())
    assert out_text(execution.dom).split(",") == native == [
        "keydown", "keypress", "beforeinput", "input", "timer", "keyup"]
    trace = execution.trace
    kinds = [trace.events[s.event].type for s in trace.steps
             if trace.events[s.event].category in (Category.USER, Category.TIMER)]
    assert kinds == ["keydown", "setTimeout", "keyup"]
    timer, keyup = (n for n, s in enumerate(trace.steps) if trace.events[s.event].type in ("setTimeout", "keyup"))
    hb = HappensBefore(trace.steps)
    assert not hb.ordered(timer, keyup)  # the user may let go first


def test_the_key_comes_up_even_when_keydown_removed_the_field(driver):
    with page_server("""<!DOCTYPE html><body><input id="field"><p id="out"></p><script>
field.addEventListener('keydown', function () { field.remove(); });
document.addEventListener('keyup', function () { out.textContent = 'up'; });
</script></body>""") as url:
        execution = driver.execute(url, actions=parse_actions([{"press": "#field", "key": "Escape"}]),
                                   capture=Capture())
    assert [execution.trace.events[s.event].type for s in execution.trace.steps
            if execution.trace.events[s.event].category is Category.USER] == ["keydown", "keyup"]
    assert out_text(execution.dom) == "up"
