"""Custom elements that render into open shadow roots: a race inside one is found and named.

A ``<user-card>`` shows a status in its shadow root; a response fills it in unless a timer
marked it offline first, and the user clicks a button of the shadow root, which ``--auto``
finds there. Plain Chromium driven
by Playwright is the oracle for the page's end; the sweep must find the harmful reversal, name
its racing location and its difference inside the shadow root in words people read, and show
them in the report.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Page

from ..route_server import route_server
from webr4.record.session import record
from webr4.rundir.execution_files import read_state
from webr4.record.steps import AutoExplore
from webr4.report.write import write_report
from webr4.resources import javascript
from webr4.sweep.explore import explore
from webr4.sweep.settings import SweepSettings

pytestmark = pytest.mark.browser

PAGE = b"""<!doctype html><title>user card</title>
<user-card id=card></user-card>
<script>
class UserCard extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: 'open' }).innerHTML =
      '<h2 id=name>someone</h2><ul><li>first</li><li>pending</li></ul><button id=greet>greet</button>';
    this.shadowRoot.getElementById('greet').addEventListener('click', () => {
      this.shadowRoot.getElementById('name').textContent = 'hello';
    });
  }
  get status() { return this.shadowRoot.querySelector('li:last-child').textContent; }
  set status(text) { this.shadowRoot.querySelector('li:last-child').textContent = text; }
}
customElements.define('user-card', UserCard);
const card = document.getElementById('card');
setTimeout(() => { if (card.status === 'pending') card.status = 'offline'; }, 2000);
fetch('/user').then((r) => r.text()).then((name) => { if (card.status === 'pending') card.status = name; });
</script>"""

FILES = {"/": ("text/html", PAGE), "/user": ("text/plain", b"Ada")}
STATUS = "user-card#card > #shadow-root > ul > li:nth-of-type(2)"


def _plain_dom(driver, url: str) -> str:
    async def load(page: Page) -> str:
        await page.goto(url)
        await page.wait_for_function("document.getElementById('card').status !== 'pending'")
        await page.click("#greet")
        return await page.evaluate(javascript("capture_dom.js"))

    return driver.in_plain_chromium(load)


def test_a_race_inside_a_shadow_root_is_found_named_and_shown(driver, tmp_path: Path):
    with route_server(FILES.get) as base:
        url = base + "/"
        plain = _plain_dom(driver, url)

        async def record_and_explore(d):
            session = await record(d, url, tmp_path / "session", AutoExplore(1))
            return session, await explore(d, session, tmp_path / "run", SweepSettings(bound=1, max_sequences=6))

        session, summary = driver.run(record_and_explore)
    assert session.actions == [{"click": "#card #greet"}]  # --auto found the button inside the root
    seed = session.seed_trace()
    assert "click on #card #greet" in [seed.events[e].label for e in seed.sequence]
    assert read_state(session.files.seed.state).dom == plain and "hello" in plain and "Ada" in plain

    harmful = [r for r in summary.harmful() if STATUS in " ".join(r.differences.get("dom", []))]
    assert harmful, [(r.first, r.second, r.verdict, r.differences) for r in summary.reversals]
    reversal = harmful[0]
    assert reversal.differences["dom"] == [f'{STATUS}: "Ada" → "offline"']
    assert "#card>#shadow-root>ul>li:nth-of-type(2).textContent" in reversal.locations

    page = (write_report(tmp_path / "run").parent / f"reversal-{reversal.id}.html").read_text()
    assert "#shadow-root" in page and "offline" in page
