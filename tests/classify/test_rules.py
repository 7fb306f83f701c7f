"""Every verdict rule on synthetic traces and state differences, and switching rules off."""

from __future__ import annotations

from dataclasses import replace

import pytest

from webr4.classify import RULES, Verdict, classify
from webr4.state.categories.dom import DomDiff, Hunk
from webr4.state.categories.heap import HeapChange, HeapDiff
from webr4.state.categories.multiset import MultisetDiff
from webr4.state.categories.screenshot import ScreenshotDiff
from webr4.state.diff import StateDiff
from webr4.trace import Access, AccessKind, Category, Event, Step, Trace

PARSE = Event("p1", Category.PARSE, "parse", "parse chunk 2/2")
SCRIPT = Event("s1", Category.NETWORK, "script", "async script format.js", params={"src": "http://h/format.js"})
CLICK = Event("u0:click:#add", Category.USER, "click", "click on #add")
FILL = Event("u0:fill:#name", Category.USER, "fill", "fill on #name ('Ada')")
LOAD = Event("l1", Category.LIFECYCLE, "load", "window load")
XHR_A = Event("n1", Category.NETWORK, "xhr", "XHR GET a.json load", params={"method": "GET", "url": "http://h/a.json"})
XHR_B = Event("n2", Category.NETWORK, "xhr", "XHR GET b.json load", params={"method": "GET", "url": "http://h/b.json"})
FETCH = Event("n3", Category.NETWORK, "fetch", "fetch GET balance.json response")
UNLOAD = Event("l2", Category.LIFECYCLE, "unload", "unload")
TICK0 = Event("t0", Category.TIMER, "setInterval", "setInterval 100ms at app.js:3:1",
              params={"delay": 100, "site": "app.js:3:1", "firing": 0})
TICK1 = Event("t1", Category.TIMER, "setInterval", "setInterval 100ms at app.js:3:1 #2", creator="t0",
              params={"delay": 100, "site": "app.js:3:1", "firing": 1})
POLL0 = Event("t2", Category.TIMER, "setTimeout", "setTimeout 50ms at poll.js:4:3",
              params={"delay": 50, "site": "poll.js:4:3", "firing": 0})
POLL1 = Event("t3", Category.TIMER, "setTimeout", "setTimeout 50ms at poll.js:4:3", creator="t2",
              params={"delay": 50, "site": "poll.js:4:3", "firing": 0})
WATCHDOG = Event("t4", Category.TIMER, "setTimeout", "setTimeout 1500ms watchdog",
                 params={"delay": 1500, "site": "w.js:1:1"})

ALL = (PARSE, SCRIPT, CLICK, FILL, LOAD, XHR_A, XHR_B, FETCH, UNLOAD, TICK0, TICK1, POLL0, POLL1, WATCHDOG)


def trace(*sequence: Event, pending: tuple[Event, ...] = (), writes: dict[str, list[str]] | None = None,
          truncated: str | None = None) -> Trace:
    writes = writes or {}
    steps = [Step(e.id, frozenset({e.id}),
                  accesses=tuple(Access(AccessKind.WRITE, loc) for loc in writes.get(e.id, ())))
             for e in sequence]
    return Trace(steps, {e.id: e for e in ALL}, frozenset(e.id for e in pending), truncated=truncated)


DOM = DomDiff([Hunk(5, 5, ["    Cart: 1 item"], ["    Cart: 0 items"], ["html > body > p#cart"])])
FORM_DOM = DomDiff([Hunk(5, 5, ['    <input (value)="Ada" id="name">'], ['    <input (value)="Guest" id="name">'],
                         ["html > body > input#name"])])
SHOT = ScreenshotDiff(compared=True, differs=True, changed_pixels=400, fraction=0.01)
SAME_SHOT = ScreenshotDiff(compared=True)
HEAP = HeapDiff([HeapChange("window.total", "values_changed", 3, 4)], 1)
NEW_REF_ERROR = MultisetDiff([], [("Uncaught ReferenceError: addToCart is not defined", "index.html:9:1")])
NEW_OTHER_ERROR = MultisetDiff([], [("Uncaught Error: rejected payload", "app.js:9:1")])


def verdict(parent: Trace, child: Trace, diff: StateDiff, events: tuple[Event, Event], **kw) -> Verdict:
    return classify(parent, child, diff, events, **kw)


def without(*names: str) -> set[str]:
    return set(RULES) - set(names)


def test_commute() -> None:
    v = verdict(trace(XHR_A, XHR_B), trace(XHR_B, XHR_A), StateDiff(), (XHR_A, XHR_B))
    assert v == Verdict("harmless", ["commute"])
    assert verdict(trace(XHR_A, XHR_B), trace(XHR_B, XHR_A), StateDiff(), (XHR_A, XHR_B),
                   rules=without("commute")).reasons == ["other-diff"]


@pytest.mark.parametrize("truncated", ["event-timeout", "page-lost", "run-timeout", "capture-failed"])
def test_child_failed_by_truncation(truncated: str) -> None:
    v = verdict(trace(XHR_A, XHR_B), trace(XHR_B, truncated=truncated), StateDiff(dom=DOM), (XHR_A, XHR_B))
    assert v == Verdict("error", ["child-failed"])


def test_child_failed_flag_and_switch_off() -> None:
    args = (trace(XHR_A, XHR_B), trace(XHR_B, XHR_A), StateDiff(), (XHR_A, XHR_B))
    assert verdict(*args, child_failed=True).kind == "error"
    assert verdict(*args, child_failed=True, rules=without("child-failed")).reasons == ["commute"]


def test_an_order_that_loops_forever_is_harmful_even_with_equal_states() -> None:
    parent = trace(XHR_A, XHR_B)
    assert verdict(parent, trace(XHR_B, XHR_A, truncated="endless-loop"), StateDiff(), (XHR_A, XHR_B)) == \
        Verdict("harmful", ["endless-loop"])
    # both orders loop: the loop is not the reversal's doing
    looping = trace(XHR_A, XHR_B, truncated="endless-loop")
    assert verdict(looping, trace(XHR_B, XHR_A, truncated="endless-loop"), StateDiff(), (XHR_A, XHR_B)) == \
        Verdict("harmless", ["commute"])


def test_an_order_that_did_not_happen_is_no_verdict_on_the_pair() -> None:
    parent = trace(PARSE, CLICK)
    child = trace(PARSE, CLICK)
    child.skipped.append(CLICK.id)  # planned first, not enabled then: the parent's order again
    diff = StateDiff(exceptions=NEW_REF_ERROR, dom=DOM, screenshot=SHOT)
    assert verdict(parent, child, diff, (PARSE, CLICK)) == Verdict("unrealised", ["order-not-realised"])
    assert verdict(parent, trace(PARSE), StateDiff(), (PARSE, CLICK)).kind == "unrealised"
    # a failed child is an error whatever ran; without the rule the difference is judged as before
    assert verdict(parent, trace(PARSE, truncated="page-lost"), diff, (PARSE, CLICK)).kind == "error"
    assert verdict(parent, child, diff, (PARSE, CLICK), rules=without("order-not-realised")).kind == "harmful"


def test_parent_failed() -> None:
    v = verdict(trace(XHR_A, truncated="page-lost"), trace(XHR_B, XHR_A), StateDiff(), (XHR_A, XHR_B))
    assert v == Verdict("error", ["parent-failed"])


def test_exception_diff() -> None:
    diff = StateDiff(exceptions=NEW_OTHER_ERROR)
    assert verdict(trace(XHR_A, WATCHDOG), trace(WATCHDOG, XHR_A), diff, (XHR_A, WATCHDOG)) == \
        Verdict("harmful", ["exception-diff"])
    lost = StateDiff(exceptions=MultisetDiff([("Uncaught Error: x", None)], []))
    assert verdict(trace(XHR_A, WATCHDOG), trace(WATCHDOG, XHR_A), lost, (XHR_A, WATCHDOG)).kind == "harmful"
    assert verdict(trace(XHR_A, WATCHDOG), trace(WATCHDOG, XHR_A), diff, (XHR_A, WATCHDOG),
                   rules=without("exception-diff")).reasons == ["other-diff"]


def test_dom_and_render_diff() -> None:
    args = (trace(XHR_A, XHR_B), trace(XHR_B, XHR_A))
    assert verdict(*args, StateDiff(dom=DOM, screenshot=SHOT), (XHR_A, XHR_B)) == \
        Verdict("harmful", ["dom-and-render-diff"])
    # not compared: a DOM difference counts as visible
    assert verdict(*args, StateDiff(dom=DOM), (XHR_A, XHR_B)).reasons == ["dom-and-render-diff"]
    # compared and identical: DOM alone is not harmful
    assert (verdict(*args, StateDiff(dom=DOM, screenshot=SAME_SHOT), (XHR_A, XHR_B))
            == Verdict("harmless", ["other-diff"]))
    assert verdict(*args, StateDiff(dom=DOM, screenshot=SHOT), (XHR_A, XHR_B),
                   rules=without("dom-and-render-diff")).kind == "harmless"


def test_network_diff() -> None:
    diff = StateDiff(network=MultisetDiff(["GET http://h/status.json"], []))
    v = verdict(trace(XHR_A, WATCHDOG), trace(WATCHDOG), diff, (XHR_A, WATCHDOG))
    assert v == Verdict("harmful", ["network-diff"])
    assert verdict(trace(XHR_A, WATCHDOG), trace(WATCHDOG), diff, (XHR_A, WATCHDOG),
                   rules=without("network-diff")).kind == "harmless"


def test_several_harmful_reasons_are_all_reported() -> None:
    diff = StateDiff(dom=DOM, screenshot=SHOT, exceptions=NEW_OTHER_ERROR, network=MultisetDiff([], ["POST /x"]))
    v = verdict(trace(XHR_A, XHR_B), trace(XHR_B, XHR_A), diff, (XHR_A, XHR_B))
    assert v == Verdict("harmful", ["exception-diff", "dom-and-render-diff", "network-diff"])


def test_initialization_race_click_during_parse() -> None:
    parent = trace(PARSE, CLICK, writes={"p1": ["global:cartCount", "global:addToCart"]})
    child = trace(CLICK, PARSE, writes={"p1": ["global:cartCount", "global:addToCart"]})
    diff = StateDiff(dom=DOM, screenshot=SHOT, exceptions=NEW_REF_ERROR)
    v = verdict(parent, child, diff, (PARSE, CLICK))
    assert v == Verdict("harmful", ["initialization-race", "exception-diff", "dom-and-render-diff"])
    assert "initialization-race" not in verdict(parent, child, diff, (PARSE, CLICK),
                                                rules=without("initialization-race")).reasons


def test_initialization_race_async_script_vs_fetch_without_accesses() -> None:
    diff = StateDiff(exceptions=MultisetDiff([], [("ReferenceError: formatMoney is not defined", None)]))
    v = verdict(trace(SCRIPT, FETCH), trace(FETCH, SCRIPT), diff, (SCRIPT, FETCH))
    assert v.reasons[0] == "initialization-race"


def test_initialization_race_needs_the_script_to_write_the_missing_name() -> None:
    parent = trace(PARSE, CLICK, writes={"p1": ["global:somethingElse"]})
    child = trace(CLICK, PARSE, writes={"p1": ["global:somethingElse"]})
    v = verdict(parent, child, StateDiff(exceptions=NEW_REF_ERROR), (PARSE, CLICK))
    assert v.reasons == ["exception-diff"]


def test_initialization_race_reads_the_names_a_script_wrote_to_its_own_objects() -> None:
    # The script's writes to objects no other event touched are left out of its step, their names kept.
    def unlisted(*names: str) -> Trace:
        parsed = trace(PARSE, CLICK, writes={"p1": ["global:cartCount"]})
        parsed.steps[0] = replace(parsed.steps[0], unlisted_writes=names)
        return parsed
    child = trace(CLICK, PARSE)
    diff = StateDiff(exceptions=NEW_REF_ERROR)
    assert verdict(unlisted("addToCart"), child, diff, (PARSE, CLICK)).reasons[0] == "initialization-race"
    assert verdict(unlisted("removeFromCart"), child, diff, (PARSE, CLICK)).reasons == ["exception-diff"]


def test_initialization_race_needs_an_uninitialised_message_and_a_script_event() -> None:
    assert verdict(trace(PARSE, CLICK), trace(CLICK, PARSE), StateDiff(exceptions=NEW_OTHER_ERROR),
                   (PARSE, CLICK)).reasons == ["exception-diff"]
    assert verdict(trace(XHR_A, XHR_B), trace(XHR_B, XHR_A), StateDiff(exceptions=NEW_REF_ERROR),
                   (XHR_A, XHR_B)).reasons == ["exception-diff"]


def test_late_handler_attach_click_before_load() -> None:
    parent = trace(LOAD, CLICK, writes={CLICK.id: ["prop:3.disabled"]})
    child = trace(CLICK, LOAD)
    diff = StateDiff(dom=DOM, screenshot=SHOT, heap=HEAP)
    assert verdict(parent, child, diff, (LOAD, CLICK)) == Verdict("harmless", ["late-handler-attach"])
    assert verdict(parent, child, diff, (LOAD, CLICK), rules=without("late-handler-attach")) == \
        Verdict("harmful", ["dom-and-render-diff"])


def test_late_handler_attach_not_when_the_user_event_did_something() -> None:
    parent = trace(LOAD, CLICK)
    child = trace(CLICK, LOAD, writes={CLICK.id: ["global:clicks"]})
    assert verdict(parent, child, StateDiff(dom=DOM, screenshot=SHOT), (LOAD, CLICK)).kind == "harmful"


def test_late_handler_attach_not_when_the_user_event_wrote_only_to_objects_it_made() -> None:
    parent = trace(LOAD, CLICK)
    child = trace(CLICK, LOAD)
    child.steps[0] = replace(child.steps[0], unlisted_writes=("items",))
    assert verdict(parent, child, StateDiff(dom=DOM, screenshot=SHOT), (LOAD, CLICK)).kind == "harmful"


def test_late_handler_attach_when_the_click_only_moved_focus() -> None:
    # Clicking a button focuses it, handler or not: that write is not the click doing something.
    parent = trace(LOAD, CLICK)
    child = trace(CLICK, LOAD, writes={CLICK.id: ["dom:document.activeElement"]})
    diff = StateDiff(dom=DOM, screenshot=SHOT)
    assert verdict(parent, child, diff, (LOAD, CLICK)) == Verdict("harmless", ["late-handler-attach"])


def test_late_handler_attach_not_for_lost_form_input() -> None:
    diff = StateDiff(dom=FORM_DOM, screenshot=SHOT)
    assert verdict(trace(PARSE, FILL), trace(FILL, PARSE), diff, (PARSE, FILL)) == \
        Verdict("harmful", ["dom-and-render-diff"])
    # a click whose DOM difference is in form state is not "doing nothing" either
    assert verdict(trace(PARSE, CLICK), trace(CLICK, PARSE), diff, (PARSE, CLICK)).kind == "harmful"


def test_late_handler_attach_not_with_exceptions() -> None:
    diff = StateDiff(dom=DOM, screenshot=SHOT, exceptions=NEW_REF_ERROR)
    assert verdict(trace(PARSE, CLICK), trace(CLICK, PARSE), diff, (PARSE, CLICK)).kind == "harmful"


def test_a_click_that_follows_a_link_before_its_handler_is_attached_is_harmful() -> None:
    # The late handler would have cancelled the navigation: the click did not "do nothing".
    parent = trace(PARSE, CLICK, writes={CLICK.id: []})
    child = trace(CLICK)
    left = MultisetDiff([], ["http://h/nutrition.html"])
    assert verdict(parent, child, StateDiff(navigation=left), (PARSE, CLICK)) == Verdict("harmful", ["navigation-diff"])
    assert verdict(parent, child, StateDiff(navigation=left), (PARSE, CLICK),
                   rules=without("navigation-diff")).kind != "harmful"


def test_unload_race() -> None:
    diff = StateDiff(dom=DOM, screenshot=SHOT, network=MultisetDiff(["POST /beacon"], []))
    assert verdict(trace(XHR_A, UNLOAD), trace(UNLOAD, XHR_A), diff, (XHR_A, UNLOAD)) == \
        Verdict("harmless", ["unload-race"])
    assert verdict(trace(XHR_A, UNLOAD), trace(UNLOAD, XHR_A), diff, (XHR_A, UNLOAD),
                   rules=without("unload-race")).kind == "harmful"


def test_polling_timer_interval() -> None:
    parent = trace(XHR_A, TICK0)  # config arrives first; the first tick renders
    child = trace(TICK0, XHR_A, TICK1)  # an idle tick first
    # equal states, but the child ran an extra idle tick: ad-hoc synchronisation, not mere commuting
    assert verdict(parent, child, StateDiff(), (XHR_A, TICK0)) == Verdict("harmless", ["polling-timer"])
    assert verdict(parent, child, StateDiff(), (XHR_A, TICK0), rules=without("polling-timer")) == \
        Verdict("harmless", ["commute"])
    diff = StateDiff(pending=MultisetDiff(["x"], ["y"]))
    assert verdict(parent, child, diff, (XHR_A, TICK0)) == Verdict("harmless", ["polling-timer"])
    assert verdict(parent, child, diff, (XHR_A, TICK0), rules=without("polling-timer")) == \
        Verdict("harmless", ["other-diff"])


def test_polling_timer_recreated_timeout() -> None:
    parent = trace(XHR_A, POLL0)
    child = trace(POLL0, XHR_A, pending=(POLL1,))
    diff = StateDiff(pending=MultisetDiff([], [POLL1.label]))
    assert verdict(parent, child, diff, (XHR_A, POLL0)).reasons == ["polling-timer"]


def test_polling_timer_not_when_other_events_differ_or_state_differs() -> None:
    diff = StateDiff(pending=MultisetDiff([], [WATCHDOG.label]))
    assert verdict(trace(XHR_A, POLL0), trace(POLL0, XHR_A, pending=(WATCHDOG,)), diff,
                   (XHR_A, POLL0)).reasons == ["other-diff"]
    diff = StateDiff(pending=MultisetDiff([], ["x"]), heap=HEAP)
    assert verdict(trace(XHR_A, TICK0), trace(TICK0, XHR_A, TICK1), diff, (XHR_A, TICK0)).kind == "heap-only"


def test_heap_only() -> None:
    v = verdict(trace(XHR_A, XHR_B), trace(XHR_B, XHR_A), StateDiff(heap=HEAP), (XHR_A, XHR_B))
    assert v == Verdict("heap-only", ["heap-only"])
    assert verdict(trace(XHR_A, XHR_B), trace(XHR_B, XHR_A), StateDiff(heap=HEAP), (XHR_A, XHR_B),
                   rules=without("heap-only")).reasons == ["other-diff"]
    both = StateDiff(heap=HEAP, dom=DOM, screenshot=SHOT)
    assert verdict(trace(XHR_A, XHR_B), trace(XHR_B, XHR_A), both, (XHR_A, XHR_B)).kind == "harmful"


def test_unknown_rule_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown rule"):
        classify(trace(), trace(), StateDiff(), (XHR_A, XHR_B), rules={"commute", "nonsense"})


def test_verdict_json_round_trip() -> None:
    v = Verdict("harmful", ["exception-diff"])
    assert Verdict.from_json(v.to_json()) == v
