"""A step that cannot happen once the order is forced is part of what plain Chromium shows.

The user adds a todo and then ticks it. Typed before the app's script has run, the todo is lost
(the inline handler finds no store), so there is nothing to tick: in webr4's reversed run that
step never happens, and in plain Chromium, with the script held until the user has typed, its
target never appears either. The order was forced; the missing todo is the outcome, and the
harmful verdict is confirmed, not called unforceable.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest


from ..route_server import route_server
from .sweeping import record_and_sweep

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><title>Todos</title>
<script async src="app.js"></script>
<input id="new-todo" onkeydown="if (event.key === 'Enter' &amp;&amp; window.store) store.add(this)">
<ul id="todo-list"></ul>"""
APP = """window.store = { add: function (field) {
  var item = document.createElement('li');
  item.innerHTML = '<input class="toggle" type="checkbox"> <label></label>';
  item.querySelector('label').textContent = field.value;
  document.getElementById('todo-list').appendChild(item);
  field.value = '';
} };"""
SESSION = [{"fill": "#new-todo", "value": "milk"}, {"press": "#new-todo", "key": "Enter"},
           {"click": "#todo-list li .toggle"}]


@pytest.fixture(scope="module")
def app_url() -> Iterator[str]:
    files = {"/": ("text/html", PAGE.encode()), "/app.js": ("text/javascript", APP.encode())}
    with route_server(lambda path: files.get(path)) as base:
        yield base + "/"


def test_a_todo_lost_before_the_app_runs_is_confirmed_although_it_cannot_be_ticked(app_url, tmp_path) -> None:
    summary = record_and_sweep(app_url, tmp_path, SESSION)
    early = [r for r in summary.harmful() if r.second.startswith("keydown") and r.first == "async script /app.js"]
    assert len(early) == 1, summary.reversals
    assert early[0].confirmation_status == "confirmed", early[0].confirmation
