"""A small simulated event-driven system that speaks the browser's trace format.

A :class:`Model` is a finite set of events, each a little program over integer memory cells:

* :class:`Read` loads a cell into the event's register, :class:`Write` stores
  ``register + add`` into a cell (so what is written depends on what was read, and schedules
  can end in different states);
* :class:`When` reads a cell and runs one of two branches on its value (ad-hoc synchronisation);
* :class:`Create` enables another event, :class:`Cancel` disables it if it is pending
  (``setTimeout`` / ``clearTimeout``). Both write the target's shadow location
  :func:`~webr4.trace.event_location`, and running an event reads its own.

Root events are pending from the start; user events are pending one at a time, in their
declared order. An event runs at most once unless it is declared ``repeats`` (``setInterval``,
a timer that re-arms itself or another): a repeating event is pending again whenever an op
creates it while it is not pending. Without repeating events every schedule is finite and the
state space is acyclic, as Theorem 1 of R4 requires; with them runs can loop, and end by the
rule of :mod:`webr4.engine.testing.cycles` (a full cycle, or an event over the firing limit), consulted
after every step on the run's :meth:`Model.fingerprint`.

:class:`ModelExecutor` runs plans approximately, exactly like the browser executor: planned ids
run when pending and are skipped otherwise, then the default policy finishes the run: the
pending event that has fired least often, and among those the one declared first (so in an
acyclic model, simply the one declared first). Its traces carry stable ids, enabled sets,
creation and user-order happens-before edges, the timer order of :mod:`webr4.timer_order`
(for events with a ``delay``), and every access, including the shadow ones; a
run the end-of-run rule stopped has ``truncated`` set to the rule's reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from webr4.engine.testing.cycles import EndOfRun
from webr4.timer_order import with_timer_order
from webr4.trace import Access, AccessKind, Category, Event, EventId, Plan, Step, Trace, event_location


@dataclass(frozen=True)
class Read:
    cell: str


@dataclass(frozen=True)
class Write:
    cell: str
    add: int = 0


@dataclass(frozen=True)
class When:
    cell: str
    equals: int
    then: tuple[Op, ...] = ()
    otherwise: tuple[Op, ...] = ()


@dataclass(frozen=True)
class Create:
    event: EventId


@dataclass(frozen=True)
class Cancel:
    event: EventId


Op = Read | Write | When | Create | Cancel


@dataclass(frozen=True)
class ModelEvent:
    """One event: its program, how it becomes pending (root, user, or created by an op), and
    whether it can run again once it has run (``repeats``; never for user events). An event
    with a ``delay`` is a ``setTimeout`` of that delay: its trace event is a timer carrying it,
    which is all :mod:`webr4.timer_order` needs to order it against other timers. ``code`` names
    the function its ops are (its id when ``None``): the sites of their accesses are the code's,
    so events of one code (the modules a loader defines through one function) share them, and
    its trace event's ``site`` is the code too (what :func:`~webr4.trace.event_code` reads)."""

    id: EventId
    ops: tuple[Op, ...] = ()
    root: bool = False
    user: bool = False
    category: Category = Category.OTHER
    repeats: bool = False
    delay: float | None = None
    code: str | None = None


State = tuple[tuple[tuple[str, int], ...], frozenset[EventId]]
"""A final state: the memory cells (sorted) and the set of events that ran."""

Fingerprint = tuple[tuple[tuple[str, int], ...], frozenset[EventId], int, frozenset[EventId]]
"""A run's state, canonically: the non-zero memory cells (sorted), the pending events, the user
cursor (how many user events ran) and the events that ran and can never run again (non-user
events without ``repeats``). Two runs with equal fingerprints continue alike."""

DEFAULT_FIRING_LIMIT = 5
"""How often one event may fire in a model run before the run is stopped."""


@dataclass
class _Run:
    """The mutable state of one execution of a model."""

    memory: dict[str, int]
    pending: dict[EventId, int | None]  # pending event -> step index that enabled it, if any
    ran: set[EventId] = field(default_factory=set)
    steps: list[Step] = field(default_factory=list)
    last_user_step: int | None = None
    fired: Counter[EventId] = field(default_factory=Counter)

    def copy(self) -> _Run:
        return _Run(dict(self.memory), dict(self.pending), set(self.ran), list(self.steps), self.last_user_step,
                    Counter(self.fired))


class Model:
    """An event-driven program with a deterministic transition relation.

    Contract: event ids are unique, every :class:`Create` / :class:`Cancel` target is an event of
    the model, and each non-root, non-user event has at most one :class:`Create` op naming it.
    """

    def __init__(self, events: Sequence[ModelEvent], memory: Mapping[str, int] | None = None) -> None:
        self.events = {event.id: event for event in events}
        if len(self.events) != len(events):
            raise ValueError("event ids must be unique")
        self.order = {event.id: rank for rank, event in enumerate(events)}
        self.users = [event.id for event in events if event.user]
        self.initial_memory = dict(memory or {})
        self.creators = _creators(events)
        for event in events:
            if event.repeats and event.user:
                raise ValueError(f"user event {event.id!r} cannot repeat")
        for target in _targets(events):
            if target not in self.events:
                raise ValueError(f"an op names the unknown event {target!r}")

    # -- executing -----------------------------------------------------------------------------

    def start(self) -> _Run:
        pending: dict[EventId, int | None] = {e.id: None for e in self.events.values() if e.root}
        if self.users:
            pending[self.users[0]] = None
        return _Run(memory=dict(self.initial_memory), pending=pending)

    @property
    def cyclic(self) -> bool:
        """Whether some event repeats, so that runs may loop."""
        return any(event.repeats for event in self.events.values())

    def enabled(self, run: _Run) -> frozenset[EventId]:
        return frozenset(run.pending)

    def fingerprint(self, run: _Run) -> Fingerprint:
        """The canonical state of ``run`` (see :data:`Fingerprint`)."""
        memory = tuple(sorted((cell, value) for cell, value in run.memory.items() if value))
        cursor = sum(1 for user in self.users if user in run.ran)
        spent = frozenset(e for e in run.ran if not self.events[e].repeats and not self.events[e].user)
        return memory, frozenset(run.pending), cursor, spent

    def step(self, run: _Run, event_id: EventId, planned: bool = True) -> None:
        """Run the pending event ``event_id`` atomically and append its step to ``run``."""
        enabled = frozenset(run.pending)
        enabler = run.pending.pop(event_id)
        event = self.events[event_id]
        index = len(run.steps)
        predecessors = {enabler} if enabler is not None else set()
        accesses = [Access(AccessKind.READ, event_location(event_id), site=f"{event_id}:run")]
        if event.user:
            if run.last_user_step is not None:
                predecessors.add(run.last_user_step)
            run.last_user_step = index
        _Program(self, run, event_id, index, accesses).execute(event.ops)
        if event.user:
            position = self.users.index(event_id)
            if position + 1 < len(self.users):
                following = self.users[position + 1]
                accesses.append(Access(AccessKind.WRITE, event_location(following), site=f"{event_id}:user"))
                run.pending[following] = index
        run.ran.add(event_id)
        run.fired[event_id] += 1
        run.steps.append(
            Step(
                event=event_id,
                enabled=enabled,
                predecessors=tuple(sorted(predecessors)),
                accesses=tuple(accesses),
                time=float(index),
                planned=planned,
            )
        )

    def default_choice(self, run: _Run) -> EventId:
        """The default policy: the pending event that fired least often, then the one declared first."""
        return min(run.pending, key=lambda event_id: (run.fired[event_id], self.order[event_id]))

    def execute(self, plan: Plan, firing_limit: int = DEFAULT_FIRING_LIMIT) -> tuple[Trace, State]:
        """Run ``plan`` approximately, finish with the default policy; the trace and final state.

        After every step, planned or not, the end-of-run rule decides whether the run stops there
        with events still pending; the rest of the plan is then left unrun.
        """
        run = self.start()
        rule = EndOfRun(self.fingerprint(run), self.enabled(run), firing_limit)
        skipped = []
        truncated = None
        plan_left = iter(plan)
        while run.pending and truncated is None:
            planned = next(plan_left, None)
            if planned is not None and planned not in run.pending:
                skipped.append(planned)
                continue
            event_id = planned if planned is not None else self.default_choice(run)
            self.step(run, event_id, planned=planned is not None)
            stop = rule.after(event_id, self.fingerprint(run), self.enabled(run))
            if stop is not None and run.pending:
                truncated = stop.reason
        if truncated is None:
            skipped.extend(plan_left)
        return self._trace(run, skipped, truncated), self._state(run)

    def final_state(self, schedule: Sequence[EventId]) -> State:
        """The final state of an exact ``schedule``; raises ``ValueError`` if it is not one."""
        run = self._replay(schedule)
        if run.pending:
            raise ValueError(f"the schedule stops with {sorted(run.pending)} still pending")
        return self._state(run)

    def fingerprint_after(self, schedule: Sequence[EventId]) -> Fingerprint:
        """The fingerprint of the state an exact ``schedule`` leads to; ``ValueError`` if it is not one."""
        return self.fingerprint(self._replay(schedule))

    def _replay(self, schedule: Sequence[EventId]) -> _Run:
        run = self.start()
        for event_id in schedule:
            if event_id not in run.pending:
                raise ValueError(f"{event_id!r} is not pending where the schedule runs it")
            self.step(run, event_id)
        return run

    # -- brute force ---------------------------------------------------------------------------

    def schedules(self) -> Iterator[tuple[tuple[EventId, ...], State]]:
        """Every maximal schedule with its final state, by depth-first enumeration (acyclic models only)."""
        if self.cyclic:
            raise ValueError("a cyclic model has infinite schedules; enumerate them under an end-of-run rule")
        yield from self._schedules((), self.start())

    def _schedules(self, prefix: tuple[EventId, ...], run: _Run) -> Iterator[tuple[tuple[EventId, ...], State]]:
        if not run.pending:
            yield prefix, self._state(run)
            return
        for event_id in sorted(run.pending, key=self.order.__getitem__):
            child = run.copy()
            self.step(child, event_id)
            yield from self._schedules(prefix + (event_id,), child)

    def all_final_states(self) -> dict[State, int]:
        """Each reachable final state with the number of schedules that reach it."""
        counts: dict[State, int] = {}
        for _, state in self.schedules():
            counts[state] = counts.get(state, 0) + 1
        return counts

    # -- internals -----------------------------------------------------------------------------

    def _trace(self, run: _Run, skipped: list[EventId], truncated: str | None) -> Trace:
        events = {
            event_id: Event(
                id=event_id,
                category=Category.USER if event.user else Category.TIMER if event.delay is not None else event.category,
                type="model",
                label=event_id,
                creator=self.creators.get(event_id),
                params={"site": event.code or event_id, **({} if event.delay is None else {"delay": event.delay})},
            )
            for event_id, event in self.events.items()
        }
        return Trace(steps=with_timer_order(run.steps, events), events=events,
                     enabled_at_end=frozenset(run.pending), skipped=skipped,
                     truncated=truncated)

    @staticmethod
    def _state(run: _Run) -> State:
        return tuple(sorted(run.memory.items())), frozenset(run.ran)


@dataclass
class _Program:
    """Interprets one event's ops against a run, recording accesses."""

    model: Model
    run: _Run
    event_id: EventId
    index: int
    accesses: list[Access]
    register: int = 0

    def execute(self, ops: Sequence[Op]) -> None:
        for op in ops:
            match op:
                case Read(cell):
                    self._read(cell)
                case Write(cell, add):
                    value = self.register + add
                    self.run.memory[cell] = value
                    self._access(AccessKind.WRITE, cell, str(value))
                case When(cell, equals, then, otherwise):
                    self.execute(then if self._read(cell) == equals else otherwise)
                case Create(target):
                    self._access(AccessKind.WRITE, event_location(target))
                    if target not in self.run.pending and (
                        target not in self.run.ran or self.model.events[target].repeats
                    ):
                        self.run.pending[target] = self.index
                case Cancel(target):
                    self._access(AccessKind.WRITE, event_location(target))
                    self.run.pending.pop(target, None)

    def _read(self, cell: str) -> int:
        value = self.run.memory.get(cell, 0)
        self.register = value
        self._access(AccessKind.READ, cell, str(value))
        return value

    def _access(self, kind: AccessKind, location: str, value: str | None = None) -> None:
        code = self.model.events[self.event_id].code or self.event_id
        self.accesses.append(Access(kind, location, site=f"{code}:{len(self.accesses)}", value=value))


class ModelExecutor:
    """The :class:`~webr4.trace.Executor` of a model; remembers every final state it reached."""

    def __init__(self, model: Model, firing_limit: int = DEFAULT_FIRING_LIMIT) -> None:
        self.model = model
        self.firing_limit = firing_limit
        self.final_states: list[State] = []

    def execute(self, plan: Plan) -> Trace:
        trace, state = self.model.execute(plan, self.firing_limit)
        self.final_states.append(state)
        return trace


def _walk(ops: Sequence[Op]) -> Iterator[Op]:
    for op in ops:
        yield op
        if isinstance(op, When):
            yield from _walk(op.then)
            yield from _walk(op.otherwise)


def _creators(events: Sequence[ModelEvent]) -> dict[EventId, EventId]:
    creators: dict[EventId, EventId] = {}
    for event in events:
        for op in _walk(event.ops):
            if isinstance(op, Create):
                if op.event in creators and creators[op.event] != event.id:
                    raise ValueError(f"{op.event!r} has more than one creator")
                creators[op.event] = event.id
    return creators


def _targets(events: Sequence[ModelEvent]) -> set[EventId]:
    return {op.event for event in events for op in _walk(event.ops) if isinstance(op, (Create, Cancel))}
