"""The timer rule of happens-before against brute force: on small models, the edges never
exclude an order a browser whose clock fires timers by due time could produce, and (when every
created event is a timer, so that only timers have fixed times) they exclude every order it
could not."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from webr4.engine.hb import HappensBefore
from webr4.engine.testing.model import Create, Model, ModelEvent
from webr4.timer_order import timer_edges
from webr4.trace import Category

PROPERTY = settings(max_examples=150, deadline=None)
DELAYS = (0, 1, 2, 3, 5)


@st.composite
def timer_models(draw: st.DrawFn, max_events: int = 6, only_timers_created: bool = False) -> Model:
    """Roots and user events (free times) and events they create, transitively: timers with
    small delays, and (unless ``only_timers_created``) network completions, whose time is free."""
    n = draw(st.integers(2, max_events))
    ids = [f"e{k}" for k in range(n)]
    creator: dict[int, int] = {}
    users: list[int] = []
    for k in range(n):
        kind = draw(st.sampled_from(("root", "user", "created")) if k else st.sampled_from(("root", "user")))
        if kind == "created":
            creator[k] = draw(st.integers(0, k - 1))
        elif kind == "user":
            users.append(k)
    events = []
    for k, event_id in enumerate(ids):
        ops = tuple(Create(ids[c]) for c in range(n) if creator.get(c) == k)
        if k not in creator:
            events.append(ModelEvent(event_id, ops, root=k not in users, user=k in users))
        elif only_timers_created or draw(st.booleans()):
            events.append(ModelEvent(event_id, ops, delay=draw(st.sampled_from(DELAYS))))
        else:
            events.append(ModelEvent(event_id, ops, category=Category.NETWORK))
    return Model(events)


def due_consistent(model: Model, schedule: tuple[str, ...]) -> bool:
    """Whether virtual times exist under which ``schedule`` is what a due-time-ordered browser
    does: the clock never goes back; a timer fires at its due time (its creator's time plus its
    delay) and never while a timer due earlier, or as early and created first, is pending; any
    other event happens whenever the clock allows, never past the due time of a pending timer.

    Decided as a system of difference constraints (``t_a - t_b <= w``, strict ones with a small
    ``eps``, exact for integer delays) by Bellman-Ford.
    """
    position = {event: k for k, event in enumerate(schedule)}
    n = len(schedule)
    eps = Fraction(1, 2 * n + 2)
    created = {}  # timer -> (step that created it, rank among that step's creations)
    for event_id, creator in model.creators.items():
        ops = model.events[creator].ops
        created[event_id] = (position[creator], [op.event for op in ops if isinstance(op, Create)].index(event_id))
    constraints: list[tuple[int, int, Fraction]] = []  # (a, b, w): t_a - t_b <= w

    def at_most(a: int, b: int, w: Fraction) -> None:
        constraints.append((a, b, w))

    timers = {e for e in schedule if model.events[e].delay is not None}
    for k, event_id in enumerate(schedule):
        if k:
            at_most(k - 1, k, Fraction(0))
        event = model.events[event_id]
        if event.delay is not None:
            c = created[event_id][0]
            at_most(k, c, Fraction(event.delay))
            at_most(c, k, -Fraction(event.delay))
        for other in timers:
            c, _ = created[other]
            if other == event_id or not c < k < position[other]:
                continue  # not pending while this step runs
            delay = model.events[other].delay
            assert delay is not None
            slack = Fraction(delay)
            if event.delay is not None and created[other] < created[event_id]:
                slack -= eps  # an equally due timer created first would fire first
            at_most(k, c, slack)
    distance = [Fraction(0)] * n
    for _ in range(n + 1):
        changed = False
        for a, b, w in constraints:
            if distance[b] + w < distance[a]:
                distance[a] = distance[b] + w
                changed = True
        if not changed:
            return True
    return False


def orders(model: Model) -> list[tuple[str, ...]]:
    return [schedule for schedule, _ in model.schedules() if due_consistent(model, schedule)]


def forced_pairs(schedules: list[tuple[str, ...]]) -> set[tuple[str, str]]:
    """The ordered pairs of events that every schedule runs in that order."""
    common: set[tuple[str, str]] | None = None
    for schedule in schedules:
        pairs = set(combinations(schedule, 2))
        common = pairs if common is None else common & pairs
    return common or set()


def claimed_pairs(model: Model, schedule: tuple[str, ...]) -> set[tuple[str, str]]:
    trace, _ = model.execute(schedule)
    assert trace.sequence == list(schedule)
    hb = HappensBefore(trace.steps)
    return {(schedule[i], schedule[j]) for i, j in combinations(range(len(schedule)), 2) if hb.happens_before(i, j)}


@PROPERTY
@given(timer_models())
def test_timer_edges_never_exclude_an_order_a_browser_can_produce(model: Model) -> None:
    possible = orders(model)
    forced = forced_pairs(possible)
    for schedule in possible:
        assert claimed_pairs(model, schedule) <= forced


@PROPERTY
@given(timer_models(only_timers_created=True))
def test_timer_edges_exclude_every_order_a_browser_cannot_produce(model: Model) -> None:
    possible = orders(model)
    forced = forced_pairs(possible)
    for schedule in possible:
        assert claimed_pairs(model, schedule) == forced


def test_timers_of_two_user_steps_fire_in_step_order() -> None:
    # two clicks each set a 1000 ms timer: the second click's timer is never due first
    model = Model([
        ModelEvent("click1", (Create("t1"),), user=True),
        ModelEvent("click2", (Create("t2"),), user=True),
        ModelEvent("t1", delay=1000),
        ModelEvent("t2", delay=1000),
    ])
    trace, _ = model.execute(["click1", "click2", "t1", "t2"])
    assert timer_edges(trace.steps, trace.events) == {3: (2,)}


def test_a_polling_chain_fires_before_a_long_timeout_set_beside_it() -> None:
    # load sets a 60 s timeout and a 50 ms tick that re-arms twice: every tick comes first
    model = Model([
        ModelEvent("load", (Create("tick1"), Create("timeout")), root=True),
        ModelEvent("tick1", (Create("tick2"),), delay=50),
        ModelEvent("tick2", (Create("tick3"),), delay=50),
        ModelEvent("tick3", delay=50),
        ModelEvent("timeout", delay=60_000),
    ])
    trace, _ = model.execute(["load", "tick1", "tick2", "tick3", "timeout"])
    hb = HappensBefore(trace.steps)
    assert all(hb.happens_before(tick, 4) for tick in (1, 2, 3))


def test_equally_due_timers_whose_creation_order_is_open_stay_unordered() -> None:
    # a (offset 1 via x) and b (offset 1) tie when the clicks come at once; then b, created by
    # the second click before x fires, goes first; with the clicks apart, a goes first
    model = Model([
        ModelEvent("click1", (Create("x"),), user=True),
        ModelEvent("click2", (Create("b"),), user=True),
        ModelEvent("x", (Create("a"),), delay=1),
        ModelEvent("a", delay=0),
        ModelEvent("b", delay=1),
    ])
    firsts = {"a" if s.index("a") < s.index("b") else "b" for s in orders(model)}
    assert firsts == {"a", "b"}
    for schedule in orders(model):
        pairs = claimed_pairs(model, schedule)
        assert ("a", "b") not in pairs and ("b", "a") not in pairs
