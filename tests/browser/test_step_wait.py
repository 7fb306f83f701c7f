"""User steps wait like a person: for their target to be actionable and the page to go quiet.

The oracle is Playwright's own auto-wait in plain Chromium: a session on an app that a module
loader builds after ``load`` (a chain of 4 ms timers and script loads) works there, so it must
be recorded under webr4 too, end with the same DOM, and replay to the same order. A step that
never happens says why in one line.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from webr4.browser.limits import Limits
from webr4.browser.driver import Driver
from webr4.browser.schedule import QUIET_PATIENCE_MS
from webr4.cli import main
from webr4.execution import Capture
from webr4.record.auto import perform
from webr4.record.scripted import plain_page
from webr4.record.session import Session, SessionError, record
from webr4.resources import javascript
from webr4.rundir.execution_files import read_state
from webr4.rundir.session import SessionDir
from webr4.trace import Category

from ..route_server import page_server, route_server

pytestmark = pytest.mark.browser

LOADER = """<!DOCTYPE html><html><head><title>Shopping list</title></head><body>
<div id="app"><p id="loading">Loading...</p></div>
<ul id="list"><li class="row" hidden><span class="name"></span> <button class="remove">remove</button></li></ul>
<script src="loader.js"></script></body></html>"""
LOADER_JS = """// A module loader: after load, each module is a script added on a short timer; the last
// one defines boot(), which a final timer calls to build the app.
var modules = ['store.js', 'view.js'];
function loadNext(i) {
  if (i === modules.length) { setTimeout(function () { boot(); }, 4); return; }
  setTimeout(function () {
    var script = document.createElement('script');
    script.src = modules[i];
    script.onload = function () { loadNext(i + 1); };
    document.head.appendChild(script);
  }, 4);
}
window.addEventListener('load', function () { loadNext(0); });"""
STORE = "window.store = { items: ['bread'] };"
VIEW = """window.boot = function () {
  var list = document.getElementById('list');
  var template = list.firstElementChild;
  template.remove();
  function render() {
    list.textContent = '';
    store.items.forEach(function (name, i) {
      var row = template.cloneNode(true);
      row.hidden = false;
      row.querySelector('.name').textContent = name;
      row.querySelector('.remove').addEventListener('click', function () { store.items.splice(i, 1); render(); });
      list.appendChild(row);
    });
    document.getElementById('count').textContent = store.items.length + ' items';
  }
  document.getElementById('app').innerHTML = '<input id="name"> <button id="add">Add</button> <p id="count"></p>';
  document.getElementById('add').addEventListener('click', function () {
    var field = document.getElementById('name');
    store.items.push(field.value);
    field.value = '';
    render();
  });
  render();
};"""
SESSION: list[dict[str, Any]] = [
    {"click": ".row .remove"},  # at load this matches only the hidden template row
    {"fill": "#name", "value": "milk"}, {"click": "#add"},
    {"fill": "#name", "value": "eggs"}, {"click": "#add"},
]


@pytest.fixture(scope="module")
def loader_url() -> Iterator[str]:
    files = {"/": ("text/html", LOADER), "/loader.js": ("text/javascript", LOADER_JS),
             "/store.js": ("text/javascript", STORE), "/view.js": ("text/javascript", VIEW)}
    with route_server(lambda path: (files[path][0], files[path][1].encode()) if path in files else None) as base:
        yield base + "/"


def _record(url: str, out: Path, steps: list[dict[str, Any]], limits: Limits = Limits()) -> Session:
    async def go() -> Session:
        async with Driver() as driver:
            return await record(driver, url, out, steps, limits=limits)

    return asyncio.run(go())


def _seed_dom(session: Path) -> str:
    """The final DOM the recording of ``session`` ended with."""
    return read_state(SessionDir(session).seed.state).dom


def test_a_session_on_an_app_a_module_loader_builds_is_recorded_as_in_plain_chromium(loader_url, driver, tmp_path):
    with plain_page(loader_url) as page:
        for step in SESSION:
            perform(page, step)  # Playwright's auto-wait
        plain = page.evaluate(javascript("capture_dom.js"))
    assert "milk" in plain and "eggs" in plain and "2 items" in plain and "bread" not in plain

    session = _record(loader_url, tmp_path / "session", SESSION)
    assert _seed_dom(tmp_path / "session") == plain

    seed = session.seed_trace()
    replay = driver.execute(session.url, seed.sequence, actions=session.user_actions, store=session.network(),
                            live_network=False, limits=session.run_limits, capture=Capture())
    assert replay.trace.sequence == seed.sequence and replay.dom == plain


def test_a_step_waits_for_the_page_to_go_quiet_but_not_for_an_animation_loop(tmp_path):
    # The button is there from the start; its handler comes after a chain of 4 ms timers, while
    # an animation loop runs for ever.
    page = """<button id="go">Go</button><p id="out"></p><script>
    function attach(n) {
      if (n === 0) { go.addEventListener('click', function () { out.textContent = 'went'; }); return; }
      setTimeout(function () { attach(n - 1); }, 4);
    }
    window.addEventListener('load', function () { attach(3); });
    (function spin() { requestAnimationFrame(spin); })();
    </script>"""
    with page_server(page) as url:
        session = _record(url, tmp_path / "session", [{"click": "#go"}])
    seed = session.seed_trace()
    timers = [s.time for s in seed.steps if seed.events[s.event].type == "setTimeout"]
    click = next(s.time for s in seed.steps if seed.events[s.event].category is Category.USER)
    assert len(timers) == 3 and max(timers) <= click < 100
    assert "went" in _seed_dom(tmp_path / "session")


def test_a_page_that_never_goes_quiet_is_waited_for_a_second_then_the_step_goes_ahead(tmp_path):
    ticking = """<button id="go" onclick="out.textContent = 'went'">Go</button><p id="out"></p>
    <script>setInterval(function () {}, 20);</script>"""
    with page_server(ticking) as url:
        session = _record(url, tmp_path / "session", [{"click": "#go"}], Limits(horizon_ms=2_000))
    seed = session.seed_trace()
    click = next(s.time for s in seed.steps if seed.events[s.event].category is Category.USER)
    assert QUIET_PATIENCE_MS <= click <= QUIET_PATIENCE_MS + 20
    assert "went" in _seed_dom(tmp_path / "session")


SPLASH = """<div id="splash" style="position: fixed; inset: 0; background: navy">Welcome</div>
<button id="go" onclick="out.textContent = splash.hidden ? 'went' : 'lost'">Go</button><p id="out"></p>
<script>setTimeout(function () { splash.hidden = true; }, 700);</script>"""


def test_a_click_under_a_splash_screen_waits_for_the_timer_that_takes_it_away(tmp_path):
    with page_server(SPLASH) as url:
        with plain_page(url) as page:
            perform(page, {"click": "#go"})  # Playwright waits until the button receives the pointer
            plain = page.evaluate(javascript("capture_dom.js"))
        session = _record(url, tmp_path / "session", [{"click": "#go"}])
    assert "went" in plain and _seed_dom(tmp_path / "session") == plain
    seed = session.seed_trace()
    timer = next(s.time for s in seed.steps if seed.events[s.event].type == "setTimeout")
    click = next(s.time for s in seed.steps if seed.events[s.event].category is Category.USER)
    assert 700 <= timer <= click


def test_a_target_that_stays_covered_says_so(tmp_path):
    covered = '<button id="go">Go</button><div style="position: fixed; inset: 0; background: navy"></div>'
    with page_server(covered) as url:
        assert _never_happens(url, tmp_path, {"click": "#go"}) == (
            "step 1 (click on #go) never happened: another element stayed over it, "
            "and the page had nothing left to run")


def _never_happens(url: str, tmp_path: Path, step: dict[str, Any], limits: Limits = Limits()) -> str:
    with pytest.raises(SessionError) as raised:
        _record(url, tmp_path / "session", [step], limits)
    assert not (tmp_path / "session").exists()
    message = str(raised.value)
    assert "\n" not in message
    return message


def test_a_target_that_never_appears_says_so(loader_url, tmp_path):
    assert _never_happens(loader_url, tmp_path, {"click": "#checkout"}) == (
        "step 1 (click on #checkout) never happened: no element matched its selector, "
        "and the page had nothing left to run")


def test_a_target_that_stays_hidden_says_so(tmp_path):
    with page_server('<p>Basket</p><button id="pay" style="display: none">Pay</button>') as url:
        assert _never_happens(url, tmp_path, {"click": "#pay"}) == (
            "step 1 (click on #pay) never happened: its element was hidden, and the page had nothing left to run")


def test_a_target_that_stays_disabled_says_so(tmp_path):
    with page_server('<form><fieldset disabled><input id="email"></fieldset></form>') as url:
        assert _never_happens(url, tmp_path, {"fill": "#email", "value": "ada@example.com"}) == (
            "step 1 (fill on #email) never happened: its element was disabled, and the page had nothing left to run")


def test_the_wait_is_bounded_by_the_step_wait_option(tmp_path):
    ticking = '<button id="go" disabled>Go</button><script>setInterval(function () {}, 20);</script>'
    with page_server(ticking) as url:
        result = CliRunner().invoke(main, ["record", url, "--actions", str(_actions(tmp_path, [{"click": "#go"}])),
                                           "--step-wait", "300", "--out", str(tmp_path / "session")])
    assert result.exit_code == 2
    assert result.output.strip().endswith(
        "step 1 (click on #go) never happened: its element was disabled for 300 ms (the step wait)")
    assert result.output.count("\n") == 1


def _actions(tmp_path: Path, steps: list[dict[str, Any]]) -> Path:
    path = tmp_path / "actions.json"
    path.write_text(json.dumps(steps))
    return path


def test_a_run_cut_by_a_bound_before_a_step_names_the_option(tmp_path):
    ticking = '<button id="go" disabled>Go</button><script>setInterval(function () {}, 20);</script>'
    with page_server(ticking) as url:
        assert _never_happens(url, tmp_path, {"click": "#go"}, Limits(max_events=10)) == (
            "step 1 (click on #go) never happened: the run was cut when it had run --max-events 10 events")


def test_more_steps_than_events_a_run_may_have_are_refused_before_any_page_loads(tmp_path):
    with pytest.raises(SessionError, match=r"^the steps make 5 user events, and a run stops at --max-events 5; "
                                           r"raise --max-events above 5$"):
        asyncio.run(record(None, "http://127.0.0.1:9/", tmp_path / "session",  # type: ignore[arg-type]
                           [{"click": "#b"}] * 5, limits=Limits(max_events=5)))
