"""Exploring a recorded session: every R4 conflict reversal, executed, compared and judged.

1. The seed is replayed twice from the recorded network (both at once when there are several
   workers). If either replay fails (after its retry), or the two run different events, the
   session cannot be explored (R4's "repeating the initial recording failed"); if only their
   end states differ, the differing parts become a noise mask for every comparison.
2. A strategy plans one sequence at a time; each runs in a fresh browser context, and its end
   state is compared with its parent's and classified (harmful, harmless, heap-only, error)
   with reason codes. With ``r4`` the parent differs by exactly one reversed conflict; the rival
   strategies (``delay``: delay-bounded random sampling, ``wave``: random happens-before-
   respecting swaps of the recording) are judged at the first event where child and parent part.
   Idle workers run the plans the strategy will probably ask for next
   (:mod:`webr4.sweep.speculate`); the strategy only ever sees real traces, so the result does
   not depend on the number of workers.
3. Everything is written under the run directory as it happens, through
   :class:`~webr4.rundir.run.RunDir` (its layout is described in :mod:`webr4.rundir`): the store
   ``webr4.sqlite`` that ``--resume`` continues from, each sequence's screenshot and difference
   with its parent, each reversal's witness, ``noise.json`` and ``summary.json`` (a
   :class:`~webr4.rundir.summary.Summary`, written when exploring starts and rewritten after every
   reversal).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Iterable

from webr4.browser.driver import Driver
from webr4.browser.launch import sandbox_state
from webr4.classify.judge import ORDER_OF_EVENTS, failure, judge
from webr4.classify.rules import known_rules
from webr4.engine import Explorer, PlannedSequence, Strategy, find_races
from webr4.engine.anytime import ORDERS, AnytimeExplorer, BudgetError
from webr4.engine.filters import DEFAULT_FILTERS, NamedFilter, filters_by_name
from webr4.engine.stats import por_pruning
from webr4.engine.strategies import STRATEGIES, UnknownStrategy, make_strategy
from webr4.rundir.run import RunDir
from webr4.rundir.summary import FINISHED, INTERRUPTED, ReversalReport, Summary
from webr4.state.noise import NoiseMask
from webr4.state.snapshot import StateSnapshot
from webr4.sweep.backends import Backend, InProcess
from webr4.sweep.execution import SHIFTED, Outcome
from webr4.sweep.pipeline import Pipeline
from webr4.sweep.progress import SEED, Progress, Quiet
from webr4.record.session import Session
from webr4.sweep.speculate import predict, upcoming
from webr4.sweep.store import RunStore, StoreError, execution_key
from webr4.trace import Trace
from webr4.errors import Webr4Error
from webr4.vocabulary import StopReason, Truncation


SEED_REPLAYS = 3
"""Executions of the seed before exploring: two as recorded (what differs between them is noise),
one with the virtual clock and the random seed moved (what moves follows them)."""


class SeedNotReproducible(Webr4Error):
    """Replaying the recording twice ran different events: exploring it would compare noise."""


def _first_divergence(a: Trace, b: Trace) -> str:
    for i, (x, y) in enumerate(zip(a.sequence, b.sequence)):
        if x != y:
            return f"step {i}: {a.events[x].label} vs {b.events[y].label}"
    return f"one replay ran {len(a.steps)} events, the other {len(b.steps)}"


async def explore(runner: Driver | Backend, session: Session, out: Path, *, bound: int | None = 1,
                  strategy: str = "r4", max_sequences: int | None = None, time_limit: float | None = None,
                  budget: float | None = None, order: str = "harm",
                  mask: NoiseMask = NoiseMask(), rules: Iterable[str] | None = None,
                  filters: Iterable[NamedFilter] = DEFAULT_FILTERS, resume: bool = False,
                  progress: Progress = Quiet()) -> Summary:
    """Explore ``session`` into the run directory ``out`` (created when missing).

    With a ``budget`` (seconds, R4 only) the sweep is anytime (:mod:`webr4.engine.anytime`):
    bound 1 in ``order`` (``harm``: likely harm first; ``plan``: R4's own), then bound 2 and up
    to ``bound`` (``None``: no cap) until the budget is spent.

    ``runner`` is a driver to run executions in this process one at a time, or a
    :class:`~webr4.sweep.backends.Backend` (worker processes, a cluster). With ``resume``, the
    sweep stored in ``out`` continues with its own settings (the other arguments are ignored):
    finished executions are read back, not run again.
    """
    started = time.monotonic()
    backend = InProcess(runner, session) if isinstance(runner, Driver) else runner
    run = RunDir(out)
    if resume:
        store = RunStore.open(out)
        settings = SweepSettings.stored(store, session)
    else:
        store = reserve(out, session.directory, bound=bound, strategy=strategy, max_sequences=max_sequences,
                        time_limit=time_limit, budget=budget, order=order, mask=mask, rules=rules,
                        filters=filters)
        settings = SweepSettings(**store.get("settings"))
    pipeline = Pipeline(backend, store)
    try:
        return await _sweep(pipeline, store, session, run, settings, started, progress, backend.workers)
    finally:
        await pipeline.close()
        store.close()
        if backend is not runner:  # a browser it started for one that died
            await backend.close()


def reserve(out: Path, session_dir: Path, *, bound: int | None = 1, strategy: str = "r4",
            max_sequences: int | None = None, time_limit: float | None = None, budget: float | None = None,
            order: str = "harm", mask: NoiseMask = NoiseMask(), rules: Iterable[str] | None = None,
            filters: Iterable[NamedFilter] = DEFAULT_FILTERS) -> RunStore:
    """The new store of a sweep in the run directory ``out`` (created when missing) of the session
    in ``session_dir``, holding every setting that shapes the sweep; the session may still be to
    record. Storing them before anything else happens lets ``--resume`` continue this sweep, not
    another, whenever it was interrupted. Refuses a run that has a store (:class:`StoreError`), a
    budget with another strategy than ``r4`` or an unknown ``order``
    (:class:`~webr4.engine.anytime.BudgetError`), and an unknown strategy
    (:class:`~webr4.engine.strategies.UnknownStrategy`) or rule
    (:class:`~webr4.classify.rules.UnknownRule`)."""
    if strategy not in STRATEGIES:
        raise UnknownStrategy(strategy)
    if rules is not None:
        rules = known_rules(rules)
    if budget is not None and strategy != "r4":
        raise BudgetError(f"a budget orders R4's reversals; it cannot drive the {strategy} strategy")
    if order not in ORDERS:
        raise BudgetError(f"unknown order {order!r}; choose one of {', '.join(ORDERS)}")
    out.mkdir(parents=True, exist_ok=True)
    settings = SweepSettings(RunDir(out).relative(session_dir), bound, strategy, max_sequences, time_limit,
                             mask.to_json(), list(rules) if rules is not None else None, [f.name for f in filters],
                             budget, order)
    return RunStore.create(out, asdict(settings))


@dataclass(frozen=True)
class SweepSettings:
    """What makes a sweep the sweep it is; stored so that ``--resume`` continues the same one."""

    session: str
    bound: int | None
    strategy: str
    max_sequences: int | None
    time_limit: float | None
    mask: dict
    rules: list[str] | None
    filters: list[str]
    budget: float | None = None  # seconds of an anytime sweep (then ``bound`` is its cap); None: plain R4
    order: str = "harm"  # an anytime sweep's order of bound 1 (see webr4.engine.anytime.ORDERS)

    @classmethod
    def stored(cls, store: RunStore, session: Session) -> SweepSettings:
        """The settings of the sweep in ``store``, for resuming it with ``session``.

        ``session`` must be the directory the sweep explored (``settings.session``, relative
        to the run) unless nothing is there any more: a run moved or copied elsewhere is resumed
        with the session given.
        """
        settings = cls(**store.get("settings"))
        run = RunDir(store.path.parent)
        explored = run.session(settings.session)
        if explored.recorded and explored.directory.resolve() != session.directory.resolve():
            raise StoreError(f"the sweep in {run.directory} explored {explored.directory}, not {session.directory}; "
                             "resume it with that session")
        return replace(settings, session=run.relative(session.directory))


async def _sweep(pipeline: Pipeline, store: RunStore, session: Session, run: RunDir, settings: SweepSettings,
                 started: float, progress: Progress, workers: int) -> Summary:
    filters = filters_by_name(settings.filters)
    seed_plan = session.seed_trace().sequence
    progress.phase(SEED)
    first, second, shifted = await asyncio.gather(pipeline.outcome(seed_plan, copy=1),
                                                  pipeline.outcome(seed_plan, copy=2),
                                                  pipeline.outcome(seed_plan, copy=3, variant=SHIFTED))
    for replay in (first, second):  # a failed replay has no end state to learn the noise from
        cause = failure(replay.trace)
        if cause is not None:
            raise SeedNotReproducible(f"replaying the recording failed: {cause}; run the sweep again "
                                      "(with fewer --workers on a busy machine), or record the session again")
    if first.trace.sequence != second.trace.sequence:
        raise SeedNotReproducible(
            f"repeating the recording failed ({_first_divergence(first.trace, second.trace)}); "
            "record the session again, or mask what varies")
    noise = NoiseMask.from_baselines(first.state, second.state)
    clock = _clock_noise(first, shifted)
    summary = Summary(session.url, settings.bound, settings.strategy, settings.session,
                      session.run_limits.chunking.describe(), len(first.trace.steps),
                      len(find_races(first.trace, filters=filters).uncovered),
                      noise=noise.categories, clock_noise=clock.items(), sandbox=sandbox_state(),
                      failed_requests=session.network().failures(), budget=settings.budget)
    run.write_noise(noise | clock)
    mask = noise | clock | NoiseMask.from_json(settings.mask)
    run.write_summary(summary)
    try:
        await _explore_all(pipeline, store, run, settings, started, progress, workers, summary,
                           first.trace, first.state, execution_key(seed_plan, copy=1), mask, filters)
    except BaseException:
        summary.status = INTERRUPTED
        summary.seconds = round(time.monotonic() - started, 2)
        try:
            run.write_summary(summary)
        except OSError:  # the failure may be the disk itself; the summary still says "running"
            pass
        progress.finish(summary.to_json())  # a live bar must let go of the terminal
        raise
    return summary


def _clock_noise(seed: Outcome, shifted: Outcome) -> NoiseMask:
    """What of the seed's end state follows the virtual clock or the random numbers: what differs
    in a replay of the seed with both moved (:data:`~webr4.sweep.execution.SHIFTED`). A reversal
    runs events at other virtual times, so a stored timestamp or an id made from one changes
    without anything a user would call different. Nothing when that replay ran other events: its
    differences are then not the clock's alone."""
    if shifted.failed or shifted.trace.sequence != seed.trace.sequence:
        return NoiseMask()
    return NoiseMask.from_baselines(seed.state, shifted.state)


async def _explore_all(pipeline: Pipeline, store: RunStore, run: RunDir, settings: SweepSettings,
                       started: float, progress: Progress, workers: int, summary: Summary, seed: Trace,
                       seed_state: StateSnapshot, seed_key: str, mask: NoiseMask,
                       filters: tuple[NamedFilter, ...]) -> None:
    """Plan, execute and judge sequences until the strategy or a budget stops; ``summary`` is
    filled in and rewritten as it goes, and marked finished at the end. The seed is the stored
    execution ``seed_key``."""
    explorer: Strategy = make_strategy(settings.strategy, seed, bound=settings.bound, filters=filters,
                                       max_sequences=settings.max_sequences) if settings.budget is None \
        else AnytimeExplorer(seed, settings.bound, order=settings.order, filters=filters)
    limits = [limit for limit in (settings.time_limit, settings.budget) if limit is not None]
    time_limit = min(limits) if limits else None
    traces: dict[int, Trace] = {0: seed}
    states: dict[int, StateSnapshot] = {0: _save(run, store, 0, seed_key, seed_state)}
    progress.start(_planned(explorer))
    stop_reason = StopReason.EXHAUSTED
    while True:
        if settings.max_sequences is not None and len(explorer.explored) >= settings.max_sequences:
            stop_reason = StopReason.MAX_SEQUENCES
            break
        if time_limit is not None and time.monotonic() - started >= time_limit:
            stop_reason = StopReason.TIME_LIMIT
            break
        planned = explorer.next_plan()
        if planned is None:
            break
        ahead = upcoming(explorer, planned, lambda p: pipeline.trace(p.plan),
                         lambda: (traces[planned.derived_from], seed),  # noqa: B023 (called before the loop goes on)
                         workers - 1) if workers > 1 else []
        pipeline.want([planned.plan, *(p.plan for p in ahead)])
        child = await pipeline.outcome(planned.plan)
        explorer.record(planned, _as_planned(child, planned, traces[planned.derived_from], seed))
        traces[planned.index] = child.trace
        states[planned.index] = _save(run, store, planned.index, execution_key(planned.plan), child.state)
        stored = store.report(planned.index)
        if stored is not None:
            report = ReversalReport.from_json(stored)
        else:
            report = _judge(run, planned, seed, traces[planned.derived_from], states[planned.derived_from],
                            child.trace, states[planned.index], mask, settings.rules)
            store.judged(planned.index, execution_key(planned.plan), report.to_json())
        summary.reversals.append(report)
        _note_bounds(summary, explorer)
        summary.sequences = len(explorer.explored)
        summary.seconds = round(time.monotonic() - started, 2)
        run.write_summary(summary)
        progress.advance(len(explorer.explored) - 1, _planned(explorer) - 1, summary.counts, report.to_json())
    summary.sequences = len(explorer.explored)
    summary.seconds = round(time.monotonic() - started, 2)
    _note_bounds(summary, explorer)
    if isinstance(explorer, (Explorer, AnytimeExplorer)):
        pruned = por_pruning(explorer)
        summary.pruning = {"enabled": pruned.enabled, "explored": pruned.explored, "ratio": round(pruned.ratio, 4)}
    summary.status, summary.stop_reason = FINISHED, stop_reason
    run.write_summary(summary)
    progress.finish(summary.to_json())


def _note_bounds(summary: Summary, explorer: Strategy) -> None:
    """Put into ``summary`` which bound an anytime sweep completed and how far the next got."""
    if isinstance(explorer, AnytimeExplorer):
        reached = explorer.progress()
        summary.completed_bound = reached.completed
        summary.next_bound = None if reached.working is None else {
            "bound": reached.working, "explored": reached.explored, "pending": reached.pending}


def _as_planned(outcome: Outcome, planned: PlannedSequence, *known: Trace) -> Trace:
    """The trace the strategy learns from: the real one, unless the browser lost the run.

    A lost run (a crash) has no trace worth the name; R4 would take its empty sequence for a
    replay that diverged at the first step and drop every state past it, so the strategy is
    told the plan ran as planned instead (its events behaving as in the traces known). The
    sequence is still judged on its real outcome: ``error``.
    """
    if outcome.trace.truncated != Truncation.PAGE_LOST:
        return outcome.trace
    return predict(planned.plan, known) or outcome.trace


def _planned(strategy: Strategy) -> int:
    """Sequences explored plus those the strategy still has pending (an estimate for progress)."""
    return len(strategy.explored) + strategy.pending


def _judge(run: RunDir, planned: PlannedSequence, seed: Trace, parent_trace: Trace, parent_state: StateSnapshot,
           child_trace: Trace, child_state: StateSnapshot, mask: NoiseMask, rules: list[str] | None) -> ReversalReport:
    """Judge a child against its parent (:func:`~webr4.classify.judge.judge`), write the difference
    and the witness directory, and say it all as the reversal's report."""
    judged = judge(planned, seed, parent_trace, parent_state, child_trace, child_state, mask, rules)
    run.write_difference(planned.index, judged.difference)
    witness = run.write_witness(planned.index, planned.derived_from)
    first, second = judged.first, judged.second
    return ReversalReport(
        id=planned.index, index=planned.index, parent=planned.derived_from, depth=planned.depth,
        first=first.label, second=second.label, first_id=first.id, second_id=second.id,
        location=judged.locations[0][0] if judged.locations else ORDER_OF_EVENTS,
        locations=[words for words, _key in judged.locations], location_key=judged.location_key,
        verdict=judged.verdict.kind, reasons=list(judged.verdict.reasons), differences=judged.differences,
        skipped=len(child_trace.skipped), sequence=child_trace.sequence,
        events=[{"id": e.id, "label": e.label, "site": site, "waits_for": e.params.get("waits_for")}
                for e, site in zip((first, second), judged.sites)],
        witness=witness.directory.relative_to(run.directory).as_posix(),
        failure=judged.failure, unrealised=judged.unrealised, timing=judged.timing, timing_ms=judged.timing_ms,
    )


def _save(run: RunDir, store: RunStore, index: int, key: str, state: StateSnapshot) -> StateSnapshot:
    """Note that sequence ``index`` ran as the stored execution ``key`` (which holds its trace and
    state) and move its screenshot out of the store into the run's sequence files, where the
    report and the witness find it; returns the state with the screenshot as that file, so that
    its bytes need not stay in memory."""
    store.explored(index, key)
    png = state.screenshot_png()
    if png is None:
        return state
    path = run.keep_screenshot(index, png)
    store.screenshot_moved(key, path.relative_to(run.directory).as_posix())
    return state.replace(screenshot=path)
