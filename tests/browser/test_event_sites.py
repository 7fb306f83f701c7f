"""Where a page created an event is named in its own source: the position V8 reports for the call
in plain Chromium, even on a long minified line that rewriting for the access log made several
times longer (the rewritten position is mapped back exactly, not found by aligning the texts)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Page

from webr4.execution import Capture
from webr4.serve import serve

pytestmark = pytest.mark.browser

# One line, as minifiers write it, with non-ASCII names before every call.
BUNDLE = "".join(f"var é{n}={{a:{n}}};é{n}.a=é{n}.a+1;function f{n}(x){{return x.a+é{n}.a}}"
                 f"if(é{n}.a%50==1)setTimeout(function(){{f{n}(é{n})}},{n});" for n in range(300))
INLINE = "".join(f"var i{n}={{b:{n}}};i{n}.b+=1;" for n in range(200)) + "setTimeout(function(){i0.b=0},1);"
PAGE = (f'<!doctype html><html><head><meta charset="utf-8"></head><body><p>sites</p>\n'
        f'<script src="bundle.js"></script>\n<script>{INLINE}</script>\n</body></html>')
# In plain Chromium: where each setTimeout was called from, as V8 names the caller's frame.
CALLERS = """(() => { const original = window.setTimeout; window.__callers = [];
  window.setTimeout = function (...args) {
    const frame = new Error().stack.split("\\n")[2];
    window.__callers.push(frame.slice(frame.lastIndexOf("/") + 1).replace(/\\)$/, ""));
    return original.apply(this, args); }; })();"""


def test_event_sites_are_the_positions_plain_chromium_reports(driver, tmp_path: Path):
    (tmp_path / "index.html").write_text(PAGE, encoding="utf-8")
    (tmp_path / "bundle.js").write_text(BUNDLE, encoding="utf-8")
    with serve(tmp_path) as base:
        async def plain(page: Page) -> list[str]:
            await page.add_init_script(CALLERS)
            await page.goto(base + "index.html", wait_until="load")
            return await page.evaluate("window.__callers")

        expected = driver.in_plain_chromium(plain)
        seed = driver.execute(base + "index.html", capture=Capture())
    sites = [event.params["site"].rsplit("/", 1)[-1] for event in seed.trace.events.values()
             if event.type == "setTimeout"]
    assert len(expected) == 7 and sorted(sites) == sorted(expected)
