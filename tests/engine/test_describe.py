"""Locations and races in words, for every location shape the access logs produce."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webr4.engine.describe import conflict_locations, describe_location, describe_race
from webr4.engine.races import find_races
from webr4.trace import Access, AccessKind, Category, Event, Step, Trace

TRACE = Trace(
    steps=[
        Step("xhr1", frozenset({"xhr1"}), (), (Access(AccessKind.WRITE, "global:queue", "app.js:3:5", "n:1"),)),
        Step("u0", frozenset({"u0"}), (), (Access(AccessKind.READ, "global:queue", "app.js:9:12"),)),
    ],
    events={
        "xhr1": Event("xhr1", Category.NETWORK, "load", "XHR load of /price.json"),
        "u0": Event("u0", Category.USER, "click", "click on #next"),
        "t:app.js:4:1#1": Event("t:app.js:4:1#1", Category.TIMER, "timeout", "setTimeout 100ms at app.js:4:1"),
    },
)


@pytest.mark.parametrize(
    ("location", "words"),
    [
        ("global:queue", "global queue"),
        ("scope:4:count", "variable count (closure 4)"),
        ("prop:9.textContent", "property textContent of object 9"),
        ("dom:#price.textContent", "#price.textContent"),
        ("dom:#list>li:nth-of-type(3)>span.className", "#list>li:nth-of-type(3)>span.className"),
        ("dom:#price", "existence of element #price"),
        ("dom:sel:.item > a", "elements matching .item > a"),
        ("dom:#order.radio:plan", 'radio group "plan" of #order'),
        ("dom:document.radio:user.plan", 'radio group "user.plan" of document'),
        ("dom:document.activeElement", "document.activeElement"),
        ("handler:img#banner.load", "load handler of #banner"),
        ("handler:#subscribe.click", "click handler of #subscribe"),
        ("handler:window.beforeunload", "beforeunload handler of window"),
        ("storage:local.cart", 'localStorage "cart"'),
        ("storage:session.step", 'sessionStorage "step"'),
        ("cookie:sid", 'cookie "sid"'),
        ("cookie:*", "all cookies"),
        ("event:t:app.js:4:1#1", "scheduling of setTimeout 100ms at app.js:4:1"),
        ("event:gone", "scheduling of event gone"),
        ("weird", "weird"),
        ("other:thing", "other:thing"),
    ],
)
def test_describe_location(location: str, words: str) -> None:
    assert describe_location(location, TRACE) == words


def test_describe_race_names_both_events_sites_and_the_location() -> None:
    (race,) = find_races(TRACE).races
    described = describe_race(race, TRACE)
    assert described["location"] == "global queue"
    assert described["key"] == "global:queue"
    assert described["first"] == {
        "step": 0, "event": "xhr1", "label": "XHR load of /price.json", "access": "write", "site": "app.js:3:5",
    }
    assert described["second"] == {
        "step": 1, "event": "u0", "label": "click on #next", "access": "read", "site": "app.js:9:12",
    }
    assert described["summary"] == (
        "XHR load of /price.json writes global queue at app.js:3:5; click on #next reads it at app.js:9:12"
    )


def test_describe_race_without_sites_or_known_events() -> None:
    trace = Trace(
        steps=[
            Step("a", frozenset({"a"}), (), (Access(AccessKind.WRITE, "dom:#x.value"),)),
            Step("b", frozenset({"b"}), (), (Access(AccessKind.WRITE, "dom:#x.value"),)),
        ],
        events={},
    )
    (race,) = find_races(trace).races
    described = describe_race(race, trace)
    assert (described["first"]["label"], described["second"]["site"]) == ("a", None)
    assert described["summary"] == "a writes #x.value; b writes it"


NAMED = Trace(steps=[], events={}, names={
    "prop:3": "#log", "prop:5": "window.app.cart.items[0]", "prop:7": "module store.js › store",
    "scope:2": "closure at app.js:14:7", "prop:8": "(Tally object first seen at app.js:7:10)",
})


@pytest.mark.parametrize(
    ("location", "words"),
    [
        ("prop:3.textContent", "#log.textContent"),
        ("prop:5.qty", "window.app.cart.items[0].qty"),
        ("prop:5.2", "window.app.cart.items[0][2]"),
        ("prop:5.odd key", 'window.app.cart.items[0]["odd key"]'),
        ("prop:7.count", "module store.js › store.count"),
        ("prop:8.n", "(Tally object first seen at app.js:7:10).n"),
        ("scope:2:hits", "closure at app.js:14:7 › hits"),
        ("prop:9.n", "property n of object 9"),
    ],
)
def test_named_objects_and_scopes_are_described_by_their_names(location: str, words: str) -> None:
    assert describe_location(location, NAMED) == words


LOCATION_KEYS = ["dom:#a.value", "handler:#b.click", "storage:local.k", "cookie:sid", "global:x", "scope:1:y",
                 "prop:3.textContent", "prop:4.n", "event:t1"]
accesses = st.lists(st.tuples(st.sampled_from([AccessKind.READ, AccessKind.WRITE]), st.sampled_from(LOCATION_KEYS)),
                    max_size=8)


@settings(deadline=None)
@given(steps=st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), accesses), max_size=6))
def test_conflict_locations_are_the_shared_locations_one_side_writes_most_visible_first(steps) -> None:
    trace = Trace(steps=[Step(event, frozenset({event}), (), tuple(Access(kind, loc) for kind, loc in touched))
                         for event, touched in steps], events={}, names={"prop:3": "#log", "prop:4": "window.o"})
    found = conflict_locations(trace, "a", "b")
    by_event = {e: [(x.kind, x.location) for s in trace.steps if s.event == e for x in s.accesses] for e in ("a", "b")}
    brute = {la for ka, la in by_event["a"] for kb, lb in by_event["b"]
             if la == lb and AccessKind.WRITE in (ka, kb)}
    assert sorted(found) == sorted(brute)
    rank = {"dom": 0, "handler": 0, "prop:3": 0, "storage": 1, "cookie": 1, "global": 2, "scope": 2, "prop:4": 2,
            "event": 3}
    ranks = [rank[loc.split(".")[0]] if loc.split(".")[0] in rank else rank[loc.split(":")[0]] for loc in found]
    assert ranks == sorted(ranks)


def test_a_parse_chunk_is_named_with_what_the_parser_waits_for_before_it() -> None:
    from webr4.engine.describe import event_words
    from webr4.trace import Category, Event

    chunk = Event("p1", Category.PARSE, "parse", "parse chunk 2/3", params={"index": 1, "waits_for": "script /app.js"})
    assert event_words(chunk) == "parse chunk 2/3, which waits for script /app.js"
    assert event_words(Event("p2", Category.PARSE, "parse", "parse chunk 3/3", params={"index": 2})) == \
        "parse chunk 3/3"
