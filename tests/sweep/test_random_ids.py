"""A reversal does not rename what the page generated.

On this page two responses race to fill a slot each with a labelled field: the field's id is
made from ``Date.now()`` and ``Math.random()``, its hint's from ``Math.random()`` alone, and the
label, the field's ``aria-describedby`` and a link point at them. Which response comes first
changes nothing the user sees. Each event draws from a random stream of its own, so the hint
ids stay put when the two trade places; the earlier response runs later in virtual time, so its
field's id moves, and every reference with it: that consistent renaming is no difference. Plain
Chromium, without webr4, ends in both orders with a DOM of the same structure.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.async_api import Page

from webr4.browser.driver import Driver
from webr4.record.session import record
from webr4.report.write import write_report
from webr4.resources import javascript
from webr4.rundir.run import RunDir
from webr4.rundir.summary import Summary
from webr4.state.categories.dom import diff_dom
from webr4.sweep.explore import explore
from webr4.sweep.settings import SweepSettings
from webr4.rundir.runfiles import RunFiles

from ..route_server import route_server

pytestmark = pytest.mark.browser

PAGE = b"""<!DOCTYPE html><title>Fields</title><p id="status">loading</p>
<div id="slot-a"></div><div id="slot-b"></div>
<script>
var done = 0;
function field(slot, name) {
  var id = 'f-' + Date.now().toString(36) + '-' + Math.random().toString(36).slice(2, 8);
  var hint = 'h-' + Math.random().toString(36).slice(2, 8);
  var label = document.createElement('label');
  label.htmlFor = id;
  label.textContent = name;
  var input = document.createElement('input');
  input.id = id;
  input.setAttribute('aria-describedby', hint);
  var help = document.createElement('small');
  help.id = hint;
  help.textContent = name + ' help';
  var link = document.createElement('a');
  link.href = '#' + id;
  link.textContent = 'edit ' + name;
  document.getElementById(slot).append(label, input, help, link);
  done = done + 1;
  document.getElementById('status').textContent = done === 2 ? 'ready' : 'loading';
}
function load(url, slot) {
  var request = new XMLHttpRequest();
  request.open('GET', url);
  request.onload = function () { field(slot, request.responseText); };
  request.send();
}
load('a.txt', 'slot-a');
setTimeout(function () { load('b.txt', 'slot-b'); }, 10);
</script>"""

CAPTURE_DOM = f"() => ({javascript('capture_dom.js')})()"


def _respond(slow: dict[str, float]):
    files = {"/": ("text/html", PAGE), "/a.txt": ("text/plain", b"name"), "/b.txt": ("text/plain", b"email")}

    def respond(path: str) -> tuple[str, bytes] | None:
        time.sleep(slow.get(path, 0))
        return files.get(path)

    return respond


@pytest.fixture(scope="module")
def swept(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Summary, Path, dict[str, str]]]:
    """The sweep of the page, and its final DOM in plain Chromium with a's response first
    (``a-first``) and with it late (``b-first``)."""
    out = tmp_path_factory.mktemp("random-ids")
    slow: dict[str, float] = {}
    with route_server(_respond(slow)) as base:
        async def plain(page: Page) -> str:
            await page.goto(base + "/")
            await page.wait_for_function("document.getElementById('status').textContent === 'ready'")
            return await page.evaluate(CAPTURE_DOM)

        async def go() -> tuple[Summary, dict[str, str]]:
            async with Driver() as driver:
                session = await record(driver, base + "/", out / "session", [])
                summary = await explore(driver, session, out, SweepSettings(bound=1, max_sequences=10))
                doms = {}
                for order, delay in (("a-first", 0.0), ("b-first", 0.5)):
                    slow["/a.txt"] = delay
                    context = await driver.browser.new_context()
                    try:
                        doms[order] = await plain(await context.new_page())
                    finally:
                        await context.close()
                return summary, doms

        summary, doms = asyncio.run(go())
    yield summary, out, doms


def _responses_reversed(summary: Summary) -> list:
    """The reversals of the two responses, in either direction."""
    return [r for r in summary.reversals if sorted("a.txt" in label for label in (r.first, r.second)) == [False, True]
            and any("b.txt" in label for label in (r.first, r.second)) and r.first.startswith("XHR")
            and r.second.startswith("XHR")]


def test_reversing_the_two_responses_is_harmless_and_renames_only_what_follows_the_clock(swept) -> None:
    summary, out, _ = swept
    reversed_ = _responses_reversed(summary)
    assert reversed_, [(r.first, r.second) for r in summary.reversals]
    for report in reversed_:
        assert report.verdict == "harmless", report
        renamed = json.loads(RunDir(out).witness(report.index).diff.read_text())["dom"]["renamed"]
        # a's field id moved with the clock, and was renamed alike everywhere; no hint id moved
        assert [old[:2] for old in renamed] == ["f-"], renamed


def test_plain_chromium_ends_in_either_order_with_the_structure_webr4_compares(swept) -> None:
    summary, out, doms = swept
    assert doms["a-first"] != doms["b-first"]  # the ids differ: plain Chromium draws its own
    report = _responses_reversed(summary)[0]
    with RunFiles(out) as files:
        parent, child = files.state(report.parent), files.state(report.index)
    assert parent is not None and child is not None
    for plain in doms.values():
        for webr4 in (parent.dom, child.dom):
            assert not diff_dom(plain, webr4), diff_dom(plain, webr4).hunks


def test_the_reversal_page_says_which_renaming_it_ignored(swept, driver) -> None:
    summary, out, _ = swept
    write_report(out)
    report = _responses_reversed(summary)[0]
    renamed = json.loads(RunDir(out).witness(report.index).diff.read_text())["dom"]["renamed"]

    async def read(page: Page) -> str:
        await page.goto(RunDir(out).report_page(report.index).as_uri())
        return await page.locator("p.renamed").inner_text()

    note = driver.in_plain_chromium(read)
    assert note.startswith("Ignored, renamed alike wherever referenced")
    assert all(f"#{old} → #{new}" in note for old, new in renamed.items()), note
