"""A dynamic ``import()`` settles under webr4 as in plain Chromium.

The browser loads a dynamically imported module graph by itself, with no element the runtime
sees, and runs its code when the whole graph has come. The event that imports must wait for
that, as it waits for a request it sent: otherwise the execution ends before the module's code
and the page's reaction to it have run. Each page imports a module that takes more than a
moment to load: one with a static import of its own (two round trips, as Shoelace's component
modules have), and one whose response comes late (as a large module's does). The harness serves a
module graph at once, the URLs a script computes too (as Shoelace's autoloader does), which only
the page knows, and a module a classic script imports.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from urllib.parse import quote, unquote

import pytest

from webr4.browser.responses import ResponseStore
from webr4.execution import Capture

from ..route_server import route_server

pytestmark = pytest.mark.browser

OUT = "document.getElementById('out').textContent"


def _page(specifier: str, kind: str) -> bytes:
    """A page whose script of type ``kind`` imports ``specifier``."""
    query = quote(specifier)
    return f'<!doctype html><p id="out">waiting</p><script type="{kind}" src="/import.js?{query}"></script>'.encode()


def _importer(specifier: str) -> bytes:
    """A script that imports ``specifier`` (a JS expression) and shows the imported ``word`` (or
    why the import failed)."""
    return (f'const out = document.getElementById("out");\n'
            f'import({specifier}).then((m) => {{ out.textContent = "dynamic " + m.word; }},'
            ' (e) => { out.textContent = "failed " + e; });').encode()


SCRIPTS = {
    "/mid.js": b'export { word } from "./leaf.js";',
    "/leaf.js": b'export const word = "chain loaded";',
    "/late.js": b'export const word = "late module loaded";',
}
LATE_S = 0.3  # how long /late.js takes to come
IMPORTED = {"/chain": ('"./mid.js"', "module"), "/late": ('"./late.js"', "module"),
            "/computed": ('`./${"mi" + "d"}.js`', "module"), "/classic": ('"./mid.js"', "text/javascript")}
"""Page → the specifier its script imports, and the script's type."""
SHOWN = {"/chain": "dynamic chain loaded", "/late": "dynamic late module loaded", "/computed": "dynamic chain loaded",
         "/classic": "dynamic chain loaded"}
"""Page → what plain Chromium shows once the module has loaded."""


def _respond(path: str) -> tuple[str, bytes] | None:
    """The pages of :data:`IMPORTED`, their importing module and the modules they import."""
    page, _, query = path.partition("?")
    if page in IMPORTED:
        return "text/html", _page(*IMPORTED[page])
    if page == "/import.js":
        return "text/javascript", _importer(unquote(query))
    if page == "/late.js":
        time.sleep(LATE_S)
    return ("text/javascript", SCRIPTS[page]) if page in SCRIPTS else None


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with route_server(_respond) as url:
        yield url


@pytest.mark.parametrize(("page", "shown"), SHOWN.items())
def test_a_dynamically_imported_module_loads_as_in_plain_chromium(driver, base, page, shown):
    url = base + page
    execution = driver.execute(url, store=ResponseStore(), live_network=True,
                               capture=Capture(page_scripts={"out": f"() => {OUT}"}))
    assert driver.plain(url, OUT, until=f"{OUT} !== 'waiting'") == shown
    assert execution.captured["out"] == shown
