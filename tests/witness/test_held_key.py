"""A timer that fires while a press's key is down is forced by holding the key down.

The app adds a todo on Enter's keydown and, on its keyup, saves the list on a 500 ms throttle,
cleared and set again by each keyup. Reversed, the first Enter's throttle fires after the second
Enter's keydown and before its keyup (a user holding Enter for half a second): the list is saved
twice. Playwright's ``press`` puts the key down and up in one call, so the plain run performs that
step as ``keyboard.down``, runs the clock to the throttle, then ``keyboard.up``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest


from ..route_server import route_server
from .sweeping import record_and_sweep

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><title>Todos</title>
<input id="new-todo"><ul id="todo-list"></ul><p id="saved"></p>
<script>
var field = document.getElementById('new-todo'), list = document.getElementById('todo-list'), throttle;
field.addEventListener('keydown', function (event) {
  if (event.key !== 'Enter' || !field.value) return;
  var item = document.createElement('li');
  item.textContent = field.value;
  list.appendChild(item);
  field.value = '';
});
field.addEventListener('keyup', function (event) {
  if (event.key !== 'Enter') return;
  clearTimeout(throttle);
  throttle = setTimeout(function () {
    document.getElementById('saved').textContent += '[saved ' + list.children.length + ']';
  }, 500);
});
</script>"""
SESSION = [{"fill": "#new-todo", "value": "milk"}, {"press": "#new-todo", "key": "Enter"},
           {"fill": "#new-todo", "value": "dog"}, {"press": "#new-todo", "key": "Enter"}]


@pytest.fixture(scope="module")
def app_url() -> Iterator[str]:
    files = {"/": ("text/html", PAGE.encode())}
    with route_server(lambda path: files.get(path)) as base:
        yield base + "/"


def test_a_throttle_between_a_presss_keydown_and_keyup_is_confirmed_with_the_key_held(app_url, tmp_path) -> None:
    summary = record_and_sweep(app_url, tmp_path, SESSION)
    held = [r for r in summary.harmful() if r.second.startswith("setTimeout 500ms") and r.first.startswith("keyup")]
    assert len(held) == 1, summary.reversals
    assert held[0].confirmation_status == "confirmed", held[0].confirmation
