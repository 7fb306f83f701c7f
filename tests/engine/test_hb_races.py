"""Happens-before closure and (uncovered) race detection, checked against their definitions."""

from __future__ import annotations


from hypothesis import given, settings
from hypothesis import strategies as st

from webr4.engine.hb import HappensBefore
from webr4.engine.races import find_races
from webr4.trace import Access, AccessKind, Step, Trace

R, W = AccessKind.READ, AccessKind.WRITE


def trace_of(steps: list[Step]) -> Trace:
    return Trace(steps=steps, events={})


def step(event: str, preds: tuple[int, ...] = (), *accesses: tuple[AccessKind, str]) -> Step:
    return Step(
        event=event,
        enabled=frozenset({event}),
        predecessors=preds,
        accesses=tuple(Access(kind, loc, site=f"{event}:{n}") for n, (kind, loc) in enumerate(accesses)),
    )


@st.composite
def random_traces(draw: st.DrawFn, max_steps: int = 9) -> Trace:
    n = draw(st.integers(1, max_steps))
    steps = []
    for j in range(n):
        preds = tuple(sorted(draw(st.sets(st.integers(0, j - 1), max_size=2)))) if j else ()
        accesses = draw(st.lists(st.tuples(st.sampled_from([R, W]), st.sampled_from("xyz")), max_size=3))
        steps.append(step(f"e{j}", preds, *accesses))
    return trace_of(steps)


def naive_closure(steps: list[Step]) -> set[tuple[int, int]]:
    edges = {(p, j) for j, s in enumerate(steps) for p in s.predecessors}
    closure = set(edges)
    while True:
        extra = {(a, d) for (a, b) in closure for (c, d) in closure if b == c} - closure
        if not extra:
            return closure
        closure |= extra


@given(random_traces())
def test_happens_before_is_the_transitive_closure(trace: Trace) -> None:
    hb = HappensBefore(trace.steps)
    closure = naive_closure(trace.steps)
    n = len(trace.steps)
    assert {(i, j) for i in range(n) for j in range(n) if hb.happens_before(i, j)} == closure
    assert {(i, j) for i in range(n) for j in range(n) if hb.descendants(i) >> j & 1} == closure


def naive_races(trace: Trace) -> set[tuple[int, int, str]]:
    hb = naive_closure(trace.steps)
    found = set()
    for j, later in enumerate(trace.steps):
        for i in range(j):
            if (i, j) in hb:
                continue
            for a in trace.steps[i].accesses:
                for b in later.accesses:
                    if a.location == b.location and W in (a.kind, b.kind):
                        found.add((i, j, a.location))
    return found


@settings(max_examples=300)
@given(random_traces())
def test_races_and_uncovered_races_match_the_definitions(trace: Trace) -> None:
    analysis = find_races(trace)
    races = naive_races(trace)
    assert {(r.first, r.second, r.location) for r in analysis.races} == races
    pairs = {(i, j) for i, j, _ in races}
    hb = naive_closure(trace.steps)

    def le(a: int, b: int) -> bool:
        return a == b or (a, b) in hb

    uncovered = {
        (i, j)
        for i, j in pairs
        if not any(le(i, k) and le(m, j) for k, m in pairs if (k, m) != (i, j))
    }
    assert set(analysis.uncovered_pairs()) == uncovered


def test_a_multi_access_step_races_on_every_location() -> None:
    trace = trace_of([step("a", (), (W, "x"), (W, "y")), step("b", (), (R, "x"), (R, "y"))])
    analysis = find_races(trace)
    assert sorted(r.location for r in analysis.uncovered) == ["x", "y"]
    race_x = next(r for r in analysis.races if r.location == "x")
    assert (race_x.first_site, race_x.second_site) == ("a:0", "b:0")
    assert (race_x.first_kind, race_x.second_kind) == (W, R)


def test_a_race_before_both_ends_covers_through_an_ancestor_of_its_first_step() -> None:
    # i -> k and j -> m in happens-before; (k, j) races, so (i, m) is covered by it.
    trace = trace_of([step("i", (), (W, "y")), step("k", (0,), (W, "x")), step("j", (), (W, "x")),
                      step("m", (2,), (W, "y"))])
    assert set(find_races(trace).uncovered_pairs()) == {(1, 2)}


def test_ordered_and_read_read_pairs_do_not_race() -> None:
    trace = trace_of([step("a", (), (W, "x")), step("b", (0,), (W, "x")),
                      step("c", (), (R, "y")), step("d", (), (R, "y"))])
    assert find_races(trace).races == ()


def test_filters_drop_races_before_coverage() -> None:
    # a -> b (hb); c races with a and b on x. (a, c) is covered by (b, c) unless the filter drops it.
    trace = trace_of([step("a", (), (W, "x")), step("b", (0,), (W, "x")), step("c", (), (W, "x"))])
    assert set(find_races(trace).uncovered_pairs()) == {(1, 2)}
    no_b = find_races(trace, filters=[lambda race, _: race.first != 1])
    assert set(no_b.uncovered_pairs()) == {(0, 2)}


def test_race_detection_scales_to_thousands_of_steps() -> None:
    n = 3000
    steps = []
    for j in range(n):
        preds = (j - 1,) if j % 3 else ()
        steps.append(step(f"e{j}", preds, (W, f"loc{j % 50}"), (R, "hot"), (R, f"loc{(j * 7) % 50}")))
    analysis = find_races(trace_of(steps))
    assert analysis.races
