"""Exploring a recorded session: every R4 conflict reversal, executed, compared and judged.

1. The seed is replayed twice from the recorded network (both at once when there are several
   workers). If either replay fails (after its retry), or the two run different events, the
   session cannot be explored (R4's "repeating the initial recording failed"); if only their
   end states differ, the differing parts become a noise mask for every comparison.
2. A strategy plans one sequence at a time (:class:`~webr4.sweep.loop.Sweep`, one step per
   sequence); each runs in a fresh browser context, and its end
   state is compared with its parent's and classified (harmful, harmless, heap-only, error)
   with reason codes. With ``r4`` the parent differs by exactly one reversed conflict; the rival
   strategies (``delay``: delay-bounded random sampling, ``wave``: random happens-before-
   respecting swaps of the recording) are judged at the first event where child and parent part.
   Idle workers run the plans the strategy will probably ask for next
   (:mod:`webr4.sweep.plan_prediction`); the strategy only ever sees real traces, so the result does
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
from dataclasses import replace
from pathlib import Path

from webr4.browser.driver import Driver
from webr4.browser.launch import sandbox_state
from webr4.vocabulary import failure
from webr4.engine import find_races
from webr4.engine.filters import filters_by_name
from webr4.places import short_words
from webr4.rundir.run import RunDir
from webr4.rundir.summary import INTERRUPTED, Summary
from webr4.state.noise import NoiseMask
from webr4.sweep.backends import Backend, InProcess
from webr4.sweep.early_witness import EarlyWitness
from webr4.sweep.plan_execution import SHIFTED, UNLOGGED
from webr4.rundir.outcome import Outcome
from webr4.sweep.loop import Seed, Sweep
from webr4.sweep.pipeline import Pipeline
from webr4.sweep.progress import SEED, Progress, Quiet
from webr4.sweep.settings import SweepSettings
from webr4.record.session import Session
from webr4.rundir.store import RunStore, StoreError
from webr4.trace import Trace
from webr4.errors import Webr4Error


SEED_REPLAYS = 3
"""Executions of the seed before exploring: two as recorded (what differs between them is noise),
one with the virtual clock and the random seed moved (what moves follows them)."""


class SeedNotReproducible(Webr4Error):
    """Replaying the recording twice ran different events: exploring it would compare noise."""


def _first_divergence(a: Trace, b: Trace) -> str:
    for i, (x, y) in enumerate(zip(a.sequence, b.sequence)):
        if x != y:
            return f"step {i}: {short_words(a.events[x].label)} vs {short_words(b.events[y].label)}"
    return f"one replay ran {len(a.steps)} events, the other {len(b.steps)}"


async def explore(runner: Driver | Backend, session: Session, out: Path, settings: SweepSettings = SweepSettings(),
                  *, resume: bool = False, progress: Progress = Quiet(),
                  witness: EarlyWitness | None = None) -> Summary:
    """Explore ``session`` into the run directory ``out`` (created when missing) as ``settings`` say.

    ``runner`` is a driver to run executions in this process one at a time, or a
    :class:`~webr4.sweep.backends.Backend` (worker processes, a cluster). With ``resume``, the
    sweep stored in ``out`` continues with its own settings (of ``settings`` only ``exhaustive``
    counts, which runs the reversals the sweep left to their groups' representatives):
    finished executions are read back, not run again. A ``witness`` confirms the reversals in
    plain Chromium while the sweep goes on (:mod:`webr4.sweep.early_witness`); the caller finishes it.
    """
    started = time.monotonic()
    backend = InProcess(runner, session) if isinstance(runner, Driver) else runner
    run = RunDir(out)
    if resume:
        store = RunStore.open(out)
        stored = stored_settings(store, session)
        settings = replace(stored, exhaustive=stored.exhaustive or settings.exhaustive)
    else:
        store = reserve(out, session.directory, settings)
    pipeline = Pipeline(backend, store)
    try:
        return await _sweep(pipeline, store, session, run, settings, started, progress, backend.workers, witness)
    finally:
        await pipeline.close()
        store.close()
        if backend is not runner:  # a browser it started for one that died
            await backend.close()


def reserve(out: Path, session_dir: Path, settings: SweepSettings = SweepSettings()) -> RunStore:
    """The new store of a sweep in the run directory ``out`` (created when missing) of the session
    in ``session_dir``, holding ``settings`` and where the session is; the session may still be to
    record. Storing them before anything else happens lets ``--resume`` continue this sweep, not
    another, whenever it was interrupted. Refuses (:class:`StoreError`) a run that has a store;
    ``settings`` were checked when they were made (:class:`SweepSettings`)."""
    out.mkdir(parents=True, exist_ok=True)
    return RunStore.create(out, {"session": RunDir(out).relative(session_dir), **settings.to_json()})


def stored_settings(store: RunStore, session: Session) -> SweepSettings:
    """The settings of the sweep in ``store``, for resuming it with ``session``.

    ``session`` must be the directory the sweep explored (the stored ``session``, relative to the
    run) unless nothing is there any more: a run moved or copied elsewhere is resumed with the
    session given.
    """
    stored = store.get("settings")
    run = RunDir(store.path.parent)
    explored = run.session(stored["session"])
    if explored.recorded and explored.directory.resolve() != session.directory.resolve():
        raise StoreError(f"the sweep in {run.directory} explored {explored.directory}, not {session.directory}; "
                         "resume it with that session")
    return SweepSettings.from_json(stored)


async def _sweep(pipeline: Pipeline, store: RunStore, session: Session, run: RunDir, settings: SweepSettings,
                 started: float, progress: Progress, workers: int, witness: EarlyWitness | None) -> Summary:
    filters = filters_by_name(settings.filters)
    seed_plan = session.seed_trace().sequence
    progress.phase(SEED)
    # The first replay is the seed, whose races are explored; the other two show what varies in
    # the end state, and their accesses are read by nothing.
    (seed_key, first), (_, second), (_, shifted) = await asyncio.gather(
        pipeline.outcome(seed_plan, copy=1), pipeline.outcome(seed_plan, copy=2, variant=UNLOGGED),
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
    summary = Summary(session.url, settings.bound, settings.strategy, run.relative(session.directory),
                      session.run_limits.chunking.describe(), len(first.trace.steps),
                      len(find_races(first.trace, filters=filters).uncovered),
                      noise=noise.categories, clock_noise=clock.items(), sandbox=sandbox_state(),
                      failed_requests=session.network().failures(), budget=settings.budget,
                      blocked_service_workers=_blocked_service_workers(session, first.trace))
    run.write_noise(noise | clock)
    mask = noise | clock | settings.mask
    run.write_summary(summary)
    try:
        seed = Seed(first.trace, first.state, seed_key)
        await Sweep(pipeline, run, store, settings, seed, mask, workers, witness).run(summary, progress, started)
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


def _blocked_service_workers(session: Session, seed: Trace) -> list[str]:
    """The service workers the page registered in the seed while the session blocked them."""
    return seed.service_workers if session.run_limits.service_workers == "block" else []


def _clock_noise(seed: Outcome, shifted: Outcome) -> NoiseMask:
    """What of the seed's end state follows the virtual clock or the random numbers: what differs
    in a replay of the seed with both moved (:data:`~webr4.sweep.plan_execution.SHIFTED`). A reversal
    runs events at other virtual times, so a stored timestamp or an id made from one changes
    without anything a user would call different. Nothing when that replay ran other events: its
    differences are then not the clock's alone."""
    if shifted.failed or shifted.trace.sequence != seed.trace.sequence:
        return NoiseMask()
    return NoiseMask.from_baselines(seed.state, shifted.state)
