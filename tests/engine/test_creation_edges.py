"""Creation edges read off the trace: the step that enables an event and writes its shadow
location happens before the step running that event, whatever creator the executor reported."""

from __future__ import annotations

from webr4.engine.hb import HappensBefore
from webr4.trace import Access, AccessKind, Step, creation_edges, event_location

R, W = AccessKind.READ, AccessKind.WRITE


def step(event: str, enabled: set[str], *writes: str) -> Step:
    accesses = (Access(R, event_location(event)),) + tuple(Access(W, event_location(e)) for e in writes)
    return Step(event=event, enabled=frozenset(enabled | {event}), accesses=accesses)


def test_the_step_that_enables_and_writes_an_event_created_it() -> None:
    # a sets src (creating load), c is unrelated, then load runs: load happens after a only
    steps = [step("a", {"c"}, "load"), step("c", {"load"}), step("load", set())]
    assert creation_edges(steps) == {2: 0}
    hb = HappensBefore(steps)
    assert hb.happens_before(0, 2) and not hb.happens_before(1, 2)
    assert hb.direct_predecessors(2) == (0,)


def test_cancelling_an_already_enabled_event_is_no_creation() -> None:
    # a writes the shadow location of t (clearTimeout attempt) while t is already enabled
    steps = [step("a", {"t"}, "t"), step("t", set())]
    assert creation_edges(steps) == {}
    assert not HappensBefore(steps).happens_before(0, 1)


def test_an_enabled_event_that_nobody_wrote_has_no_creator() -> None:
    # the user event becomes enabled after a (the button appears), but a did not write it
    steps = [step("a", set()), step("click", set())]
    assert creation_edges(steps) == {}
