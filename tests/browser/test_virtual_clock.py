"""The virtual clock moves between user steps as a person's clock does, so each step sees a
``Date.now()`` of its own, as in plain Chromium."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from webr4.browser.actions import parse_actions
from webr4.browser.schedule import FRAME_MS
from webr4.execution import Capture
from webr4.record.scripted import actions_from_script, plain_page

from ..route_server import page_server

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><body><button id="add">add</button><ul id="list"></ul><script>
var items = {};
add.addEventListener('click', function () {
  items[Date.now()] = true;
  list.innerHTML = Object.keys(items).map(function (key) { return '<li>' + key + '</li>'; }).join('');
});
</script></body>"""


@pytest.fixture(scope="module")
def items_url() -> Iterator[str]:
    with page_server(PAGE) as url:
        yield url


def test_two_clicks_create_two_items_keyed_by_time(driver, items_url, tmp_path):
    with plain_page(items_url) as page:
        page.click("#add")
        page.click("#add")
        assert page.locator("li").count() == 2
    execution = driver.execute(items_url, actions=parse_actions([{"click": "#add"}, {"click": "#add"}]),
                               capture=Capture())
    assert execution.dom.count("<li>") == 2


def test_a_scripted_session_keeps_the_real_time_between_its_steps(driver, items_url, tmp_path):
    script = tmp_path / "flow.py"
    script.write_text("def run(page):\n    page.click('#add')\n    page.wait_for_timeout(30)\n    page.click('#add')\n")
    steps = actions_from_script(script, items_url)
    trace = driver.execute(items_url, actions=parse_actions(steps), capture=Capture()).trace
    first, second = (step.time for step in trace.steps if step.event.startswith("u"))
    wait = steps[1]["wait"]
    assert wait >= 30
    # then the click's stable check: it acts at the second rendering update after it was called
    assert wait + FRAME_MS < second - first <= wait + 2 * FRAME_MS + 0.01
