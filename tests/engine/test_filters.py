"""EventRacer's race filters on synthetic traces: each drops its pattern and keeps a near miss."""

from __future__ import annotations

import pytest

from webr4.engine.filters import (
    ALL_FILTERS,
    DEFAULT_FILTERS,
    LATE_HANDLER_ATTACH,
    LAZY_INIT,
    PURE_INCREMENT,
    SAME_VALUE,
    UNLOAD,
    WRITE_BEFORE_READ,
    NamedFilter,
    filters_by_name,
)
from webr4.engine.races import find_races
from webr4.trace import Access, AccessKind, Category, Event, Step, Trace, event_location

R, W = AccessKind.READ, AccessKind.WRITE
Acc = tuple[AccessKind, str, str | None]


def r(location: str) -> Acc:
    return (R, location, None)


def w(location: str, value: str | None) -> Acc:
    return (W, location, value)


def trace_of(
    *steps: tuple[str, tuple[int, ...], list[Acc]], events: dict[str, tuple[Category, str]] | None = None
) -> Trace:
    """Steps given as (event id, predecessors, accesses); events default to timers."""
    kinds = events or {}
    built = [
        Step(
            event=event,
            enabled=frozenset({event}),
            predecessors=preds,
            accesses=tuple(Access(kind, loc, f"{event}.js:{n}:1", value) for n, (kind, loc, value) in enumerate(accs)),
        )
        for event, preds, accs in steps
    ]
    described = {
        event: Event(event, *kinds.get(event, (Category.TIMER, "timeout")), label=f"{event} label")
        for event, _, _ in steps
    }
    return Trace(steps=built, events=described)


def locations(trace: Trace, *filters: NamedFilter) -> list[tuple[int, int, str]]:
    return [(race.first, race.second, race.location) for race in find_races(trace, filters=filters).races]


def dropped_by(filter_: NamedFilter, trace: Trace, location: str) -> bool:
    """Whether the trace has a race on ``location`` without the filter and none with it."""
    assert any(loc == location for _, _, loc in locations(trace)), "the trace must race on the location"
    return all(loc != location for _, _, loc in locations(trace, filter_))


# same-value --------------------------------------------------------------------------------------


def test_same_value_drops_two_writes_of_one_value() -> None:
    trace = trace_of(("a", (), [w("global:ready", "b:true")]), ("b", (), [w("global:ready", "b:true")]))
    assert dropped_by(SAME_VALUE, trace, "global:ready")


def test_same_value_keeps_two_writes_of_different_values() -> None:
    trace = trace_of(("a", (), [w("global:ready", "b:true")]), ("b", (), [w("global:ready", "b:false")]))
    assert not dropped_by(SAME_VALUE, trace, "global:ready")


def test_same_value_keeps_unknown_digests_and_read_before_write() -> None:
    unknown = trace_of(("a", (), [w("global:x", None)]), ("b", (), [w("global:x", None)]))
    assert not dropped_by(SAME_VALUE, unknown, "global:x")
    reading = trace_of(("a", (), [r("global:x"), w("global:x", "n:1")]), ("b", (), [w("global:x", "n:1")]))
    assert not dropped_by(SAME_VALUE, reading, "global:x")


def test_same_value_keeps_a_user_toggle_racing_with_a_script_setting_the_same_value() -> None:
    # A click on a checkbox flips what it reads (instrument_js/dom_log/handlers.js logs a read, then the
    # write): storing true is not a blind write of true, its value depends on the order.
    toggle = ("click", (), [r("dom:#agree.checked"), w("dom:#agree.checked", "b:true")])
    script = ("timer", (), [w("dom:#agree.checked", "b:true")])
    trace = trace_of(toggle, script, events={"click": (Category.USER, "click")})
    assert not dropped_by(SAME_VALUE, trace, "dom:#agree.checked")


def test_same_value_drops_a_write_of_the_value_already_stored() -> None:
    trace = trace_of(
        ("init", (), [w("dom:#status.textContent", "s:idle")]),
        ("show", (0,), [r("dom:#status.textContent")]),
        ("reset", (0,), [w("dom:#status.textContent", "s:idle")]),
    )
    assert dropped_by(SAME_VALUE, trace, "dom:#status.textContent")


def test_same_value_keeps_a_write_of_a_new_value_before_a_reader() -> None:
    trace = trace_of(
        ("init", (), [w("dom:#status.textContent", "s:idle")]),
        ("show", (0,), [r("dom:#status.textContent")]),
        ("reset", (0,), [w("dom:#status.textContent", "s:busy")]),
    )
    assert not dropped_by(SAME_VALUE, trace, "dom:#status.textContent")


# lazy-init ---------------------------------------------------------------------------------------


def test_lazy_init_drops_read_then_truthy_write_in_both_steps() -> None:
    trace = trace_of(
        ("a", (), [r("global:cache"), w("global:cache", "o:4")]),
        ("b", (), [r("global:cache"), r("global:cache"), w("global:cache", "o:4")]),
    )
    assert dropped_by(LAZY_INIT, trace, "global:cache")


def test_lazy_init_keeps_a_blind_write_or_a_falsy_initial_value() -> None:
    blind = trace_of(
        ("a", (), [r("global:cache"), w("global:cache", "o:4")]),
        ("b", (), [w("global:cache", "o:5")]),
    )
    assert not dropped_by(LAZY_INIT, blind, "global:cache")
    falsy = trace_of(
        ("a", (), [r("global:n"), w("global:n", "n:0")]),
        ("b", (), [r("global:n"), w("global:n", "n:0")]),
    )
    assert not dropped_by(LAZY_INIT, falsy, "global:n")


# pure-increment ----------------------------------------------------------------------------------


def test_pure_increment_drops_two_increments_nobody_reads() -> None:
    trace = trace_of(
        ("a", (), [r("scope:3:hits"), w("scope:3:hits", "n:1")]),
        ("b", (), [r("scope:3:hits"), w("scope:3:hits", "n:2"), r("scope:3:hits"), w("scope:3:hits", "n:3")]),
        ("c", (1,), [r("scope:3:hits"), w("scope:3:hits", "n:4")]),
    )
    assert dropped_by(PURE_INCREMENT, trace, "scope:3:hits")


def test_pure_increment_keeps_a_total_shown_later() -> None:
    trace = trace_of(
        ("a", (), [r("global:total"), w("global:total", "n:3")]),
        ("b", (), [r("global:total"), w("global:total", "n:7")]),
        ("show", (0, 1), [r("global:total"), w("dom:#unread.textContent", "s:7")]),
    )
    assert not dropped_by(PURE_INCREMENT, trace, "global:total")


def test_pure_increment_keeps_a_branch_or_a_string_concatenation() -> None:
    branch = trace_of(
        ("a", (), [r("global:n"), r("global:n"), w("global:n", "n:1")]),
        ("b", (), [r("global:n"), w("global:n", "n:2")]),
    )
    assert not dropped_by(PURE_INCREMENT, branch, "global:n")
    concat = trace_of(
        ("a", (), [r("global:log"), w("global:log", "s:a")]),
        ("b", (), [r("global:log"), w("global:log", "s:ab")]),
    )
    assert not dropped_by(PURE_INCREMENT, concat, "global:log")


# write-before-read -------------------------------------------------------------------------------


def test_write_before_read_drops_a_scratch_variable() -> None:
    trace = trace_of(
        ("a", (), [w("global:tmp", "n:1"), r("global:tmp")]),
        ("b", (), [w("global:tmp", "n:2"), r("global:tmp"), r("global:tmp")]),
    )
    assert dropped_by(WRITE_BEFORE_READ, trace, "global:tmp")


def test_write_before_read_keeps_a_read_first_a_dom_location_and_blind_writes() -> None:
    read_first = trace_of(
        ("a", (), [w("global:tmp", "n:1"), r("global:tmp")]),
        ("b", (), [r("global:tmp"), w("global:tmp", "n:2")]),
    )
    assert not dropped_by(WRITE_BEFORE_READ, read_first, "global:tmp")
    dom = trace_of(
        ("a", (), [w("dom:#x.value", "s:a"), r("dom:#x.value")]),
        ("b", (), [w("dom:#x.value", "s:b"), r("dom:#x.value")]),
    )
    assert not dropped_by(WRITE_BEFORE_READ, dom, "dom:#x.value")
    blind = trace_of(("a", (), [w("global:status", "s:ok")]), ("b", (), [w("global:status", "s:error")]))
    assert not dropped_by(WRITE_BEFORE_READ, blind, "global:status")


# late-handler-attach -----------------------------------------------------------------------------

HANDLER = "handler:#subscribe.mousedown"


def handler_trace(user: tuple[Category, str]) -> Trace:
    return trace_of(
        ("load", (), [w(HANDLER, None)]),
        ("u0", (), [r(HANDLER)]),
        events={"load": (Category.LIFECYCLE, "load"), "u0": user},
    )


def test_late_handler_attach_drops_a_user_click_racing_with_the_registration() -> None:
    assert dropped_by(LATE_HANDLER_ATTACH, handler_trace((Category.USER, "click")), HANDLER)


def test_late_handler_attach_keeps_a_network_dispatch_or_another_type() -> None:
    assert not dropped_by(LATE_HANDLER_ATTACH, handler_trace((Category.NETWORK, "load")), HANDLER)
    assert not dropped_by(LATE_HANDLER_ATTACH, handler_trace((Category.USER, "fill")), HANDLER)


# unload ------------------------------------------------------------------------------------------


def test_unload_drops_races_with_an_unload_event_only() -> None:
    trace = trace_of(
        ("xhr", (), [w("storage:local.cart", "s:1"), w("global:x", "n:1")]),
        ("bye", (), [r("storage:local.cart")]),
        ("tick", (), [r("global:x")]),
        events={"xhr": (Category.NETWORK, "load"), "bye": (Category.LIFECYCLE, "beforeunload")},
    )
    assert dropped_by(UNLOAD, trace, "storage:local.cart")
    assert not dropped_by(UNLOAD, trace, "global:x")


# shadow locations, defaults, names ---------------------------------------------------------------


def test_event_shadow_locations_are_never_dropped() -> None:
    shadow = event_location("t1")
    trace = trace_of(
        ("a", (), [w(shadow, "u")]),
        ("b", (), [w(shadow, "u")]),
        ("bye", (), [r(shadow), w(shadow, "u")]),
        events={"bye": (Category.LIFECYCLE, "unload")},
    )
    assert locations(trace, *ALL_FILTERS) == locations(trace)


def test_default_filters_report_fewer_races_where_they_apply() -> None:
    trace = trace_of(
        ("a", (), [w("global:ready", "b:true"), r("global:cfg"), w("global:cfg", "o:2"), w("global:tmp", "n:1"),
                   r("global:tmp"), r("global:hits"), w("global:hits", "n:1"), w("global:price", "n:5")]),
        ("b", (), [w("global:ready", "b:true"), r("global:cfg"), w("global:cfg", "o:2"), w("global:tmp", "n:2"),
                   r("global:tmp"), r("global:hits"), w("global:hits", "n:2"), w("global:price", "n:6")]),
    )
    unfiltered = locations(trace)
    assert len(unfiltered) == 5
    assert locations(trace, *DEFAULT_FILTERS) == [(0, 1, "global:price")]


def test_filters_by_name_in_order_and_unknown_names() -> None:
    assert filters_by_name(["unload", "same-value"]) == (UNLOAD, SAME_VALUE)
    assert {f.name for f in DEFAULT_FILTERS} <= {f.name for f in ALL_FILTERS}
    with pytest.raises(ValueError, match=r"'nope', 'typo'.*valid filters: same-value, lazy-init"):
        filters_by_name(["same-value", "nope", "typo"])


def test_every_filter_is_documented() -> None:
    for f in ALL_FILTERS:
        assert f.name and f.description and f.pattern.__doc__
