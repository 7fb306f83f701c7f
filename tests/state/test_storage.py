"""Storage as a state category, in Chromium: web storage, IndexedDB and Cache Storage read as
plain Chromium leaves them, and two responses storing one key in either order (in web storage, or
in IndexedDB) make a harmful race that only storage shows."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from webr4.browser.driver import Driver
from webr4.cli import main
from webr4.execution import Capture
from webr4.rundir.execution_files import ExecutionFiles, read_state
from webr4.rundir.session import SessionDir
from webr4.state import StateSnapshot
from webr4.state.categories import page_scripts
from webr4.state.categories.storage import STORAGE
from webr4.sweep.explore import explore
from webr4.sweep.settings import SweepSettings
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

RACING_DATABASE = b"""<!DOCTYPE html><body><p>saved</p><script>
var arrived = [];  // IndexedDB is no race location yet: this is the race webr4 reverses
var ready = new Promise(function (resolve) {
  var opening = indexedDB.open('app', 1);
  opening.onupgradeneeded = function () { opening.result.createObjectStore('kv'); };
  opening.onsuccess = function () { resolve(opening.result); };
});
['/a', '/b'].forEach(function (path) {
  var request = new XMLHttpRequest();
  request.onload = function () {
    arrived.push(path);
    ready.then(function (db) {
      db.transaction('kv', 'readwrite').objectStore('kv').put(request.responseText, 'last');
    });
  };
  request.open('GET', path);
  request.send();
});
</script></body>"""


def test_storage_is_what_plain_chromium_leaves(driver) -> None:
    with page_server(STORING) as url:
        plain = driver.plain(url, PLAIN_STORAGE, until="localStorage.getItem('cart') !== null")
        execution = driver.execute(url, capture=Capture(page_scripts=page_scripts()))
    assert plain == {"localStorage.theme": "dark", "localStorage.cart": '{"n":1}', "sessionStorage.step": "2"}
    assert StateSnapshot.from_execution(execution).storage == plain


DATABASES = """<!DOCTYPE html><body><p id="state">storing</p><script>
const opening = indexedDB.open('shop', 1);
opening.onupgradeneeded = () => {
  opening.result.createObjectStore('cart');
  opening.result.createObjectStore('orders', {keyPath: 'id'});
};
opening.onsuccess = () => {
  const writing = opening.result.transaction(['cart', 'orders'], 'readwrite');
  writing.objectStore('cart').put({sku: 'tea', n: 2}, 1);
  writing.objectStore('cart').put(new Map([['gift', true]]), 'options');
  writing.objectStore('orders').put({id: 7, placed: new Date(Date.UTC(2024, 0, 2)), items: new Set(['tea'])});
  writing.oncomplete = () => caches.open('pages')
    .then((cache) => cache.put('/offline', new Response('hi', {headers: {'content-type': 'text/plain'}})))
    .then(() => { document.getElementById('state').textContent = 'stored'; });
};
</script></body>"""


def test_indexeddb_and_cache_storage_are_what_plain_chromium_leaves(driver) -> None:
    with page_server(DATABASES) as url:
        plain = driver.plain(url, STORAGE.page_script,
                             until="document.getElementById('state').textContent === 'stored'")
        execution = driver.execute(url, capture=Capture(page_scripts=page_scripts()))
    assert plain == {
        'indexedDB.shop.cart[1]': '{"sku":"tea","n":2}',
        'indexedDB.shop.cart["options"]': '{"Map":[["gift",true]]}',
        'indexedDB.shop.orders[7]': '{"id":7,"placed":"2024-01-02T00:00:00.000Z","items":{"Set":["tea"]}}',
        f'caches.pages[{url.rstrip("/")}/offline]': "200 text/plain, 2 bytes, sha256 8f434346648f6b96",
    }
    assert StateSnapshot.from_execution(execution).storage == plain


def _respond(path: str) -> tuple[str, bytes] | None:
    if path in ("/", "/database/"):
        return "text/html", RACING if path == "/" else RACING_DATABASE
    if path in ("/a", "/b"):
        time.sleep(0.05 if path == "/a" else 0.15)  # /a answers first when recorded
        return "text/plain", path[1:].encode()
    return None


@pytest.mark.parametrize(("page", "item", "shown"), [
    ("/", 'localStorage.last: "b" → "a"', {"storage"}),
    # the page's own race (on the array) shows in the heap
    ("/database/", 'indexedDB.app.kv["last"]: "\\"b\\"" → "\\"a\\""', {"storage", "heap"})],
    ids=["web-storage", "indexeddb"])
def test_two_responses_storing_one_key_race_harmfully_on_storage(driver, tmp_path: Path, page: str, item: str,
                                                                 shown: set[str]) -> None:
    async def sweep(driver: Driver):
        session = await record(driver, base + page, tmp_path / "session", [])
        return await explore(driver, session, tmp_path / "run", SweepSettings(bound=1, max_sequences=10))

    with route_server(_respond) as base:
        reversals = driver.run(sweep).reversals
    on_storage = [r for r in reversals if "storage-diff" in r.reasons]
    assert on_storage, reversals
    assert all(r.verdict == "harmful" and set(r.differences) == shown for r in on_storage)
    assert on_storage[0].differences["storage"] == [item]


KEEPING = """<!DOCTYPE html><body><p>kept</p><script>
var cart = {items: 2};
localStorage.setItem('theme', 'dark');
</script></body>"""


def test_webr4_run_and_a_recording_keep_the_heap_and_storage_a_sweep_compares(driver, tmp_path: Path) -> None:
    with page_server(KEEPING) as url:
        result = CliRunner().invoke(main, ["run", url, "--out", str(tmp_path / "run"), "--no-screenshot"])
        assert result.exit_code == 0, result.output
        driver.run(lambda shared: record(shared, url, tmp_path / "session", []))
    for state in (read_state(ExecutionFiles(tmp_path / "run").state),
                  read_state(SessionDir(tmp_path / "session").seed.state)):
        assert state.heap, "the heap a sweep compares"
        assert state.storage == {"localStorage.theme": "dark"}
