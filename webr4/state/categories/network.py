"""``network``: the requests whose responses the execution saw, as sorted ``"METHOD url"``.

Compared as a multiset; kept in the state as ``requests``. Items: ``new GET /b.json``,
``missing GET /a.json``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from webr4.state.categories.multiset import MultisetCategory
from webr4.state.categories.words import clip, where
from webr4.trace import Category, Trace

if TYPE_CHECKING:
    from webr4.execution import Execution


def requests_of(trace: Trace) -> list[str]:
    """Sorted ``"METHOD url"`` of the network events of ``trace`` (executed or pending): XHR and
    fetch carry ``method``/``url``, element and script loads a ``src`` fetched with GET."""
    out = []
    for event in trace.events.values():
        if event.category is not Category.NETWORK:
            continue
        url = event.params.get("url") or event.params.get("src")
        if url:
            out.append(f"{str(event.params.get('method') or 'GET').upper()} {url}")
    return sorted(out)


class Network(MultisetCategory):
    name = "network"
    title = "Network requests"
    new = "new "
    lost = "missing "

    @property
    def key(self) -> str:
        return "requests"

    def capture(self, execution: Execution) -> list[Any]:
        return requests_of(execution.trace)

    def show(self, item: Any) -> str:
        method, _, url = item.partition(" ")
        return clip(f"{method} {where(url)}")


NETWORK = Network()
