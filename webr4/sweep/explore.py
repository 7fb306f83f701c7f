"""Exploring a recorded session: every R4 conflict reversal, executed, compared and judged.

1. The seed is replayed twice from the recorded network. If the two replays run different
   events, the session cannot be explored (R4's "repeating the initial recording failed"); if
   only their end states differ, the differing parts become a noise mask for every comparison.
2. A strategy plans one sequence at a time; each runs in a fresh browser context, and its end
   state is compared with its parent's and classified (harmful, harmless, heap-only, error)
   with reason codes. With ``r4`` the parent differs by exactly one reversed conflict; the rival
   strategies (``delay``: delay-bounded random sampling, ``wave``: random happens-before-
   respecting swaps of the recording) are judged at the first event where child and parent part.
3. Everything is written under the run directory as it happens: ``sequences/<n>/`` (trace,
   state, screenshot, difference with the parent) and ``summary.json``.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterable

from playwright.async_api import Error as PlaywrightError

from webr4.browser.driver import Driver, Execution
from webr4.classify import classify
from webr4.engine import Explorer, PlannedSequence, Strategy
from webr4.engine.strategies import DelayBoundedSampler, WaveSampler
from webr4.engine.describe import describe_location
from webr4.engine.filters import DEFAULT_FILTERS, NamedFilter
from webr4.state.noise import NoiseMask
from webr4.state.snapshot import StateSnapshot
from webr4.sweep.session import Session
from webr4.trace import ErrorRecord, Event, Trace

FAILED_RUN = frozenset({"event-timeout", "page-lost", "run-timeout"})
_MASK_FIELD = {"dom": "dom_keys", "heap": "heap_paths", "screenshot": "boxes"}  # category -> NoiseMask field
STRATEGIES = ("r4", "delay", "wave")
_SAMPLES = 20  # plans the sampling strategies draw when no --max-sequences is given


class SeedNotReproducible(Exception):
    """Replaying the recording twice ran different events: exploring it would compare noise."""


@dataclass(frozen=True)
class ReversalReport:
    """One explored sequence against its parent."""

    index: int
    parent: int
    depth: int
    first: str  # label of the event that ran first in the parent
    second: str  # label of the event the child runs first
    first_id: str
    second_id: str
    location: str  # in words
    location_key: str
    verdict: str
    reasons: list[str]
    differences: list[str]
    skipped: int


@dataclass
class Summary:
    url: str
    bound: int | None
    strategy: str = "r4"
    sequences: int = 1
    stop_reason: str = "exhausted"
    seconds: float = 0.0
    noise: list[str] = field(default_factory=list)
    reversals: list[ReversalReport] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        return dict(Counter(r.verdict for r in self.reversals))

    def to_json(self) -> dict:
        raw = asdict(self)
        raw["counts"] = self.counts
        return raw


async def _run(driver: Driver, session: Session, plan: Iterable[str]) -> Execution:
    """One execution of ``plan``; a browser failure is retried once, then becomes a failed run."""
    for attempt in (1, 2):
        try:
            return await driver.execute(session.url, tuple(plan), actions=session.user_actions,
                                        store=session.network(), record=False, limits=session.run_limits,
                                        seed=session.seed, screenshot=True, heap=True)
        except PlaywrightError as error:
            if attempt == 2:
                failed = Trace(steps=[], events={}, truncated="page-lost",
                               errors=[ErrorRecord("harness", f"the browser failed twice: {error}")])
                return Execution(failed, "")
    raise AssertionError("unreachable")


def _first_divergence(a: Trace, b: Trace) -> str:
    for i, (x, y) in enumerate(zip(a.sequence, b.sequence)):
        if x != y:
            return f"step {i}: {a.events[x].label} vs {b.events[y].label}"
    return f"one replay ran {len(a.steps)} events, the other {len(b.steps)}"


def _event(event_id: str, *traces: Trace) -> Event:
    for trace in traces:
        if event_id in trace.events:
            return trace.events[event_id]
    raise KeyError(event_id)


def _strategy(name: str, seed: Trace, bound: int | None, filters: tuple[NamedFilter, ...],
              max_sequences: int | None) -> Strategy:
    samples = (max_sequences - 1) if max_sequences else _SAMPLES
    if name == "r4":
        return Explorer(seed, bound=bound, filters=filters)
    if name == "delay":
        return DelayBoundedSampler(seed, max_delays=bound or 1, samples=samples)
    if name == "wave":
        return WaveSampler(seed, copies=samples)
    raise ValueError(f"unknown strategy {name!r}; choose one of {', '.join(STRATEGIES)}")


def _racing_pair(planned: PlannedSequence, parent: Trace, child: Trace) -> tuple[Event, Event, str]:
    """The reversed pair and its location; for strategies without one, the events at the first
    position where the two sequences part."""
    if planned.reversal is not None:
        r = planned.reversal
        return _event(r.first, parent, child), _event(r.second, parent, child), r.location
    for before, after in zip(parent.sequence, child.sequence):
        if before != after:
            return _event(before, parent, child), _event(after, parent, child), ""
    return _event(parent.sequence[-1], parent), _event(child.sequence[-1], child), ""


async def explore(driver: Driver, session: Session, out: Path, *, bound: int | None = 1, strategy: str = "r4",
                  max_sequences: int | None = None, time_limit: float | None = None,
                  mask: NoiseMask = NoiseMask(), rules: Iterable[str] | None = None,
                  filters: Iterable[NamedFilter] = DEFAULT_FILTERS) -> Summary:
    """Explore ``session`` into the run directory ``out`` (created when missing)."""
    started = time.monotonic()
    rules = list(rules) if rules is not None else None
    out.mkdir(parents=True, exist_ok=True)
    first = await _run(driver, session, session.seed_trace().sequence)
    second = await _run(driver, session, first.trace.sequence)
    if first.trace.sequence != second.trace.sequence or first.trace.truncated in FAILED_RUN:
        raise SeedNotReproducible(
            f"repeating the recording failed ({_first_divergence(first.trace, second.trace)}); "
            "record the session again, or mask what varies")
    baseline = StateSnapshot.from_execution(first, first.heap)
    noise = NoiseMask.from_baselines(baseline, StateSnapshot.from_execution(second, second.heap))
    summary = Summary(session.url, bound, strategy, noise=[name for name, part in _MASK_FIELD.items() if getattr(noise, part)])
    mask = noise | mask
    explorer = _strategy(strategy, first.trace, bound, tuple(filters), max_sequences)
    traces: dict[int, Trace] = {0: first.trace}
    states: dict[int, StateSnapshot] = {0: baseline}
    _save(out, 0, first.trace, baseline)
    while True:
        if max_sequences is not None and len(explorer.explored) >= max_sequences:
            summary.stop_reason = "max-sequences"
            break
        if time_limit is not None and time.monotonic() - started >= time_limit:
            summary.stop_reason = "time-limit"
            break
        planned = explorer.next_plan()
        if planned is None:
            break
        child = await _run(driver, session, planned.plan)
        explorer.record(planned, child.trace)
        state = StateSnapshot.from_execution(child, child.heap)
        traces[planned.index], states[planned.index] = child.trace, state
        parent_trace, parent_state = traces[planned.parent], states[planned.parent]
        difference = mask.diff(parent_state, state)
        *pair, location = _racing_pair(planned, parent_trace, child.trace)
        verdict = classify(parent_trace, child.trace, difference, (pair[0], pair[1]),
                           child_failed=child.trace.truncated in FAILED_RUN, rules=rules)
        directory = _save(out, planned.index, child.trace, state)
        difference.save(directory, "diff")
        summary.reversals.append(ReversalReport(
            index=planned.index, parent=planned.parent, depth=planned.depth,
            first=pair[0].label, second=pair[1].label, first_id=pair[0].id, second_id=pair[1].id,
            location=describe_location(location, parent_trace) if location else "order of events",
            location_key=location,
            verdict=verdict.kind, reasons=list(verdict.reasons), differences=sorted(difference.categories),
            skipped=len(child.trace.skipped),
        ))
        summary.sequences = len(explorer.explored)
        summary.seconds = round(time.monotonic() - started, 2)
        _write_summary(out, summary)
    summary.sequences = len(explorer.explored)
    summary.seconds = round(time.monotonic() - started, 2)
    _write_summary(out, summary)
    return summary


def _save(out: Path, index: int, trace: Trace, state: StateSnapshot) -> Path:
    directory = out / "sequences" / str(index)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "trace.json").write_text(trace.dumps())
    state.save(directory, "state")
    return directory


def _write_summary(out: Path, summary: Summary) -> None:
    temporary = out / "summary.json.tmp"
    temporary.write_text(json.dumps(summary.to_json(), indent=1))
    temporary.replace(out / "summary.json")
