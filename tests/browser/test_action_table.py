"""The action table is the truth about every user action: for each kind it lists, a session step
parses into the table's user events, a Playwright script's call is recorded as that step, and
performing it in plain Chromium dispatches only DOM events the table says it does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from webr4.browser.actions import parse_actions
from webr4.record.auto import perform
from webr4.record.scripted import actions_from_script, plain_page
from webr4.useractions import ACTIONS, OBSERVATIONS, USER_EVENTS

from ..route_server import page_server

pytestmark = pytest.mark.browser

SEEN = sorted(set().union(*(event.dispatches for event in USER_EVENTS.values()))
              | {"dblclick", "contextmenu", "wheel", "scroll", "paste", "copy", "cut", "dragstart", "drop"})
PAGE = f"""<!DOCTYPE html><body><button id="button">press me</button><input id="text">
<select id="choice"><option value="a">A</option><option value="b">B</option></select>
<input id="tick" type="checkbox"><input id="ticked" type="checkbox" checked><script>
window.seen = [];
for (const type of {SEEN!r}) document.addEventListener(type, (e) => seen.push(e.type), true);
</script></body>"""
TARGETS = {"fill": "#text", "clear": "#text", "press": "#text", "select": "#choice", "check": "#tick",
           "uncheck": "#ticked"}  # every other kind: the button
ARGUMENTS = {"value": "b", "key": "a"}
USER_ACTIONS = [kind for kind in ACTIONS if kind not in OBSERVATIONS]  # a test's reads: tests/deflake


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    with page_server(PAGE) as url:
        yield url


def step_of(kind: str) -> dict[str, str]:
    return {kind: TARGETS.get(kind, "#button"), **{name: ARGUMENTS[name] for name in ACTIONS[kind].arguments}}


@pytest.mark.parametrize("kind", USER_ACTIONS)
def test_each_kind_dispatches_only_what_the_table_says(kind, page_url):
    step = step_of(kind)
    events = parse_actions([step])
    assert [e.kind for e in events] == [event.name for event in ACTIONS[kind].events]
    with plain_page(page_url) as page:
        page.evaluate("seen.length = 0")
        perform(page, step)
        seen = set(page.evaluate("seen"))
    allowed = set().union(*(event.dispatches for event in ACTIONS[kind].events))
    assert seen and seen <= allowed, f"{kind} dispatched {sorted(seen - allowed)} that the table does not list"


@pytest.mark.parametrize("kind", USER_ACTIONS)
def test_each_kind_is_recorded_from_its_playwright_method(kind, page_url, tmp_path: Path):
    step = step_of(kind)
    arguments = ", ".join(repr(step[name]) for name in ACTIONS[kind].arguments)
    script = tmp_path / "flow.py"
    script.write_text(f"def run(page):\n    page.locator({step[kind]!r}).{ACTIONS[kind].method}({arguments})\n"
                      f"    page.{ACTIONS[kind].method}({step[kind]!r}{', ' if arguments else ''}{arguments})\n")
    assert actions_from_script(script, page_url, pace=0) == [step, step]


def test_a_call_a_step_cannot_say_is_not_recorded(page_url, tmp_path: Path):
    script = tmp_path / "flow.py"
    script.write_text("def run(page):\n    page.click('#button', button='right')\n"
                      "    page.locator('#choice').select_option(index=1)\n    page.click('#button', timeout=9000)\n")
    assert actions_from_script(script, page_url, pace=0) == [{"click": "#button"}]
