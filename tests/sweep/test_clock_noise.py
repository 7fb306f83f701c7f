"""What follows the virtual clock or the random numbers is learnt and masked, and said so.

A reversal runs an event at another virtual time. On this page a response and a timer each add
an entry stamped with ``Date.now()`` and given a random id; the order of the two does not matter
to anything a user sees, only the stamps and ids move. A replay of the seed with the clock and
the random seed moved shows what follows them; the sweep masks it, says so in the summary, and
judges the reversal harmless. A reversal that changes what the user sees stays harmful.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from webr4.browser.driver import Driver
from webr4.record.session import record
from webr4.rundir.run import RunDir
from webr4.sweep.explore import explore
from webr4.sweep.settings import SweepSettings
from webr4.rundir.summary import Summary

from ..route_server import route_server

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><title>Entries</title><p id="count">0 entries</p><ul id="entries"></ul><p id="last"></p>
<script>
var entries = {}, count = 0;
function add(name, last) {
  var entry = {created: Date.now(), id: Math.random().toString(36).slice(2)};
  entries[name] = entry;
  count = count + 1;
  localStorage.setItem(name, JSON.stringify(entry));
  var item = document.createElement('li');
  item.dataset.created = entry.created;
  item.dataset.id = entry.id;
  document.getElementById('entries').appendChild(item);
  document.getElementById('count').textContent = count + ' entries';
  if (last) document.getElementById('last').textContent = name;
}
setTimeout(function () { add('timer', %s); }, 100);
var request = new XMLHttpRequest();
request.open('GET', 'data.txt');
request.onload = function () { add('response', %s); };
request.send();
</script>"""


def _sweep(html: str, out) -> Summary:
    files = {"/": ("text/html", html.encode()), "/data.txt": ("text/plain", b"ok")}
    with route_server(lambda path: files.get(path)) as base:
        async def go() -> Summary:
            async with Driver() as driver:
                session = await record(driver, base + "/", out / "session", [])
                return await explore(driver, session, out, SweepSettings(bound=1, max_sequences=10))

        return asyncio.run(go())


@pytest.fixture(scope="module")
def stamps_only(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[object, object]]:
    out = tmp_path_factory.mktemp("stamps")
    yield _sweep(PAGE % ("false", "false"), out), out


def test_a_reversal_that_only_moves_stamps_and_random_ids_is_harmless(stamps_only) -> None:
    summary, _ = stamps_only
    assert summary.reversals and all(r.verdict == "harmless" for r in summary.reversals), summary.reversals


def test_the_summary_says_what_follows_the_clock(stamps_only) -> None:
    summary, out = stamps_only
    masked = RunDir(out).read_summary().clock_noise
    assert masked == summary.clock_noise
    assert any(item.startswith("storage: ") for item in masked), masked
    assert any(item.startswith("heap: ") and "created" in item for item in masked), masked
    assert not any("count" in item for item in masked)  # what the user reads is still compared


def test_a_reversal_that_changes_what_the_user_reads_stays_harmful(tmp_path) -> None:
    summary = _sweep(PAGE % ("true", "true"), tmp_path)
    assert any(r.verdict == "harmful" for r in summary.reversals), summary.reversals
