"""Planning cost of R4's exploration, without a browser: the one-off analysis of a synthetic
10,000-event seed with 500 uncovered races, then next_plan + record per explored sequence at
bound k = 1 (target: at most 50 ms each), and how much partial-order reduction prunes on random
small models.

The seed comes from :class:`SyntheticExecutor`, which replays plans over a fixed program by its
happens-before edges alone; its own time is never counted as planning time. Times are the
process's CPU time, so that other work on a shared machine does not inflate them.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from benchmarks.section import Section
from webr4.engine.r4 import R4Explorer
from webr4.engine.testing.model import Cancel, Create, Model, ModelEvent, ModelExecutor, Op, Read, When, Write
from webr4.engine.races import find_races
from webr4.engine.stats import Pruning, por_pruning
from webr4.trace import Access, AccessKind, Category, Event, EventId, Plan, Step, Trace, event_location

TARGET_MS = 50.0


@dataclass(frozen=True)
class _Action:
    """One event of the synthetic program: the events it waits for, and its accesses."""

    id: EventId
    after: tuple[EventId, ...]
    accesses: tuple[Access, ...]


class SyntheticExecutor:
    """A page-like program: a chain of parse steps, and every ``spacing`` steps an asynchronous
    callback created by one parse step, run two steps later by the default policy, writing a
    location that the parse step five after its creator reads. Each callback races with that
    reader and with nothing else, so a program with ``races`` callbacks has exactly ``races``
    uncovered races. Plans replay approximately: an event runs when everything it waits for has
    run, and the default policy runs the rest in program order."""

    def __init__(self, events: int = 10_000, races: int = 500) -> None:
        parse_steps = events - races
        spacing = parse_steps // races if races else 0
        if spacing < 6:
            raise ValueError(f"{races} races do not fit in {events} events")
        program: list[_Action] = []
        for k in range(parse_steps):
            accesses = [Access(AccessKind.READ, event_location(f"p{k}")), Access(AccessKind.WRITE, f"dom:node{k % 64}")]
            if k + 1 < parse_steps:
                accesses.append(Access(AccessKind.WRITE, event_location(f"p{k + 1}")))
            m, offset = divmod(k, spacing)
            if m < races and offset == 0:
                accesses.append(Access(AccessKind.WRITE, event_location(f"a{m}")))
            if m < races and offset == 5:
                accesses.append(Access(AccessKind.READ, f"global:r{m}"))
            program.append(_Action(f"p{k}", (f"p{k - 1}",) if k else (), tuple(accesses)))
            if m < races and offset == 2:
                creator = f"p{k - 2}"
                program.append(_Action(f"a{m}", (creator,), (
                    Access(AccessKind.READ, event_location(f"a{m}")), Access(AccessKind.WRITE, f"global:r{m}"))))
        self.program = {action.id: action for action in program}
        self.rank = {action.id: rank for rank, action in enumerate(program)}
        self.followers: dict[EventId, list[EventId]] = {action.id: [] for action in program}
        for action in program:
            for earlier in action.after:
                self.followers[earlier].append(action.id)
        self.events = {
            action.id: Event(action.id, Category.PARSE if action.id[0] == "p" else Category.TIMER, "synthetic",
                             action.id, creator=action.after[0] if action.id[0] == "a" else None)
            for action in program
        }

    def execute(self, plan: Plan) -> Trace:
        waiting = {event_id: len(action.after) for event_id, action in self.program.items()}
        pending = {event_id for event_id, count in waiting.items() if count == 0}
        position: dict[EventId, int] = {}
        steps: list[Step] = []
        skipped: list[EventId] = []

        def run(event_id: EventId, planned: bool) -> None:
            action = self.program[event_id]
            steps.append(Step(event_id, frozenset(pending), tuple(position[e] for e in action.after), action.accesses,
                              float(len(steps)), planned))
            position[event_id] = len(steps) - 1
            pending.discard(event_id)
            for follower in self.followers[event_id]:
                waiting[follower] -= 1
                if waiting[follower] == 0:
                    pending.add(follower)

        for event_id in plan:
            if event_id in pending:
                run(event_id, True)
            else:
                skipped.append(event_id)
        while pending:
            run(min(pending, key=self.rank.__getitem__), False)
        return Trace(steps=steps, events=self.events, skipped=skipped)


@dataclass(frozen=True)
class PlanningCost:
    seed_events: int
    uncovered_races: int
    seed_analysis_ms: float
    sequences: int
    mean_ms: float
    median_ms: float
    max_ms: float
    next_plan_ms: float
    record_ms: float


def measure_planning(executor: SyntheticExecutor, bound: int = 1) -> PlanningCost:
    """Time the seed's analysis and then each next_plan + record, leaving out the executor."""
    seed = executor.execute([])
    uncovered = len(find_races(seed).uncovered_pairs())
    started = time.process_time()
    explorer = R4Explorer(seed, bound)
    seed_analysis = time.process_time() - started
    planning: list[float] = []
    recording: list[float] = []
    while True:
        started = time.process_time()
        planned = explorer.next_plan()
        planned_at = time.process_time()
        if planned is None:
            break
        trace = executor.execute(planned.plan)
        started_record = time.process_time()
        explorer.observe(planned, trace)
        recording.append(time.process_time() - started_record)
        planning.append(planned_at - started)
    totals = [(p + r) * 1000 for p, r in zip(planning, recording)]
    return PlanningCost(len(seed.steps), uncovered, seed_analysis * 1000, len(totals), statistics.mean(totals),
                        statistics.median(totals), max(totals), statistics.mean(planning) * 1000,
                        statistics.mean(recording) * 1000)


def random_model(rng: random.Random, size: int, cells: str) -> Model:
    """A random small model over the memory ``cells``: reads, value-dependent writes, branches,
    timers created by earlier events, cancellation and up to two user events."""
    ids = [f"e{k}" for k in range(size)]
    users = set(rng.sample(ids, rng.randint(0, 2)))
    creator = {ids[k]: ids[rng.randrange(k)] for k in range(1, size) if ids[k] not in users and rng.random() < 0.4}
    cancellable = [e for e in ids if e not in users]

    def op() -> Op:
        cell = rng.choice(cells)
        choice = rng.randrange(4)
        if choice == 0:
            return Read(cell)
        if choice == 1:
            return Write(cell, rng.randint(0, 2))
        if choice == 2 and cancellable:
            return Cancel(rng.choice(cancellable))
        return When(cell, rng.randint(0, 1), then=(Write(rng.choice(cells), 1),))

    programs = {e: [op() for _ in range(rng.randint(1, 3))] for e in ids}
    for target, parent in creator.items():
        programs[parent].insert(rng.randint(0, len(programs[parent])), Create(target))
    return Model([ModelEvent(e, tuple(programs[e]), root=e not in users and e not in creator, user=e in users)
                  for e in ids])


def measure_pruning(cells: str, bound: int | None = None, models: int = 100, size: int = 6) -> Pruning:
    """Partial-order reduction over ``models`` random models of ``size`` events, summed; fewer
    ``cells`` make conflicts denser."""
    rng = random.Random(2015)
    enabled = explored = 0
    for _ in range(models):
        executor = ModelExecutor(random_model(rng, size, cells))
        explorer = R4Explorer(executor.execute([]), bound)
        while (planned := explorer.next_plan()) is not None:
            explorer.observe(planned, executor.execute(planned.plan))
        pruning = por_pruning(explorer)
        enabled, explored = enabled + pruning.enabled, explored + pruning.explored
    return Pruning(enabled, explored)


def table(cost: PlanningCost, prunings: dict[str, Pruning]) -> str:
    verdict = "met" if cost.mean_ms <= TARGET_MS else "missed"
    lines = [
        "| measure | value |",
        "|---|---:|",
        f"| seed events / uncovered races | {cost.seed_events} / {cost.uncovered_races} |",
        f"| seed analysis, once (ms) | {cost.seed_analysis_ms:.0f} |",
        f"| sequences explored at k = 1 | {cost.sequences} |",
        (f"| next_plan + record per sequence, mean / median / max (ms) | "
         f"{cost.mean_ms:.1f} / {cost.median_ms:.1f} / {cost.max_ms:.1f} |"),
        f"| of which next_plan / record, mean (ms) | {cost.next_plan_ms:.1f} / {cost.record_ms:.1f} |",
        f"| target ≤ {TARGET_MS:.0f} ms per sequence | {verdict} |",
    ]
    lines += [f"| POR pruning, {name} | {p.ratio:.0%} of {p.enabled} enabled events |" for name, p in prunings.items()]
    return "\n".join(lines)


def run(sites: list[Path]) -> Section:
    cost = measure_planning(SyntheticExecutor())
    prunings = {
        "100 random 6-event models over 3 cells, unbounded": measure_pruning("xyz"),
        "100 random 6-event models over 3 cells, k = 1": measure_pruning("xyz", bound=1),
        "100 random 6-event models over 8 cells, unbounded": measure_pruning("abcdefgh"),
        "100 random 6-event models over 8 cells, k = 1": measure_pruning("abcdefgh", bound=1),
    }
    data = {"planning": asdict(cost), "target_ms": TARGET_MS,
            "pruning": {name: asdict(p) | {"ratio": p.ratio} for name, p in prunings.items()}}
    return Section("Planning cost per explored sequence (no browser)", table(cost, prunings), data)
