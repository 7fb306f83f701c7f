"""Models shared by the engine tests: the paper's running example and random small systems."""

from __future__ import annotations

from hypothesis import strategies as st

from webr4.engine.testing.model import Cancel, Create, Model, ModelEvent, Op, Read, When, Write
from webr4.trace import Category


def show_next_image(retry: str | None) -> tuple[Op, ...]:
    """Figure 1's ``showNextImage``: dequeue an image, or (on an empty queue) retry by timer."""
    return (When("queue", 0, then=(Create(retry),) if retry else (), otherwise=(Read("queue"), Write("queue", -1))),)


def figure1() -> Model:
    """The slideshow of R4's Figure 1 as a model.

    e0 and e3 are the image loads (``queue.push``), e1 and e2 the two clicks on *Next*, e4 the
    100 ms retry timer that e2 sets in Q1, t1 the one e1 sets when it finds the queue empty, and
    e5 the deferred ``stats.js``. Two simplifications keep it to the conflicts Figure 2 discusses:
    the second image is requested when the first has arrived (so e0 happens before e3, and the
    ⟨e0, e3⟩ conflict, which the paper only mentions for deeper bounds, cannot occur), and a retry
    timer that again finds the queue empty does not re-arm.
    """
    push = (Read("queue"), Write("queue", 1))
    return Model(
        [
            ModelEvent("e0", (*push, Create("e3")), root=True, category=Category.NETWORK),
            ModelEvent("e1", show_next_image("t1"), user=True),
            ModelEvent("e2", show_next_image("e4"), user=True),
            ModelEvent("e3", push, category=Category.NETWORK),
            ModelEvent("e4", show_next_image(None), category=Category.TIMER),
            ModelEvent("e5", (Write("stats", 1),), root=True, category=Category.PARSE),
            ModelEvent("t1", show_next_image(None), category=Category.TIMER),
        ]
    )


CELLS = ("x", "y")


@st.composite
def models(draw: st.DrawFn, max_events: int = 5, conditional: bool = True) -> Model:
    """Random small models: reads, value-dependent writes, branches, creation and cancellation.

    With ``conditional=False`` no :class:`When` is drawn, so every event's accesses are the same
    in every state (the setting in which sleep sets are exact).
    """
    n = draw(st.integers(2, max_events))
    ids = [f"e{k}" for k in range(n)]
    users = set(draw(st.lists(st.sampled_from(ids), max_size=2, unique=True)))
    creator: dict[str, int] = {}
    for k in range(1, n):
        if ids[k] not in users and draw(st.booleans()):
            creator[ids[k]] = draw(st.integers(0, k - 1))
    cancellable = [e for e in ids if e not in users]

    def plain_op() -> st.SearchStrategy[Op]:
        options = [st.builds(Read, st.sampled_from(CELLS)), st.builds(Write, st.sampled_from(CELLS), st.integers(0, 2))]
        if cancellable:
            options.append(st.builds(Cancel, st.sampled_from(cancellable)))
        return st.one_of(*options)

    def op() -> st.SearchStrategy[Op]:
        if not conditional:
            return plain_op()
        branch = st.lists(plain_op(), max_size=2).map(tuple)
        return st.one_of(plain_op(), st.builds(When, st.sampled_from(CELLS), st.integers(0, 1), branch, branch))

    programs = {e: list(draw(st.lists(op(), max_size=3))) for e in ids}
    for target, k in creator.items():
        body = programs[ids[k]]
        body.insert(draw(st.integers(0, len(body))), Create(target))
    events = [
        ModelEvent(e, tuple(programs[e]), root=e not in users and e not in creator, user=e in users)
        for e in ids
    ]
    return Model(events)


# -- cyclic models ------------------------------------------------------------------------------


def interval() -> Model:
    """``setInterval`` that sets a flag: the same state after every tick, next to a one-off load."""
    return Model(
        [
            ModelEvent("tick", (Write("flag", 1), Create("tick")), root=True, repeats=True, category=Category.TIMER),
            ModelEvent("load", (Read("flag"), Write("seen")), root=True, category=Category.NETWORK),
        ]
    )


def ping_pong() -> Model:
    """Two timers that re-arm each other, racing on one cell, next to a click that reads it."""
    return Model(
        [
            ModelEvent("ping", (Write("ball", 1), Create("pong")), root=True, repeats=True, category=Category.TIMER),
            ModelEvent("pong", (Write("ball", 2), Create("ping")), repeats=True, category=Category.TIMER),
            ModelEvent("click", (Read("ball"), Write("shown")), user=True),
        ]
    )


def poller() -> Model:
    """A poller that re-arms itself until a click sets the flag it polls."""
    return Model(
        [
            ModelEvent("poll", (When("done", 0, then=(Create("poll"),)),), root=True, repeats=True,
                       category=Category.TIMER),
            ModelEvent("click", (Write("done", 1),), user=True),
        ]
    )


def counter() -> Model:
    """An interval timer that counts: its state never repeats, so only the firing limit ends it."""
    return Model([ModelEvent("count", (Read("n"), Write("n", 1), Create("count")), root=True, repeats=True)])


@st.composite
def cyclic_models(draw: st.DrawFn, max_events: int = 3) -> Model:
    """Random small models in which events may repeat and create each other (or themselves),
    possibly only under a condition, as timers and pollers do."""
    n = draw(st.integers(1, max_events))
    ids = [f"e{k}" for k in range(n)]
    users = set(draw(st.lists(st.sampled_from(ids), max_size=1, unique=True)))
    plain = st.one_of(
        st.builds(Read, st.sampled_from(CELLS)),
        st.builds(Write, st.sampled_from(CELLS), st.integers(0, 1)),
        st.builds(Cancel, st.sampled_from(ids)),
    )
    programs: dict[str, list[Op]] = {e: list(draw(st.lists(plain, max_size=2))) for e in ids}
    creator: dict[str, str] = {}
    for target in ids:
        if target not in users and draw(st.booleans()):
            creator[target] = draw(st.sampled_from(ids))
            create: Op = Create(target)
            if draw(st.booleans()):
                create = When(draw(st.sampled_from(CELLS)), draw(st.integers(0, 1)), then=(create,))
            body = programs[creator[target]]
            body.insert(draw(st.integers(0, len(body))), create)
    roots = {e for e in ids if e not in users and e not in creator} or {ids[0]} - users
    events = [
        ModelEvent(e, tuple(programs[e]), root=e in roots, user=e in users,
                   repeats=e not in users and draw(st.booleans()))
        for e in ids
    ]
    return Model(events)
