"""Each event draws its random values from a stream of its own: whatever runs before it, an
event gets the same ``Math.random()``, ``crypto.getRandomValues`` and ``crypto.randomUUID()``
values, and the run's seed still chooses them all."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from webr4.browser.responses import ResponseStore
from webr4.execution import Capture

from ..route_server import route_server

pytestmark = pytest.mark.browser

PAGE = b"""<!DOCTYPE html><title>Draws</title><script>
var draws = {};
function draw(name) {
  draws[name] = [Math.random(), Array.from(crypto.getRandomValues(new Uint32Array(2))), crypto.randomUUID()];
}
['a.txt', 'b.txt'].forEach(function (url) {
  var request = new XMLHttpRequest();
  request.open('GET', url);
  request.onload = function () { draw(url); };
  request.send();
});
</script>"""
DRAWS = {"draws": "() => window.draws"}


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    files = {"/": ("text/html", PAGE), "/a.txt": ("text/plain", b"a"), "/b.txt": ("text/plain", b"b")}
    with route_server(lambda path: files.get(path)) as base:
        yield base + "/"


def test_two_responses_draw_the_same_values_in_either_order(driver, page_url):
    store = ResponseStore()
    first = driver.execute(page_url, store=store, live_network=True, capture=Capture(page_scripts=DRAWS))
    labels = {event: first.trace.events[event].label for event in first.trace.sequence}
    order = first.trace.sequence
    a, b = (next(i for i, event in enumerate(order) if name in labels[event]) for name in ("a.txt", "b.txt"))
    assert b == a + 1, [labels[event] for event in order]
    swapped = driver.execute(page_url, [*order[:a], order[b], order[a]], store=store,
                             capture=Capture(page_scripts=DRAWS))
    assert swapped.trace.sequence[a:b + 1] == [order[b], order[a]]
    draws = first.captured["draws"]
    assert swapped.captured["draws"] == draws
    assert draws["a.txt"] != draws["b.txt"]
    other_seed = driver.execute(page_url, store=store, seed=1, capture=Capture(page_scripts=DRAWS)).captured["draws"]
    assert all(other_seed[name][i] != draws[name][i] for name in draws for i in range(3))
