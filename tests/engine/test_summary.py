"""A trace whose steps carry only the summaries of their accesses gives every analysis the same
answer as the full trace: races, uncovered races, each filter's decisions, the conflicts and
names the reports show."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.profiling import held_accesses
from webr4.access_summary import LocationFacts, by_location, summarise, without_unshared_reads
from webr4.browser.naming import racing_ids
from webr4.engine.describe import conflict_locations
from webr4.engine.r4 import Footprint
from webr4.engine.filters import ALL_FILTERS, DEFAULT_FILTERS
from webr4.engine.races import find_races
from webr4.trace import Access, AccessKind, Category, Event, Step, Trace

R, W = AccessKind.READ, AccessKind.WRITE
LOCATIONS = ("global:x", "scope:1:y", "prop:3.n", "dom:#a.textContent", "handler:#b.click", "event:t1")
VALUES = (None, "n:0", "n:1", "n:2", "s:on", "u")
SITES = (None, "a.js:1:1", "a.js:2:5", "b.js:9:3")
EVENTS = ((Category.TIMER, "timeout"), (Category.USER, "click"), (Category.LIFECYCLE, "unload"),
          (Category.NETWORK, "xhr"))

accesses = st.lists(st.builds(Access, st.sampled_from((R, W)), st.sampled_from(LOCATIONS),
                              st.sampled_from(SITES), st.sampled_from(VALUES)), max_size=14)


@st.composite
def increments(draw: st.DrawFn) -> list[Access]:
    """``x += k`` repeated on one location, the shape the pure-increment filter looks for."""
    location = draw(st.sampled_from(LOCATIONS))
    out: list[Access] = []
    for _ in range(draw(st.integers(1, 4))):
        out += [Access(R, location, draw(st.sampled_from(SITES))),
                Access(W, location, draw(st.sampled_from(SITES)), draw(st.sampled_from(("n:1", "n:2", "n:3"))))]
    return out


@st.composite
def traces(draw: st.DrawFn) -> Trace:
    n = draw(st.integers(2, 7))
    steps, events = [], {}
    for j in range(n):
        preds = tuple(sorted(draw(st.sets(st.integers(0, j - 1), max_size=2)))) if j else ()
        mine = draw(st.one_of(accesses, increments(), st.builds(lambda a, b: a + b, increments(), accesses)))
        event = f"e{j}"
        steps.append(Step(event, frozenset({event}), preds, tuple(mine)))
        events[event] = Event(event, *draw(st.sampled_from(EVENTS)), label=event)
    return Trace(steps, events)


def summarised(trace: Trace) -> Trace:
    return replace(trace, steps=[replace(s, accesses=summarise(s.accesses)) for s in trace.steps])


def answers(trace: Trace) -> dict[str, object]:
    found: dict[str, object] = {}
    for name, filters in [("none", ()), ("default", DEFAULT_FILTERS), *((f.name, (f,)) for f in ALL_FILTERS)]:
        analysis = find_races(trace, filters=filters)
        found[name] = (analysis.races, analysis.uncovered, analysis.race_count)
    events = trace.sequence
    found["conflicts"] = [conflict_locations(trace, a, b) for a in events for b in events if a != b]
    found["names"] = racing_ids(trace)
    found["footprints"] = [Footprint.of(step) for step in trace.steps]
    return found


@settings(max_examples=200)
@given(traces())
def test_summaries_answer_like_the_full_accesses(trace: Trace) -> None:
    assert answers(summarised(trace)) == answers(trace)


@settings(max_examples=200)
@given(st.one_of(accesses, increments(), st.builds(lambda a, b: a + b, accesses, increments())))
def test_a_summary_keeps_every_fact_and_is_its_own_summary(mine: list[Access]) -> None:
    summary = summarise(mine)
    full, short = by_location(mine), by_location(summary)
    assert list(short) == list(full)
    assert {k: LocationFacts.of(v) for k, v in short.items()} == {k: LocationFacts.of(v) for k, v in full.items()}
    assert summarise(summary) == summary
    assert all(len(v) <= 8 for v in short.values())


@settings(max_examples=200)
@given(traces())
def test_dropping_unshared_reads_changes_no_answer_but_the_footprints(trace: Trace) -> None:
    for whole in (trace, summarised(trace)):
        pruned = without_unshared_reads(whole)
        mine, theirs = answers(pruned), answers(whole)
        del mine["footprints"], theirs["footprints"]  # a step's own reads: only sleep sets compare them
        assert mine == theirs
        assert [[a for a in s.accesses if a.kind is W] for s in pruned.steps] == \
            [[a for a in s.accesses if a.kind is W] for s in whole.steps]
        assert without_unshared_reads(pruned) == pruned


def test_only_the_reads_no_other_step_shares_are_dropped() -> None:
    built = Access(R, "prop:9.kind", "jsx.js:4:2")  # an object one event builds and drops
    shared = Access(R, "global:app", "app.js:1:1")
    steps = [Step("e0", frozenset({"e0"}), (), (Access(W, "global:app", "app.js:1:1", "o"), built,
                                                  Access(W, "prop:9.kind", "jsx.js:3:2", "s:x"))),
             Step("e1", frozenset({"e1"}), (0,), (shared,))]
    pruned = without_unshared_reads(Trace(steps, {}))
    assert [s.accesses for s in pruned.steps] == [(steps[0].accesses[0], steps[0].accesses[2]), (shared,)]


OWNED = ("prop:3.n", "prop:3.m", "prop:4.n", "scope:1:y", "scope:1:z", "global:x", "dom:#a.textContent", "event:t1")


def owner(location: str) -> str | None:
    """The object or closure scope a location belongs to (``prop:3``, ``scope:1``), if any."""
    if location.startswith("prop:"):
        return location.partition(".")[0]
    if location.startswith("scope:"):
        return location.rsplit(":", 1)[0]
    return None


def held_back(trace: Trace, chosen: set[str]) -> Trace:
    """``trace`` as the page leaves it when it holds back the owners in ``chosen`` that only one
    step touches: their locations are left out, the names of those written kept."""
    touching = Counter(o for step in trace.steps for o in {owner(a.location) for a in step.accesses} if o)
    gone = {o for o in chosen if touching[o] == 1}
    steps = []
    for step in trace.steps:
        left_out = [a for a in step.accesses if owner(a.location) in gone]
        names = tuple(dict.fromkeys(a.location[len(owner(a.location) or "") + 1:] for a in left_out if a.kind is W))
        steps.append(replace(step, accesses=tuple(a for a in step.accesses if a not in left_out),
                             unlisted_writes=names))
    return replace(trace, steps=steps)


@settings(max_examples=200)
@given(traces(), st.sets(st.sampled_from(("prop:3", "prop:4", "scope:1"))), st.data())
def test_leaving_out_what_one_step_alone_touches_changes_no_answer(trace: Trace, chosen: set[str],
                                                                   data: st.DataObject) -> None:
    trace = replace(trace, steps=[replace(s, accesses=tuple(
        replace(a, location=data.draw(st.sampled_from(OWNED))) for a in s.accesses)) for s in trace.steps])
    for whole in (trace, without_unshared_reads(summarised(trace))):
        assert answers_and_rules(held_back(whole, chosen)) == answers_and_rules(whole)


def answers_and_rules(trace: Trace) -> dict[str, object]:
    found = answers(trace)
    del found["footprints"]  # a step's own locations: only sleep sets compare them
    found["rules"] = held_accesses.answers(trace)["rules"]
    return found
