"""Plain schedules derived from traces: which lever forces each order, and which order none can."""

from __future__ import annotations

from webr4.trace import Category, Event, Step, Trace
from webr4.witness.plain import CLOCK, DOM_READY, KEY_DOWN, LOAD, RESPONSE, STEP, request_key
from webr4.witness.pagefacts import PageFacts
from webr4.witness.schedule import ClockRun, HeldKey, NotForceable, Sign, StepTiming, plain_schedules

URL = "http://site.test/shop/"
HEAD = Event("head", Category.PARSE, "parse", "parse head", params={"index": -1})


def _trace(*timed: tuple[Event, float]) -> Trace:
    return Trace(steps=[Step(event.id, frozenset(), time=at) for event, at in timed],
                 events={event.id: event for event, _ in timed})


def _xhr(name: str) -> Event:
    return Event(name, Category.NETWORK, "xhr", f"XHR GET /shop/{name} load", "head",
                 {"method": "GET", "url": f"{URL}{name}"})


def _timer(name: str, delay: int) -> Event:
    return Event(name, Category.TIMER, "setTimeout", f"setTimeout {delay}ms", "head", {"delay": delay})


def test_two_responses_are_ordered_by_holding_the_one_that_must_come_second():
    a, b = _xhr("a.json"), _xhr("b.json")
    parent, child = _trace((HEAD, 0), (a, 0), (b, 0)), _trace((HEAD, 0), (b, 0), (a, 0))
    schedules = plain_schedules(PageFacts(URL, []), parent, child, "a.json", "b.json")
    assert not isinstance(schedules, NotForceable)
    kept, reversed_ = schedules
    assert [(h.request, h.until) for h in kept.holds] == [(request_key(URL + "b.json"),
                                                           Sign(RESPONSE, request_key(URL + "a.json")))]
    assert [(h.request, h.until) for h in reversed_.holds] == [(request_key(URL + "a.json"),
                                                                Sign(RESPONSE, request_key(URL + "b.json")))]
    assert not kept.clock and not reversed_.clock


def test_a_click_before_a_parser_blocking_script_acts_early_while_the_script_is_held():
    chunk = Event("chunk", Category.PARSE, "parse", "parse chunk 1/1", params={"index": 0})
    click = Event("u0:click:#add", Category.USER, "click", "click on #add", params={"index": 0, "selector": "#add"})
    page = PageFacts(URL, [{"click": "#add"}], [URL + "cart.js"])
    parent, child = _trace((HEAD, 0), (chunk, 0), (click, 0)), _trace((HEAD, 0), (click, 0), (chunk, 0))
    schedules = plain_schedules(page, parent, child, "chunk", "u0:click:#add")
    assert not isinstance(schedules, NotForceable)
    kept, reversed_ = schedules
    assert kept.timing(0) == StepTiming(0, Sign(RESPONSE, request_key(URL + "cart.js")))
    assert reversed_.timing(0) == StepTiming(0, None)
    assert [(h.request, h.until) for h in reversed_.holds] == [(request_key(URL + "cart.js"), Sign(STEP, "0"))]


def test_a_step_not_in_the_pair_waits_for_the_load_and_a_press_is_one_step():
    fill = Event("u0:fill:#name", Category.USER, "fill", "fill on #name", params={"index": 0})
    keyup = Event("u2:keyup:#name", Category.USER, "keyup", "keyup on #name", params={"index": 2})
    page = PageFacts(URL, [{"fill": "#name", "value": "Ada"}, {"wait": 100}, {"press": "#name", "key": "Enter"},
                           {"click": "#go"}])
    assert page.user_steps == {0: 0, 1: 2, 2: 2, 3: 3}
    a = _xhr("a.json")
    schedules = plain_schedules(page, _trace((a, 0), (fill, 0), (keyup, 1)), _trace((fill, 0), (a, 0), (keyup, 1)),
                                "a.json", "u0:fill:#name")
    assert not isinstance(schedules, NotForceable)
    assert schedules[0].timing(3) == StepTiming(3, Sign(LOAD))


def test_a_timer_is_run_by_the_paused_clock_once_the_response_it_races_has_come():
    xhr, timer = _xhr("status.json"), _timer("watchdog", 1500)
    parent, child = _trace((HEAD, 0), (xhr, 0), (timer, 1500)), _trace((HEAD, 0), (timer, 1500), (xhr, 1500))
    schedules = plain_schedules(PageFacts(URL, []), parent, child, "status.json", "watchdog")
    assert not isinstance(schedules, NotForceable)
    kept, reversed_ = schedules
    assert kept.clock and reversed_.clock and kept.horizon_ms == 1500
    assert [(r.to_ms, r.after) for r in kept.clock_runs] == [(1500, Sign(RESPONSE, request_key(URL + "status.json")))]
    assert [(h.request, h.until) for h in reversed_.holds] == [(request_key(URL + "status.json"), Sign(CLOCK, "1500"))]


def test_two_timers_against_their_due_time_are_not_forceable():
    early, late = _timer("early", 10), _timer("late", 50)
    parent, child = _trace((HEAD, 0), (early, 10), (late, 50)), _trace((HEAD, 0), (late, 50), (early, 60))
    verdict = plain_schedules(PageFacts(URL, []), parent, child, "early", "late")
    assert isinstance(verdict, NotForceable) and "due" in verdict.lever


def test_a_parse_chunk_that_starts_inside_the_document_is_not_forceable():
    chunk = Event("chunk", Category.PARSE, "parse", "parse chunk 2/2", params={"index": 1})
    a = _xhr("a.json")
    page = PageFacts(URL, [], [URL + "lib.js", None])
    verdict = plain_schedules(page, _trace((HEAD, 0), (chunk, 0), (a, 0)), _trace((HEAD, 0), (a, 0), (chunk, 0)),
                              "chunk", "a.json")
    assert isinstance(verdict, NotForceable) and "part of a response" in verdict.lever


def test_a_step_before_the_load_holds_what_webr4_ran_after_it_else_an_image():
    script = Event("app", Category.NETWORK, "script", "async script /shop/app.js", "head", {"src": URL + "app.js"})
    load = Event("load", Category.LIFECYCLE, "load", "window load")
    key = Event("u0:keydown:#new", Category.USER, "keydown", "keydown on #new", params={"index": 0})
    page = PageFacts(URL, [{"press": "#new", "key": "Enter"}])
    parent = _trace((HEAD, 0), (script, 0), (load, 0), (key, 0))
    late = plain_schedules(page, parent, _trace((HEAD, 0), (key, 0), (script, 0), (load, 0)), "load", key.id)
    assert not isinstance(late, NotForceable)
    assert [h.request for h in late[1].holds] == [request_key(URL + "app.js")]
    # The script ran before the key in webr4's order: an image is held rather than it, if there is one.
    image = Event("img", Category.NETWORK, "load", "load of img /shop/logo.png", "head",
                  {"tag": "img", "src": URL + "logo.png"})
    with_image = plain_schedules(page, _trace((HEAD, 0), (script, 0), (image, 0), (load, 0), (key, 0)),
                                 _trace((HEAD, 0), (script, 0), (image, 0), (key, 0), (load, 0)), "load", key.id)
    assert not isinstance(with_image, NotForceable)
    assert [h.request for h in with_image[1].holds] == [request_key(URL + "logo.png")]


def test_a_key_after_dom_ready_holds_the_style_sheets_image_not_the_sheet_and_waits_for_dom_ready():
    # TodoMVC's plain-JS app: the sheet's background image alone holds the window's load back.
    sheet = Event("css", Category.NETWORK, "load", "load of link /shop/base.css", "head",
                  {"tag": "link", "src": URL + "base.css"})
    chunk = Event("chunk", Category.PARSE, "parse", "parse chunk 1/1", params={"index": 0})
    ready = Event("ready", Category.LIFECYCLE, "DOMContentLoaded", "DOMContentLoaded")
    load = Event("load", Category.LIFECYCLE, "load", "window load")
    fill = Event("u0:fill:#new", Category.USER, "fill", "fill on #new", params={"index": 0})
    key = Event("u1:keydown:#new", Category.USER, "keydown", "keydown on #new", params={"index": 1})
    steps = [{"fill": "#new", "value": "milk"}, {"press": "#new", "key": "Enter"}]
    loaded = ((HEAD, 0), (sheet, 0), (chunk, 0), (ready, 0))
    parent, child = _trace(*loaded, (load, 0), (fill, 0), (key, 1)), _trace(*loaded, (fill, 0), (key, 1), (load, 1))
    page = PageFacts(URL, steps, [URL + "app.js"], images=[request_key(URL + "bg.png")])
    schedules = plain_schedules(page, parent, child, "load", key.id)
    assert not isinstance(schedules, NotForceable)
    reversed_ = schedules[1]
    assert [(h.request, h.until) for h in reversed_.holds] == [(request_key(URL + "bg.png"), Sign(STEP, "1"))]
    assert reversed_.timings[:2] == (StepTiming(0, Sign(DOM_READY)), StepTiming(1, Sign(DOM_READY)))
    # With no image, nothing holds the load back once DOMContentLoaded has come: Chromium fires it
    # in the task that ends parsing, and no key comes between.
    verdict = plain_schedules(PageFacts(URL, steps, [URL + "app.js"]), parent, child, "load", key.id)
    assert isinstance(verdict, NotForceable) and "task that ends parsing" in verdict.lever


def test_an_early_step_waits_for_the_loading_before_it_unless_its_own_holds_keep_that_back():
    chunk = Event("chunk", Category.PARSE, "parse", "parse chunk 1/2", params={"index": 0})
    late = Event("late", Category.PARSE, "parse", "parse chunk 2/2", params={"index": 1})
    ready = Event("ready", Category.LIFECYCLE, "DOMContentLoaded", "DOMContentLoaded")
    click = Event("u0:click:#add", Category.USER, "click", "click on #add", params={"index": 0})
    page = PageFacts(URL, [{"click": "#add"}], [URL + "lib.js", URL + "cart.js"])
    parent = _trace((HEAD, 0), (chunk, 0), (late, 0), (ready, 0), (click, 0))
    before_late = plain_schedules(page, parent, _trace((HEAD, 0), (chunk, 0), (click, 0), (late, 0), (ready, 0)),
                                  "late", click.id)
    assert not isinstance(before_late, NotForceable)
    assert [h.request for h in before_late[1].holds] == [request_key(URL + "cart.js")]
    assert before_late[1].timing(0) == StepTiming(0, Sign(RESPONSE, request_key(URL + "lib.js")))
    # Between the last chunk and DOMContentLoaded, every parser-blocking script is held: waiting
    # for the last chunk's would wait for a held response, so the click acts as soon as it can.
    before_ready = plain_schedules(page, parent, _trace((HEAD, 0), (chunk, 0), (late, 0), (click, 0), (ready, 0)),
                                   "ready", click.id)
    assert not isinstance(before_ready, NotForceable)
    held = sorted(h.request for h in before_ready[1].holds)
    assert held == [request_key(URL + "cart.js"), request_key(URL + "lib.js")]
    assert before_ready[1].timing(0) == StepTiming(0, None)


def test_a_step_before_an_early_one_keeps_its_timing_unless_the_order_ran_it_early():
    fill = Event("u0:fill:#new", Category.USER, "fill", "fill on #new", params={"index": 0})
    key = Event("u2:keyup:#new", Category.USER, "keyup", "keyup on #new", params={"index": 2})
    again = Event("u3:fill:#new", Category.USER, "fill", "fill on #new", params={"index": 3})
    store = Event("store", Category.TIMER, "setTimeout", "setTimeout 0ms", key.id, {"delay": 0})
    load = Event("load", Category.LIFECYCLE, "load", "window load")
    page = PageFacts(URL, [{"fill": "#new", "value": "milk"}, {"press": "#new", "key": "Enter"},
                           {"fill": "#new", "value": "dog"}])
    parent = _trace((HEAD, 0), (load, 0), (fill, 54), (key, 55), (store, 56), (again, 57))
    # The todo's second title typed before the store's timer: the first todo was added as ever.
    child = _trace((HEAD, 0), (load, 0), (fill, 54), (key, 55), (again, 56), (store, 57))
    schedules = plain_schedules(page, parent, child, store.id, again.id)
    assert not isinstance(schedules, NotForceable)
    assert [t.step for t in schedules[1].timings if t.after is None] == [2]
    (run,) = schedules[1].clock_runs
    assert (run.after, run.created, run.delay_ms) == (Sign(STEP, "2"), Sign(STEP, "1"), 0.0)
    # Typed before the page loaded in webr4's order: every step up to it is a fast user's.
    child = _trace((HEAD, 0), (fill, 1), (key, 2), (again, 3), (store, 4), (load, 5))
    schedules = plain_schedules(page, parent, child, store.id, again.id)
    assert not isinstance(schedules, NotForceable)
    assert [t.step for t in schedules[1].timings if t.after is None] == [0, 1, 2]


def test_a_timer_due_later_runs_first_when_the_step_that_starts_the_other_ones_chain_waits_for_it():
    save = Event("u1:keyup:#new", Category.USER, "keyup", "keyup on #new", params={"index": 1})
    show = Event("u2:click:#done", Category.USER, "click", "click on #done", params={"index": 2})
    throttle = Event("throttle", Category.TIMER, "setTimeout", "setTimeout 500ms", save.id, {"delay": 500})
    hop = Event("hop", Category.TIMER, "setTimeout", "setTimeout 1ms", show.id, {"delay": 1})
    route = Event("route", Category.TIMER, "setTimeout", "setTimeout 4ms", hop.id, {"delay": 4})
    page = PageFacts(URL, [{"press": "#new", "key": "Enter"}, {"click": "#done"}])
    parent = _trace((HEAD, 0), (save, 10), (show, 11), (hop, 12), (route, 16), (throttle, 510))
    child = _trace((HEAD, 0), (save, 10), (show, 11), (hop, 12), (throttle, 510), (route, 510))
    schedules = plain_schedules(page, parent, child, "route", "throttle")
    assert not isinstance(schedules, NotForceable)
    reversed_ = schedules[1]
    assert reversed_.timing(1) == StepTiming(1, Sign(CLOCK, "510"))  # the click that starts the 4 ms chain waits
    assert reversed_.horizon_ms == 510 + (16 - 11)  # and the chain, started then, runs to its end
    assert reversed_.pair is None  # the 4 ms timer's recorded time no longer tells when it fires
    # In the recorded order the 4 ms timer fires 5 ms after the click that starts its chain, and the
    # throttle, 500 ms after the Enter that sets it, only then.
    route_run, throttle_run = schedules[0].clock_runs
    assert route_run == ClockRun(16, Sign(STEP, "1"), Sign(STEP, "1"), 5.0)
    assert throttle_run == ClockRun(510, Sign(CLOCK, "16"), Sign(STEP, "0"), 500.0, forward=False)


def test_a_timer_due_later_cannot_run_first_when_both_descend_from_one_step():
    click = Event("u0:click:#go", Category.USER, "click", "click on #go", params={"index": 0})
    late = Event("late", Category.TIMER, "setTimeout", "setTimeout 500ms", click.id, {"delay": 500})
    early = Event("early", Category.TIMER, "setTimeout", "setTimeout 4ms", click.id, {"delay": 4})
    page = PageFacts(URL, [{"click": "#go"}])
    parent = _trace((HEAD, 0), (click, 10), (early, 14), (late, 510))
    child = _trace((HEAD, 0), (click, 10), (late, 510), (early, 510))
    verdict = plain_schedules(page, parent, child, "early", "late")
    assert isinstance(verdict, NotForceable) and "both descend from click on #go" in verdict.lever


def test_a_timer_between_the_keydown_and_keyup_of_one_press_is_run_while_the_key_is_held_down():
    # A throttle set by the first Enter, which the second Enter's keyup clears; the reversal fires
    # it between the second Enter's keydown and keyup: a user holding Enter down until it fires.
    first = Event("u1:keyup:#new", Category.USER, "keyup", "keyup on #new", params={"index": 1})
    down = Event("u2:keydown:#new", Category.USER, "keydown", "keydown on #new", params={"index": 2})
    up = Event("u3:keyup:#new", Category.USER, "keyup", "keyup on #new", params={"index": 3})
    throttle = Event("throttle", Category.TIMER, "setTimeout", "setTimeout 500ms", first.id, {"delay": 500})
    page = PageFacts(URL, [{"press": "#new", "key": "Enter"}, {"press": "#new", "key": "Enter"}])
    parent = _trace((HEAD, 0), (first, 10), (down, 11), (up, 12))
    child = _trace((HEAD, 0), (first, 10), (down, 11), (throttle, 510), (up, 510))
    schedules = plain_schedules(page, parent, child, up.id, "throttle")
    assert not isinstance(schedules, NotForceable)
    kept, reversed_ = schedules
    assert kept.held_keys == () and kept.clock_runs == (ClockRun(510, Sign(STEP, "1"), Sign(STEP, "0"), 500.0,
                                                                  forward=False),)
    assert reversed_.held_keys == (HeldKey(1, Sign(CLOCK, "510")),)
    assert reversed_.clock_runs == (ClockRun(510, Sign(KEY_DOWN, "1"), Sign(STEP, "0"), 500.0),)
    assert reversed_.timing(1) == StepTiming(1, Sign(LOAD)) and reversed_.pair == (Sign(CLOCK, "510"), Sign(STEP, "1"))
