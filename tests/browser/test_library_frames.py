"""Sites in the app's own code: a timer a library sets for the app, and an exception a library
throws at the app's call, are placed at the app's line, as plain Chromium's stack shows it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ..route_server import route_server
from webr4.execution import Capture

pytestmark = pytest.mark.browser

LIBRARY = b"""window.later = function (fn, ms) { return setTimeout(fn, ms); };
window.required = function (value) { if (value == null) throw new TypeError("a value is required"); return value; };
"""
PAGE = b"""<!DOCTYPE html><body><p id="out">waiting</p>
<script src="/vendor/helpers.min.js"></script>
<script>
later(function () {
  out.textContent = required(window.missing);
}, 50);
</script></body>"""
TIMER_LINE, THROW_LINE = 4, 5  # the app's call of later() and of required()


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    files = {"/": ("text/html", PAGE), "/vendor/helpers.min.js": ("text/javascript", LIBRARY)}
    with route_server(files.get) as base:
        yield base + "/"


def _frame(stack: str, url: str) -> int:
    """The index of the first line of a V8 stack in a script at ``url``."""
    return next(i for i, line in enumerate(stack.splitlines()) if f"({url}:" in line or f"at {url}:" in line)


def _app_frame(stack: str, url: str) -> str:
    """The first frame of a V8 stack in the page itself, as ``url:line:col``."""
    line = stack.splitlines()[_frame(stack, url)]
    return line.strip().rstrip(")").split("(")[-1].removeprefix("at ")


def test_plain_chromium_stacks_hold_the_library_frame_first_then_the_app(driver, url):
    async def stacks(page):
        await page.add_init_script("""
            window.__stacks = {};
            const set = window.setTimeout;
            window.setTimeout = function (...args) {
              window.__stacks.timer = new Error().stack;
              return set.apply(this, args);
            };
            window.addEventListener("error", (e) => { window.__stacks.error = e.error.stack; });""")
        await page.goto(url, wait_until="load")
        await page.wait_for_function("window.__stacks.error")  # the library's timer has fired and thrown
        return await page.evaluate("window.__stacks")

    plain = driver.in_plain_chromium(stacks)
    for stack in plain.values():
        assert _frame(stack, url + "vendor/helpers.min.js") < _frame(stack, url)
    assert _app_frame(plain["timer"], url).startswith(f"{url}:{TIMER_LINE}:")
    assert _app_frame(plain["error"], url).startswith(f"{url}:{THROW_LINE}:")

    trace = driver.execute(url, capture=Capture()).trace
    [timer] = [e for e in trace.events.values() if e.type == "setTimeout"]
    assert timer.params["site"] == _app_frame(plain["timer"], url)
    assert f"at /:{TIMER_LINE}:" in timer.label
    [error] = [e for e in trace.errors if e.kind == "exception"]
    assert "a value is required" in error.message
    assert error.site == _app_frame(plain["error"], url)
