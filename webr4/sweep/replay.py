"""Replaying one reported reversal: both of its sequences again, compared again.

``webr4 replay RUN ID`` re-executes the parent and the child of reversal ``ID`` from the
session's recorded network, compares their end states under the run's noise mask, and says
whether the reported difference reproduces. With ``--traces DIR`` it writes the two stored traces
as plain ``trace.json`` files instead (the run keeps them only in its store).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from webr4.browser.driver import Driver
from webr4.classify.differences import describe_differences
from webr4.rundir.execution_files import ExecutionFiles, write_trace
from webr4.rundir.run import RunDir
from webr4.rundir.summary import ReversalReport, Summary, SummaryError
from webr4.state.snapshot import StateSnapshot
from webr4.sweep.plan_execution import run_plan
from webr4.rundir.runfiles import RunFiles
from webr4.record.session import Session
from webr4.trace import Trace
from webr4.errors import Webr4Error


class ReplayError(Webr4Error):
    """The run or the reversal cannot be found (one line)."""


@dataclass(frozen=True)
class Reproduction:
    reported: dict[str, list[str]]  # category -> what differed when the run was explored
    now: dict[str, list[str]]  # the same, in this replay

    @property
    def reproduced(self) -> bool:
        return set(self.reported) == set(self.now)


async def replay_reversal(driver: Driver, run: Path, reversal_id: int) -> Reproduction:
    summary, reversal = find_reversal(run, reversal_id)
    run_dir = RunDir(run)
    session = Session.load(run_dir.session(summary.session).directory)
    mask = run_dir.read_noise()
    with RunFiles(run) as files:
        plans = [stored_trace(files, run_dir, number).sequence for number in (reversal.parent, reversal.id)]
    states = []
    for plan in plans:
        execution = await run_plan(driver, session, plan)
        states.append(StateSnapshot.from_execution(execution, execution.heap))
    return Reproduction(reversal.differences, describe_differences(mask.diff(states[0], states[1])))


def write_traces(run: Path, reversal_id: int, target: Path) -> list[Path]:
    """Write the stored traces of reversal ``reversal_id`` as plain files, ``target/parent/trace.json``
    and ``target/child/trace.json`` (each usable as ``webr4 run --sequence``); returns their paths."""
    _summary, reversal = find_reversal(run, reversal_id)
    written = []
    with RunFiles(run) as files:
        for role, number in (("parent", reversal.parent), ("child", reversal.id)):
            trace = stored_trace(files, RunDir(run), number)
            written.append(write_trace(ExecutionFiles(target / role).trace, trace))
    return written


def find_reversal(run: Path, reversal_id: int) -> tuple[Summary, ReversalReport]:
    """The run's summary and its reversal ``reversal_id``; :class:`ReplayError` when either is missing."""
    try:
        summary = RunDir(run).read_summary()
    except SummaryError as error:
        raise ReplayError(str(error)) from None
    reversal = next((r for r in summary.reversals if r.id == reversal_id), None)
    if reversal is None:
        known = ", ".join(str(r.id) for r in summary.reversals) or "none"
        raise ReplayError(f"the run has no reversal {reversal_id} (reversals: {known})")
    return summary, reversal


def stored_trace(files: RunFiles, run: RunDir, number: int) -> Trace:
    trace = files.trace(number)
    if trace is None:
        raise ReplayError(f"{run.directory} has no stored trace of sequence {number}; "
                          f"was its {run.store.name} removed?")
    return trace
