"""Web storage as a state category, in Chromium: read as plain Chromium leaves it, and two
responses storing one key in either order make a harmful race that only storage shows."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from webr4.browser.driver import Driver
from webr4.state import StateSnapshot
from webr4.state.categories import page_scripts
from webr4.sweep.explore import explore
from webr4.record.session import record

from ..route_server import page_server, route_server

pytestmark = pytest.mark.browser

STORING = """<!DOCTYPE html><body><p>storage</p><script>
localStorage.setItem('theme', 'dark');
localStorage.setItem('draft', 'x');
sessionStorage.step = '1';
setTimeout(function () {
  localStorage.removeItem('draft');
  sessionStorage.setItem('step', '2');
  localStorage['cart'] = JSON.stringify({n: 1});
}, 20);
</script></body>"""

PLAIN_STORAGE = """() => {
  const out = {};
  for (const [name, area] of [["localStorage", localStorage], ["sessionStorage", sessionStorage]])
    for (const [key, value] of Object.entries(area)) out[name + "." + key] = value;
  return out;
}"""

RACING = b"""<!DOCTYPE html><body><p>saved</p><script>
['/a', '/b'].forEach(function (path) {
  var request = new XMLHttpRequest();
  request.onload = function () { localStorage.setItem('last', request.responseText); };
  request.open('GET', path);
  request.send();
});
</script></body>"""


def test_storage_is_what_plain_chromium_leaves(driver) -> None:
    with page_server(STORING) as url:
        plain = driver.plain(url, PLAIN_STORAGE)
        execution = driver.execute(url, captures=page_scripts())
    assert plain == {"localStorage.theme": "dark", "localStorage.cart": '{"n":1}', "sessionStorage.step": "2"}
    assert StateSnapshot.from_execution(execution).storage == plain


def _respond(path: str) -> tuple[str, bytes] | None:
    if path == "/":
        return "text/html", RACING
    if path in ("/a", "/b"):
        time.sleep(0.05 if path == "/a" else 0.15)  # /a answers first when recorded
        return "text/plain", path[1:].encode()
    return None


def test_two_responses_storing_one_key_race_harmfully_on_storage_alone(tmp_path: Path) -> None:
    async def run():
        async with Driver() as driver:
            session = await record(driver, base + "/", tmp_path / "session", [])
            return await explore(driver, session, tmp_path / "run", bound=1, max_sequences=10)

    with route_server(_respond) as base:
        reversals = asyncio.run(run()).reversals
    on_storage = [r for r in reversals if "storage-diff" in r.reasons]
    assert on_storage, reversals
    assert all(r.verdict == "harmful" and list(r.differences) == ["storage"] for r in on_storage)
    assert on_storage[0].differences["storage"] == ['localStorage.last: "b" → "a"']
