"""An execution whose end state cannot be read is a failed execution: tried once more, then an
``error`` verdict that names the cause, and never a state compared with another."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import pytest

from webr4.browser.driver import Driver
from webr4.execution import Execution
from webr4.record.session import SessionError, record
from webr4.report.ci import in_words
from webr4.state.snapshot import StateSnapshot
from webr4.sweep.explore import SeedNotReproducible, explore
from webr4.sweep.settings import SweepSettings
from webr4.sweep.plan_execution import AS_RECORDED, Variant, run_plan
from webr4.rundir.outcome import Outcome
from webr4.trace import ErrorRecord, Trace
from webr4.vocabulary import Truncation

PAGES = Path(__file__).resolve().parent / "pages"
UNREAD = "the end state could not be read: reading the DOM took longer than 10 s"


def unread_execution() -> Execution:
    return Execution(Trace([], {}, truncated=Truncation.CAPTURE_FAILED,
                           errors=[ErrorRecord("harness", UNREAD, None, 0)]), "")


@dataclass
class Session:
    """What :func:`run_plan` reads of a session."""

    url: str = "http://127.0.0.1:1/"
    user_actions: tuple = ()
    run_limits: Any = None
    seed: int = 0

    def network(self) -> None:
        return None


@dataclass
class Driver_:
    """A driver whose executions come back as listed, one per call."""

    executions: list[Execution]
    calls: list[tuple[str, ...]] = field(default_factory=list)

    async def execute(self, url: str, plan: tuple[str, ...], **options: Any) -> Execution:
        self.calls.append(plan)
        return self.executions[len(self.calls) - 1]

    async def gone(self) -> bool:
        return False  # the browser itself stays


def test_an_end_state_that_could_not_be_read_is_read_again_in_a_new_execution() -> None:
    read = Execution(Trace([], {}), "<html>\n</html>")
    driver = Driver_([unread_execution(), read])
    assert asyncio.run(run_plan(driver, Session(), ["a"])) is read  # type: ignore[arg-type]
    assert driver.calls == [("a",), ("a",)]


def test_an_end_state_unread_twice_is_a_failed_execution() -> None:
    driver = Driver_([unread_execution(), unread_execution()])
    execution = asyncio.run(run_plan(driver, Session(), ["a"]))  # type: ignore[arg-type]
    assert execution.trace.truncated == Truncation.CAPTURE_FAILED
    assert len(driver.calls) == 2


@pytest.mark.browser
def test_a_reversal_whose_end_state_cannot_be_read_is_an_error_naming_why(driver, tmp_path) -> None:
    from webr4.serve import serve

    async def record_and_explore(shared: Driver):
        session = await record(shared, base + "unreadable-end/", tmp_path / "session", [])
        return await explore(shared, session, tmp_path / "run", SweepSettings(max_sequences=10))

    with serve(PAGES) as base:
        summary = driver.run(record_and_explore)
    failed = [r for r in summary.reversals if r.verdict == "error"]
    assert len(failed) == 1, summary.reversals
    reversal = failed[0]
    assert reversal.reasons == ["child-failed"]
    assert reversal.failure is not None and reversal.failure.startswith(
        "the reversal's execution failed: the end state could not be read: reading the DOM failed: ")
    assert reversal.differences == {}  # the unread page is no empty page
    assert reversal.failure in in_words(tmp_path / "run", reversal)  # what JUnit and SARIF say of it


@dataclass
class SecondReplayUnread:
    """A backend whose first execution is the recorded one and whose next ones cannot be read."""

    seed: Trace
    workers: int = 1
    calls: int = 0

    async def execute(self, plan: Sequence[str], variant: Variant = AS_RECORDED) -> Outcome:
        self.calls += 1
        if self.calls == 1:
            return Outcome(self.seed, StateSnapshot(dom="<html>\n</html>"))
        return Outcome(unread_execution().trace, StateSnapshot(dom=""))

    async def close(self) -> None:
        pass


@pytest.mark.browser
def test_a_seed_replay_whose_end_state_cannot_be_read_refuses_the_session_with_the_cause(driver, tmp_path) -> None:
    from webr4.serve import serve

    async def go(shared: Driver) -> None:
        session = await record(shared, base + "unreadable-end/", tmp_path / "session", [])
        await explore(SecondReplayUnread(session.seed_trace()), session, tmp_path / "run")

    with serve(PAGES) as base, pytest.raises(SeedNotReproducible) as refused:
        driver.run(go)
    assert str(refused.value).startswith(f"replaying the recording failed: {UNREAD}; ")


@pytest.mark.browser
def test_a_recording_whose_end_state_cannot_be_read_is_refused_with_the_cause(driver, tmp_path) -> None:
    from webr4.serve import serve

    async def go(shared: Driver) -> None:
        await record(shared, base + "hidden.html", tmp_path / "session", [])

    with serve(PAGES.parent.parent / "browser" / "pages" / "unreadable") as base, \
            pytest.raises(SessionError) as refused:
        driver.run(go)
    assert str(refused.value).startswith("the end state could not be read: reading the DOM failed: ")
    assert str(refused.value).endswith("; record the session again")
