"""One execution of a plan against a recorded session, reduced to what a sweep keeps of it: an
:class:`~webr4.rundir.outcome.Outcome`, the trace and the end state."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from playwright.async_api import Error as PlaywrightError

from webr4.browser.driver import Driver
from webr4.browser.teardown import BrowserGone
from webr4.execution import Execution
from webr4.rundir.outcome import Outcome
from webr4.state.categories import compared_state
from webr4.state.snapshot import StateSnapshot
from webr4.record.session import Session
from webr4.vocabulary import FAILED_RUNS, RETRIED_RUNS


@dataclass(frozen=True)
class Variant:
    """How a replay departs from the session on purpose: its random seed moved by ``seed_shift``
    and its virtual clock started ``clock_shift_ms`` later. Two replays of one plan that differ
    only so show which parts of the end state follow the clock and the random numbers. With
    ``logged_events``, only those events' steps carry the page's accesses (the runtime's own are
    always there): what a sequence whose strategy reads no other needs, at a fraction of the
    logging's cost."""

    seed_shift: int = 0
    clock_shift_ms: float = 0.0
    logged_events: frozenset[str] | None = None


AS_RECORDED = Variant()
UNLOGGED = Variant(logged_events=frozenset())
"""As recorded, with none of the page's accesses logged: a replay whose events and end state alone count."""
SHIFTED = Variant(seed_shift=1, clock_shift_ms=((400 * 24 + 1) * 3600 + 61) * 1000 + 1, logged_events=frozenset())
"""400 days, an hour, a minute, a second and a millisecond later, so that every field of a date
moves; unlogged."""


class BrowserLost(BrowserGone):
    """The browser, the Playwright driver or the worker process running an execution died (a
    signal, an out-of-memory kill). What the execution saw is not the page's doing, so it never
    becomes a verdict: the backend runs it again on a new browser, and raises this when that one
    is lost too, which stops the sweep as interrupted."""


async def run_plan(driver: Driver, session: Session, plan: Iterable[str], variant: Variant = AS_RECORDED) -> Execution:
    """One execution of ``plan`` (as ``variant``). A run the page lost (a renderer crash, a page
    that stopped answering, the run timeout, an end state that could not be read) is tried once
    more; a second loss is returned as it is, and a page that fails outright twice becomes a
    ``page-lost`` run. Raises :class:`BrowserLost`, without retrying, when the browser itself is
    gone afterwards."""
    for attempt in (1, 2):
        try:
            execution = await driver.execute(session.url, tuple(plan), actions=session.user_actions,
                                             store=session.network(), live_network=False, limits=session.run_limits,
                                             seed=session.seed + variant.seed_shift,
                                             clock_shift_ms=variant.clock_shift_ms,
                                             capture=replace(compared_state(), logged_events=variant.logged_events))
        except Exception as error:  # whatever failed once the browser was gone failed for that reason
            message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            if await driver.gone():
                raise BrowserLost("the browser died during an execution") from None
            if not isinstance(error, PlaywrightError):
                raise
            if attempt == 2:
                return Execution(Outcome.failure(f"the browser failed twice: {message}").trace, "")
            continue
        if (execution.trace.truncated in FAILED_RUNS or not execution.dom) and await driver.gone():
            raise BrowserLost("the browser died during an execution")
        if execution.trace.truncated not in RETRIED_RUNS or attempt == 2:
            return execution
    raise AssertionError("unreachable")


async def execute(driver: Driver, session: Session, plan: Iterable[str], variant: Variant = AS_RECORDED) -> Outcome:
    """Run ``plan`` in a fresh context of ``driver``'s browser and snapshot its end state."""
    execution = await run_plan(driver, session, plan, variant)
    return Outcome(execution.trace, StateSnapshot.from_execution(execution, execution.heap))
