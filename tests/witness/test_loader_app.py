"""Plain runs of a module loader's app: the steps after the forced pair, and a racing timer.

The app is a small loader's: its template arrives by XHR (a text plugin's), then its modules load
one after another, each asking for the next once it has run, and the last one starts a timer
before it listens for Enter; adding a todo clears the field on a timer of its own (a store's
callback). Two pairs race:

* the template's response and the first Enter: pressed while the template is held, the first
  todo is lost, and the second, typed once the page is quiet, is kept. Acting on the next step as
  soon as the response is released (while the loader is still fetching modules) loses that todo
  too, which neither of webr4's orders shows;
* the store's timer and the second todo's typing: typed before the timer, the field is cleared
  under it and the second todo is lost. The paused clock must let the app start (its timers are
  set after responses that arrive in real time) while that timer does not exist yet, and hold
  only once the Enter that sets it has been seen.

A view the app renders on a timer of its own, well after its last response, is waited for too:
the clock goes on until the step's target is there, as webr4's virtual clock runs the page's
due timers while a step waits for its target.
"""

from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from playwright.async_api import Page, Route, async_playwright

from webr4.browser.launch import launch
from webr4.witness.plain import CLOCK, RESPONSE, STEP, VIEWPORT, request_key
from webr4.witness.plain_run import run_plain
from webr4.witness.schedule import ClockRun, Hold, PlainSchedule, Sign, StepTiming

pytestmark = pytest.mark.browser

BASE = "http://loader.test/"
MODULES = 40
PAGE = """<!DOCTYPE html><title>Todos</title>
<input id="new-todo"><ul id="todo-list"></ul>
<script src="loader.js"></script>"""
LOADER = """window.load = function (n) {
  var script = document.createElement('script');
  script.async = true;
  script.src = 'm' + n + '.js';
  document.head.appendChild(script);
};
setTimeout(function () {
  var xhr = new XMLHttpRequest();
  xhr.open('GET', 'todo.html');
  xhr.onload = function () { window.template = xhr.responseText; load(0); };
  xhr.send();
}, 10);"""
LAST = """setTimeout(function () {
  document.getElementById('new-todo').addEventListener('keydown', function (event) {
    if (event.key !== 'Enter' || !this.value) return;
    var field = this, item = document.createElement('li');
    item.innerHTML = template;
    item.querySelector('label').textContent = field.value;
    document.getElementById('todo-list').appendChild(item);
    setTimeout(function () { field.value = ''; }, 0);
  });
}, 4);"""
FILES = {"": ("text/html", PAGE), "loader.js": ("text/javascript", LOADER),
         "todo.html": ("text/html", "<input class='toggle' type='checkbox'><label></label>"),
         **{f"m{n}.js": ("text/javascript", f"load({n + 1});") for n in range(MODULES - 1)},
         f"m{MODULES - 1}.js": ("text/javascript", LAST)}
STEPS = ({"fill": "#new-todo", "value": "milk"}, {"press": "#new-todo", "key": "Enter"},
         {"fill": "#new-todo", "value": "dog"}, {"press": "#new-todo", "key": "Enter"})
TEMPLATE = request_key(BASE + "todo.html")
STEP_TIMES = (54.0, 55.0, 57.0, 58.0)  # as webr4's virtual clock had them


def _har(path: Path, files: dict[str, tuple[str, str]] = FILES) -> Path:
    """Every file of the app (``files``: name -> content type and text), as a recording keeps it."""
    def entry(name: str, kind: str, text: str) -> dict[str, Any]:
        return {"startedDateTime": "1970-01-01T00:00:00.000Z", "time": 0, "cache": {}, "timings": {},
                "request": {"method": "GET", "url": BASE + name, "httpVersion": "HTTP/1.1", "headers": [],
                            "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
                "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [],
                             "headers": [{"name": "content-type", "value": kind}], "redirectURL": "",
                             "headersSize": -1, "bodySize": len(text),
                             "content": {"size": len(text), "mimeType": kind, "encoding": "base64",
                                         "text": base64.b64encode(text.encode()).decode()}}}

    entries = [entry(name, kind, text) for name, (kind, text) in files.items()]
    path.write_text(json.dumps({"log": {"version": "1.2", "creator": {"name": "test", "version": "1"},
                                        "entries": entries}}))
    return path


async def _todos(schedule: PlainSchedule, har: Path) -> list[str]:
    async with async_playwright() as playwright:
        browser = await launch(playwright)
        try:
            run = await run_plain(browser, schedule, har)
        finally:
            await browser.close()
    assert run.forced, run.problem
    labels = BeautifulSoup(run.state.dom, "html.parser").select("#todo-list label")
    return [label.get_text(strip=True) for label in labels]


LISTENING = """const listen = EventTarget.prototype.addEventListener;
EventTarget.prototype.addEventListener = function (type, ...rest) {
  if (type === 'keydown') window.listening = true;
  return listen.call(this, type, ...rest);
};"""
"""The by-hand runs' probe: ``window.listening`` once the app's last module has set its handler."""


async def _by_hand(har: Path, user: Any) -> list[str]:
    """What plain Playwright, without webr4, shows when ``user`` acts on the app's page (with
    :data:`LISTENING` as its only script)."""
    async with async_playwright() as playwright:
        browser = await launch(playwright)
        try:
            context = await browser.new_context(viewport=VIEWPORT)
            await context.add_init_script(LISTENING)
            await context.route_from_har(har, not_found="abort")
            page = await context.new_page()
            await user(page)
            return list(await page.evaluate(
                "[...document.querySelectorAll('#todo-list label')].map(label => label.textContent)"))
        finally:
            await browser.close()


def test_steps_after_the_pair_wait_for_the_loader_in_both_orders(tmp_path) -> None:
    parent = PlainSchedule(BASE, STEPS, "the template's response before Enter",
                           timings=(StepTiming(1, Sign(RESPONSE, TEMPLATE)),),
                           pair=(Sign(RESPONSE, TEMPLATE), Sign(STEP, "1")))
    reversed_ = PlainSchedule(BASE, STEPS, "Enter before the template's response",
                              holds=(Hold(TEMPLATE, Sign(STEP, "1")),),
                              timings=(StepTiming(0, None), StepTiming(1, None)),
                              pair=(Sign(STEP, "1"), Sign(RESPONSE, TEMPLATE)))

    async def enter_while_held(page: Page) -> None:
        released = asyncio.Event()

        async def hold(route: Route) -> None:
            await released.wait()
            await route.fallback()

        await page.route("**/todo.html", hold)
        await page.goto(BASE, wait_until="commit")
        await page.fill("#new-todo", "milk")
        await page.press("#new-todo", "Enter")
        released.set()
        await page.wait_for_function("window.listening")  # the loader's last module has set the handler
        await page.fill("#new-todo", "dog")
        await page.press("#new-todo", "Enter")

    har = _har(tmp_path / "app.har")
    assert asyncio.run(_todos(parent, har)) == ["milk", "dog"]
    assert asyncio.run(_todos(reversed_, har)) == ["dog"] == asyncio.run(_by_hand(har, enter_while_held))


def test_the_clock_runs_until_the_step_that_sets_the_racing_timer_and_holds_after(tmp_path) -> None:
    store = Sign(CLOCK, "56")  # webr4's due time of the timer the first Enter sets
    parent = PlainSchedule(BASE, STEPS, "the store's timer before typing the second todo",
                           timings=(StepTiming(2, store),), clock=True,
                           clock_runs=(ClockRun(56, Sign(STEP, "1"), Sign(STEP, "1")),), horizon_ms=58,
                           step_times=STEP_TIMES, pair=(store, Sign(STEP, "2")))
    reversed_ = PlainSchedule(BASE, STEPS, "typing the second todo before the store's timer",
                              timings=(StepTiming(2, None),), clock=True,
                              clock_runs=(ClockRun(56, Sign(STEP, "2"), Sign(STEP, "1")),), horizon_ms=58,
                              step_times=STEP_TIMES, pair=(Sign(STEP, "2"), store))

    async def type_before_the_timer(page: Page) -> None:
        await page.clock.install(time=0)
        await page.clock.pause_at(1000)
        await page.goto(BASE)
        for _ in range(400):  # the app starts (10 s at most): its timers fire as its responses come
            if await page.evaluate("window.listening"):
                break
            await page.clock.run_for(5)
            await page.wait_for_timeout(25)
        await page.fill("#new-todo", "milk")
        await page.press("#new-todo", "Enter")
        await page.fill("#new-todo", "dog")  # the clock stands: the store's timer has not fired
        await page.clock.run_for(1)
        await page.press("#new-todo", "Enter")

    har = _har(tmp_path / "app.har")
    assert asyncio.run(_todos(parent, har)) == ["milk", "dog"]
    assert asyncio.run(_todos(reversed_, har)) == ["milk"] == asyncio.run(_by_hand(har, type_before_the_timer))


def test_a_view_rendered_on_a_timer_is_waited_for_on_the_clock(tmp_path) -> None:
    render = """setTimeout(function () {
  var field = document.createElement('input');
  field.id = 'new-todo';
  field.addEventListener('keydown', function (event) {
    if (event.key !== 'Enter' || !this.value) return;
    var item = document.createElement('li');
    item.innerHTML = template;
    item.querySelector('label').textContent = this.value;
    document.getElementById('todo-list').appendChild(item);
    this.value = '';
  });
  document.body.insertBefore(field, document.body.firstChild);
}, 150);"""
    files = {**FILES, "": ("text/html", PAGE.replace('<input id="new-todo">', "")),
             f"m{MODULES - 1}.js": ("text/javascript", render)}
    typed = Sign(STEP, "0")
    schedule = PlainSchedule(BASE, STEPS[:2], "as the user acts", clock=True,
                             clock_runs=(ClockRun(900, typed, typed),), horizon_ms=900,
                             step_times=(160.0, 161.0), pair=(typed, Sign(STEP, "1")))

    async def type_once_it_is_there(page: Page) -> None:  # a real clock: the view comes by itself
        await page.goto(BASE)
        await page.fill("#new-todo", "milk")
        await page.press("#new-todo", "Enter")

    har = _har(tmp_path / "app.har", files)
    assert asyncio.run(_todos(schedule, har)) == ["milk"] == asyncio.run(_by_hand(har, type_once_it_is_there))
