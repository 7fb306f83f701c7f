"""A sweep's loop over its strategy's plans, one step at a time: plan, execute, judge, store.

The seed has been replayed and the noise learnt (:func:`webr4.sweep.explore.explore`); each
step executes the next planned sequence (idle workers run the plans the strategy will probably
ask for next, :mod:`webr4.sweep.plan_prediction`), judges it against its parent and stores what it
found in the run, or reads it back when a resumed sweep judged it before.

Which plan runs next is decided here: a reversal whose group's representative stood for it
(:mod:`webr4.engine.grouping`, unless the settings are ``exhaustive``) is withdrawn from the
strategy and recorded as represented, in the store and the summary, and the next plan is asked.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from webr4.classify.judge import judge
from webr4.engine.anytime import AnytimeExplorer
from webr4.engine.describe import describe_location
from webr4.engine.filters import filters_by_name
from webr4.engine.grouping import AGREEING, CODE, GroupKey, Represented, ReversalGroups
from webr4.engine.plans import PlannedSequence, Strategy, executed, next_or_stop
from webr4.engine.strategies import make_strategy
from webr4.rundir.run import RunDir
from webr4.places import short_site
from webr4.rundir.summary import FINISHED, RepresentedReversal, ReversalGroup, ReversalReport, Summary
from webr4.state.noise import NoiseMask
from webr4.state.snapshot import StateSnapshot
from webr4.sweep.early_witness import EarlyWitness
from webr4.sweep.plan_execution import AS_RECORDED, Variant
from webr4.rundir.outcome import Outcome
from webr4.sweep.pipeline import Pipeline
from webr4.sweep.progress import Progress
from webr4.sweep.settings import SweepSettings
from webr4.sweep.plan_prediction import predict, upcoming
from webr4.rundir.store import RunStore
from webr4.trace import Trace
from webr4.vocabulary import StopReason, Truncation


@dataclass(frozen=True)
class Seed:
    """The seed replay every sequence derives from: its trace, its end state and the stored
    execution (``key``) that holds both."""

    trace: Trace
    state: StateSnapshot
    key: str


class Sweep:
    """The strategy ``settings`` name, explored from ``seed``: every sequence is run through
    ``pipeline`` (on ``workers`` workers), judged with the noise ``mask`` and kept in ``run`` and
    ``store``; with a ``witness``, each judged reversal is offered to it and the confirmations it
    has done go into the summary as the sweep goes. ``represented`` are the reversals withdrawn
    because their group's representative stood for them, in the order they were planned."""

    def __init__(self, pipeline: Pipeline, run: RunDir, store: RunStore, settings: SweepSettings, seed: Seed,
                 mask: NoiseMask, workers: int, witness: EarlyWitness | None = None) -> None:
        self._pipeline, self._run, self._store, self._witness = pipeline, run, store, witness
        self._settings, self._seed, self._mask, self._workers = settings, seed.trace, mask, workers
        self.strategy = _strategy(settings, seed.trace)
        self._traces: dict[int, Trace] = {0: seed.trace}
        self._states: dict[int, StateSnapshot] = {0: self._save(0, seed.key, seed.state)}
        self._groups = ReversalGroups(settings.bound, exhaustive=settings.exhaustive)
        self.represented: list[Represented] = []

    def next_plan(self, started: float) -> PlannedSequence | StopReason:
        """The next sequence to run, or why the sweep stops: its strategy has none left, or it
        ran ``max_sequences``, or the time limit or budget since ``started`` (a
        :func:`time.monotonic`) ran out. Plans a representative stands for are withdrawn on
        the way (:attr:`represented`)."""
        limits = [limit for limit in (self._settings.time_limit, self._settings.budget) if limit is not None]
        while True:
            planned = next_or_stop(self.strategy, max_sequences=self._settings.max_sequences,
                                   max_seconds=min(limits) if limits else None,
                                   elapsed=lambda: time.monotonic() - started)
            if isinstance(planned, StopReason):
                return planned
            represented = self._groups.admit(planned)
            if represented is None:
                return planned
            self.strategy.withdraw(planned)
            self.represented.append(represented)
            self._store.represented(planned.index, self._represented_report(represented).to_json())

    async def step(self, planned: PlannedSequence) -> ReversalReport:
        """Execute ``planned``, tell the strategy, keep its files and judge it against its parent
        (unless the store holds that judgement already), and offer it to the witness; returns its
        report."""
        parent = self._traces[planned.derived_from]
        ahead = upcoming(self.strategy, planned, lambda p: self._pipeline.trace(p.plan), lambda: (parent, self._seed),
                         self._workers - 1, self._groups) if self._workers > 1 else []
        variant = self._variant(planned)
        self._pipeline.want([(planned.plan, variant), *((p.plan, self._variant(p)) for p in ahead)])
        key, child = await self._pipeline.outcome(planned.plan, variant=variant)
        self.strategy.observe(planned, _as_planned(child, planned, parent, self._seed))
        self._traces[planned.index] = child.trace
        self._states[planned.index] = self._save(planned.index, key, child.state)
        stored = self._store.report(planned.index)
        if stored is not None:  # its group as this sweep has it (an older run's reports have none)
            report = replace(ReversalReport.from_json(stored), group=self._groups.representative_of(planned.index))
        else:
            report = self._judge(planned, child.trace)
            self._store.judged(planned.index, key, report.to_json())
        self._groups.judged(planned.index, agrees=report.verdict in AGREEING)
        if self._witness is not None:
            self._witness.offer(report, parent, child.trace)
        return report

    async def run(self, summary: Summary, progress: Progress, started: float) -> None:
        """Step until the sweep stops; ``summary`` is filled in and rewritten as it goes, and marked
        finished at the end."""
        progress.start(_planned_total(self.strategy))
        while not isinstance(planned := self.next_plan(started), StopReason):
            report = await self.step(planned)
            summary.reversals.append(report)
            self._note(summary, started)
            self._note_groups(summary)
            if self._witness is not None:
                self._witness.settle(summary)
            self._run.write_summary(summary)
            progress.advance(executed(self.strategy.explored) - 1, _planned_total(self.strategy) - 1,
                             summary.counts, report.to_json())
        self._note(summary, started)
        self._note_groups(summary)
        pruning = self.strategy.stats().pruning
        if pruning is not None:
            summary.pruning = {"enabled": pruning.enabled, "explored": pruning.explored,
                               "ratio": round(pruning.ratio, 4)}
        summary.status, summary.stop_reason = FINISHED, planned
        if self._witness is not None:
            self._witness.settle(summary)
        self._run.write_summary(summary)
        progress.finish(summary.to_json())

    def _note(self, summary: Summary, started: float) -> None:
        """Put into ``summary`` the sequences explored, the time taken and, for a sweep that goes
        bound by bound, which bound it completed and how far the next got."""
        summary.sequences = executed(self.strategy.explored)
        summary.seconds = round(time.monotonic() - started, 2)
        reached = self.strategy.stats().bounds
        if reached is not None:
            summary.completed_bound = reached.completed
            summary.next_bound = None if reached.working is None else {
                "bound": reached.working, "explored": reached.explored, "pending": reached.pending}

    def _note_groups(self, summary: Summary) -> None:
        """Put into ``summary`` the reversals represented and every group of more than one
        reversal so far, each with its members and the verdicts of those explored."""
        summary.represented = [self._represented_report(r) for r in self.represented]
        groups: dict[int, ReversalGroup] = {}
        for report in summary.reversals:
            if report.group is None:
                continue
            if report.group not in groups:
                groups[report.group] = self._group(report.group)
            groups[report.group].explored.append(report.id)
            verdicts = groups[report.group].verdicts
            verdicts[report.verdict] = verdicts.get(report.verdict, 0) + 1
        for represented in self.represented:
            groups[represented.representative].represented.append(represented.planned.index)
        for group in groups.values():
            group.locations = len({self._reversal_location(index) for index in (*group.explored, *group.represented)})
        summary.groups = [group for group in groups.values() if group.count > 1]

    def _reversal_location(self, index: int) -> str | None:
        """The location the sequence ``index`` (run, or withdrawn for its representative) was
        planned to reverse on."""
        reversal = self.strategy.explored[index].planned.reversal
        return reversal.location if reversal is not None else None

    def _group(self, representative: int) -> ReversalGroup:
        """The group of the sequence ``representative``, as yet without members: its location
        in words and its sites."""
        planned = self.strategy.explored[representative].planned
        key = GroupKey.of(planned.reversal)
        assert key is not None  # a sequence with a group has a key
        assert planned.reversal is not None
        location = describe_location(planned.reversal.location, self._traces[planned.derived_from])
        return ReversalGroup(representative, location, [side_words(side) for side in key.sides])

    def _represented_report(self, represented: Represented) -> RepresentedReversal:
        """What the summary and the store keep of a reversal its group's representative stood for."""
        planned = represented.planned
        reversal = planned.reversal
        assert reversal is not None  # only reversals have groups
        events = self._traces[planned.derived_from].events
        return RepresentedReversal(planned.index, planned.derived_from, planned.depth,
                                   events[reversal.first].label, events[reversal.second].label,
                                   reversal.first, reversal.second, represented.representative)

    def _variant(self, planned: PlannedSequence) -> Variant:
        """How ``planned`` runs: as recorded, its accesses logged in every step unless the strategy
        reads none of them; then in the steps of its reversed pair alone, which the verdict's
        rules read (a user event's writes, a script's)."""
        if planned.reversal is None or self.strategy.reads_accesses(planned):
            return AS_RECORDED
        return Variant(logged_events=frozenset((planned.reversal.first, planned.reversal.second)))

    def _judge(self, planned: PlannedSequence, child: Trace) -> ReversalReport:
        """Judge a child against its parent (:func:`~webr4.classify.judge.judge`), write the
        difference and the witness directory, and say it all as the reversal's report."""
        judged = judge(planned, self._seed, self._traces[planned.derived_from], self._states[planned.derived_from],
                       child, self._states[planned.index], self._mask, self._settings.rules)
        self._run.write_difference(planned.index, judged.difference)
        witness = self._run.write_witness(planned.index, planned.derived_from)
        return ReversalReport.of(planned, judged, child, witness.directory.relative_to(self._run.directory).as_posix(),
                                 self._groups.representative_of(planned.index))

    def _save(self, index: int, key: str, state: StateSnapshot) -> StateSnapshot:
        """Note that sequence ``index`` ran as the stored execution ``key`` (which holds its trace
        and state) and move its screenshot out of the store into the run's sequence files, where
        the report and the witness find it; returns the state with the screenshot as that file,
        so that its bytes need not stay in memory."""
        self._store.explored(index, key)
        png = state.screenshot_png()
        if png is None:
            return state
        path = self._run.keep_screenshot(index, png)
        self._store.screenshot_moved(key, path.relative_to(self._run.directory).as_posix())
        return state.replace(screenshot=path)


def side_words(side: str) -> str:
    """A side of a group (:class:`~webr4.engine.grouping.GroupKey`) in a report: its site short
    (``when.js:714:6``), or its event's code, a site in it short (``setTimeout from timeout.js:47:16``)."""
    if not side.startswith(CODE):
        return short_site(side)
    what, found, site = side.removeprefix(CODE).partition(" from ")
    return f"{what} from {short_site(site)}" if found else what


def _strategy(settings: SweepSettings, seed: Trace) -> Strategy:
    """The strategy ``settings`` name from ``seed``; with a budget, R4 bound by bound."""
    filters = filters_by_name(settings.filters)
    if settings.budget is not None:
        return AnytimeExplorer(seed, settings.bound, order=settings.order, filters=filters)
    return make_strategy(settings.strategy, seed, bound=settings.bound, filters=filters,
                         max_sequences=settings.max_sequences)


def _planned_total(strategy: Strategy) -> int:
    """Sequences run plus those the strategy still has pending (an estimate for progress)."""
    return executed(strategy.explored) + strategy.pending


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
