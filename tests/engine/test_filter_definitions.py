"""The filters judge whole locations with bitsets; here each is checked, race by race, against a
plain reading of the pattern its docstring states, on random traces."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from webr4.engine.filters import ALL_FILTERS, FALSY_DIGESTS, JS_PREFIXES, USER_DISPATCHES
from webr4.vocabulary import UNLOAD_TYPES
from webr4.engine.hb import HappensBefore
from webr4.engine.races import Race, find_races
from webr4.trace import Access, AccessKind, Category, Event, Step, Trace

R, W = AccessKind.READ, AccessKind.WRITE
LOCATIONS = ("global:x", "scope:1:y", "dom:#a.textContent", "handler:#b.click", "event:t1")
VALUES = (None, "n:0", "n:1", "n:2", "s:on", "o:1")
EVENTS = ((Category.TIMER, "timeout"), (Category.USER, "click"), (Category.USER, "fill"),
          (Category.LIFECYCLE, "unload"), (Category.NETWORK, "xhr"))


def operations(location: str, value: str | None) -> st.SearchStrategy[list[tuple[AccessKind, str | None]]]:
    """A read, a write, an increment (``x += k``) or a lazy initialisation of one location."""
    return st.sampled_from([[(R, None)], [(W, value)], [(R, None), (W, f"n:{len(location)}")],
                            [(R, None), (W, value)]])


@st.composite
def traces(draw: st.DrawFn) -> Trace:
    n = draw(st.integers(2, 7))
    steps, events = [], {}
    for j in range(n):
        preds = tuple(sorted(draw(st.sets(st.integers(0, j - 1), max_size=1)))) if j else ()
        accesses = []
        for _ in range(draw(st.integers(0, 3))):
            location, value = draw(st.sampled_from(LOCATIONS)), draw(st.sampled_from(VALUES))
            accesses += [(kind, location, v) for kind, v in draw(operations(location, value))]
        event = f"e{j}"
        steps.append(Step(event, frozenset({event}), preds,
                          tuple(Access(kind, loc, f"{event}.js:{k}:1", value)
                                for k, (kind, loc, value) in enumerate(accesses))))
        events[event] = Event(event, *draw(st.sampled_from(EVENTS)), label=event)
    return Trace(steps, events)


def to(trace: Trace, step: int, location: str) -> list[Access]:
    return [a for a in trace.steps[step].accesses if a.location == location]


def written(accesses: list[Access]) -> list[str | None]:
    return [a.value for a in accesses if a.kind is W]


def reads_then_writes(accesses: list[Access]) -> bool:
    return accesses[0].kind is R and any(a.kind is W for a in accesses)


def increment(accesses: list[Access]) -> bool:
    return bool(accesses) and len(accesses) % 2 == 0 and all(
        a.kind is R and b.kind is W and (b.value or "").startswith("n:")
        for a, b in zip(accesses[::2], accesses[1::2]))


def same_value(race: Race, trace: Trace) -> bool:
    first, second = to(trace, race.first, race.location), to(trace, race.second, race.location)
    if race.first_kind is W and race.second_kind is W:
        values = set(written(first)) | set(written(second))
        return not reads_then_writes(first) and not reads_then_writes(second) and len(values) == 1 \
            and None not in values
    writer = race.first if race.first_kind is W else race.second
    earlier = [v for s in range(writer) for v in written(to(trace, s, race.location))]
    return bool(earlier) and earlier[-1] is not None and set(written(to(trace, writer, race.location))) == {earlier[-1]}


def lazy_init(race: Race, trace: Trace) -> bool:
    for step in race.pair:
        accesses = to(trace, step, race.location)
        values = written(accesses)
        if not reads_then_writes(accesses) or values[0] is None or values[0] in FALSY_DIGESTS:
            return False
    return True


def pure_increment(race: Race, trace: Trace) -> bool:
    later_readers = [to(trace, s, race.location) for s in range(race.first + 1, len(trace.steps))]
    return all(increment(to(trace, s, race.location)) for s in race.pair) and all(
        increment(accesses) for accesses in later_readers if any(a.kind is R for a in accesses))


def write_before_read(race: Race, trace: Trace) -> bool:
    touching = [to(trace, s, race.location) for s in range(len(trace.steps))]
    touching = [accesses for accesses in touching if accesses]
    return race.location.startswith(JS_PREFIXES) and all(a[0].kind is W for a in touching) and any(
        b.kind is R for a in touching for b in a)


def late_handler_attach(race: Race, trace: Trace) -> bool:
    if not race.location.startswith("handler:") or {race.first_kind, race.second_kind} != {R, W}:
        return False
    event = trace.events[trace.steps[race.first if race.first_kind is R else race.second].event]
    handler_type = race.location.rsplit(".", 1)[1]
    return event.category is Category.USER and handler_type in USER_DISPATCHES.get(event.type, {event.type})


def unload(race: Race, trace: Trace) -> bool:
    return any(trace.events[trace.steps[s].event].type in UNLOAD_TYPES for s in race.pair)


PATTERNS = {"same-value": same_value, "lazy-init": lazy_init, "pure-increment": pure_increment,
            "write-before-read": write_before_read, "late-handler-attach": late_handler_attach,
            "unload": unload}


def key(race: Race) -> tuple[int, int, str]:
    return (race.first, race.second, race.location)


@settings(max_examples=400)
@given(traces())
def test_each_filter_drops_exactly_the_races_its_pattern_matches(trace: Trace) -> None:
    every = find_races(trace).races
    for race_filter in ALL_FILTERS:
        matches = PATTERNS[race_filter.name]
        expected = {key(r) for r in every if r.location.startswith("event:") or not matches(r, trace)}
        assert {key(r) for r in find_races(trace, filters=[race_filter]).races} == expected, race_filter.name
        assert {key(r) for r in every if race_filter(r, trace)} == expected, race_filter.name


@settings(max_examples=300)
@given(traces())
def test_uncovered_races_are_computed_over_the_races_the_filters_keep(trace: Trace) -> None:
    analysis = find_races(trace, filters=ALL_FILTERS)
    pairs = {race.pair for race in analysis.races}
    hb = HappensBefore(trace.steps)

    def at_or_before(a: int, b: int) -> bool:
        return a == b or hb.happens_before(a, b)

    uncovered = {(i, j) for i, j in pairs
                 if not any(at_or_before(i, k) and at_or_before(m, j) for k, m in pairs if (k, m) != (i, j))}
    assert set(analysis.uncovered_pairs()) == uncovered
    assert analysis.race_count == len(analysis.races)
