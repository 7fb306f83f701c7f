"""One test under ``deflake``: recorded, explored, judged by itself, diagnosed and fixed.

:func:`deflake_test` is the whole of it for one pytest test function; the pytest plugin calls it
with the test's function, its fixtures' values and a way to open a fresh plain page, and writes
what it returns into the run (:mod:`webr4.deflake.results`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webr4.browser.actions import PAGE_ASSERTION
from webr4.deflake.adversary import DELAY_MS, run_slowed
from webr4.deflake.diagnosis import FailingOrder, diagnose, seed_outcome
from webr4.deflake.fixes import Fix, NoFix, load_before_action, wait_before_read, wait_for_response, wait_for_state
from webr4.deflake.fixtures import given
from webr4.deflake.offthread import run_off_thread
from webr4.deflake.oracle import Outcome, outcome
from webr4.deflake.recorder import assertions_written_down
from webr4.deflake.testlog import TestCall, TestLog
from webr4.errors import Webr4Error
from webr4.trace import Trace

MAX_FIX_ROUNDS = 4
"""How many changes a fix may combine: one per read or action that raced."""


class TestFailsAlone(Webr4Error):
    """The test fails on a fast, plain run: deflake looks for orders that fail a passing test."""

    __test__ = False  # not a pytest test class, whatever its name


@dataclass
class Explored:
    """A test's flow recorded and explored: its steps and calls, the run directory, and the orders
    it fails in."""

    url: str
    steps: list[dict[str, Any]]
    calls: list[TestCall]
    run_dir: Path
    sequences: int
    failing: list[FailingOrder] = field(default_factory=list)


@dataclass
class TestUnderDeflake:
    """A pytest test as deflake runs it: ``function`` called with ``arguments`` (its fixtures'
    values; ``page`` is replaced), the path of its file, a way to open a fresh plain page; its
    sweeps' ``bound`` and ``budget``, and where their executions run (``workers`` processes, or
    the Dask ``cluster``)."""

    __test__ = False  # not a pytest test class, whatever its name

    nodeid: str
    function: Callable[..., Any]
    arguments: dict[str, Any]
    path: Path
    new_page: Callable[[], Any]
    page: Any
    root: Path
    bound: int = 1
    budget: float | None = None
    workers: int = 1
    cluster: str | None = None

    @property
    def source(self) -> str:
        return str(self.path)

    @property
    def relative_path(self) -> str:
        """The test file's path as a diff names it: relative to the root directory when inside it."""
        try:
            return str(self.path.resolve().relative_to(self.root.resolve()))
        except ValueError:
            return str(self.path)


def _unwrap(actual: Any) -> tuple[Any, str | None, TestLog] | None:
    """The real locator, selector and log behind a recording locator of :mod:`webr4.record.scripted`."""
    from webr4.record.scripted import RecordingLocator, RecordingPage

    recording = getattr(actual, "_recording", None)
    if type(recording) is RecordingLocator and isinstance(recording._log, TestLog):
        return recording._target, recording._selector, recording._log
    if type(recording) is RecordingPage and isinstance(recording._log, TestLog):
        return recording._target, PAGE_ASSERTION, recording._log
    return None


def record_test(test: TestUnderDeflake, function: Callable[..., Any], page: Any) -> tuple[str, TestLog]:
    """Run ``function`` once on ``page``, writing down its flow; the URL its session starts from and
    the log. :class:`TestFailsAlone` when it fails."""
    from playwright.sync_api import Error as PlaywrightError

    from webr4.deflake.oracle import failing_line, message_of
    from webr4.record.testpage import SeedPage

    log = TestLog(test.path)
    seed = SeedPage.open(page, None, log)
    try:
        with assertions_written_down(_unwrap):
            function(**given(test.arguments, seed))
    except (AssertionError, PlaywrightError) as failure:
        raise TestFailsAlone(f"{test.nodeid} fails without any slow response (line "
                             f"{failing_line(failure, test.source)}: {message_of(failure)}); deflake explores "
                             "tests that pass") from None
    if seed.seed_url is None:
        raise TestFailsAlone(f"{test.nodeid} never opened a page with page.goto")
    if log.unfollowed:
        raise Webr4Error(f"deflake does not follow {', '.join(dict.fromkeys(log.unfollowed))} in {test.nodeid} "
                         "yet: webr4 could not replay what it does to the page")
    return seed.seed_url, log


def _sweep(url: str, steps: list[dict[str, Any]], run_dir: Path, test: TestUnderDeflake) -> int:
    """Record and explore the session of ``test``; the number of explored sequences. On a thread of
    its own: the test's synchronous Playwright holds an event loop on this one."""
    from webr4.checking import SweepOptions, check
    from webr4.report.ci import unfinished_reason
    from webr4.sweep.settings import SweepSettings

    # every order runs: the test judges them, not the verdicts a group's first would stand on
    options = SweepOptions(SweepSettings(bound=test.bound, budget=test.budget, exhaustive=True), confirm="none",
                           workers=test.workers, cluster=test.cluster)
    checked = run_off_thread(lambda: check(url, run_dir, steps, options=options), "webr4-deflake")
    unfinished = unfinished_reason(run_dir, checked.summary)
    if unfinished:
        raise Webr4Error(unfinished)
    return checked.summary.sequences


def explore_test(test: TestUnderDeflake, function: Callable[..., Any], page: Any, run_dir: Path) -> Explored:
    """Record ``function`` on ``page``, explore its flow into ``run_dir`` and judge every order by it."""
    import shutil

    url, log = record_test(test, function, page)
    shutil.rmtree(run_dir, ignore_errors=True)
    sequences = _sweep(url, log.steps, run_dir, test)
    explored = Explored(url, log.steps, log.calls, run_dir, sequences)

    def judge(trace: Trace) -> Outcome:
        return outcome(function, test.arguments, test.source, log.calls, log.steps, trace)

    seed = seed_outcome(run_dir, judge)
    if not seed.passed:
        raise Webr4Error(f"deflake cannot follow {test.nodeid}: run again against its own recording it "
                         f"{'takes another path' if seed.diverged else 'fails'} (line {seed.line}: {seed.message}); "
                         "it may use a page, locator or call that deflake does not follow yet")
    explored.failing = diagnose(run_dir, log.calls, log.steps, judge)
    return explored


def patched_function(test: TestUnderDeflake, source: str) -> Callable[..., Any]:
    """The test function as ``source`` (its file, changed) defines it, with the module's globals."""
    module_globals = dict(test.function.__globals__)
    exec(compile(source, test.source, "exec"), module_globals)  # the user's own test, as the fix changes it
    function = module_globals.get(test.function.__name__)
    if not callable(function):
        raise NoFix(f"the changed file no longer defines {test.function.__name__}")
    return function


@dataclass
class Repair:
    """What deflake offers for a test: the fix (None: none could be made), whether exploring the
    fixed test found no failing order, and why not when it did, or no fix was made."""

    fix: Fix | None
    explored_clean: bool
    why: str
    rounds: list[Explored] = field(default_factory=list)


def propose(test: TestUnderDeflake, source: str, explored: Explored) -> Fix:
    """The change for the first failing order of ``explored`` that the test's side can make."""
    reasons = []
    # an early action first: waiting before it often puts every later read in order too
    for order in sorted(explored.failing, key=lambda o: o.test_call is None or o.test_call.kind != "action"):
        try:
            if order.test_call is not None and order.test_call.kind == "read":
                return wait_before_read(test.relative_path, source, explored.calls, order.test_call)
            if order.test_call is not None and order.test_call.kind == "action" and order.loads_page:
                return load_before_action(test.relative_path, source, order.first_moved or order.test_call,
                                          order.load_state)
            if order.test_call is not None and order.test_call.kind == "action" and order.awaited is not None:
                return wait_for_state(test.relative_path, source, explored.calls, order.first_moved or order.test_call,
                                      order.awaited, order.event_words)
            moved_early = order.test_call is None or order.test_call.kind == "action"
            if moved_early and order.trigger is not None and order.slow_url is not None:
                # the response the test's action, or the page's other event, needed first: waited
                # for where it is started (a stopgap when two of the page's own events race)
                return wait_for_response(test.relative_path, source, explored.calls, order.trigger,
                                         order.slow_url)
            reasons.append(order.no_fix_reason)
        except NoFix as no_fix:
            reasons.append(str(no_fix))
    raise NoFix("; ".join(dict.fromkeys(reasons)) or "no order the test's side can wait for")


def repair(test: TestUnderDeflake, original: Explored) -> Repair:
    """Change the test until exploring it finds no failing order (at most :data:`MAX_FIX_ROUNDS`
    changes), each change made for a failing order of the last exploration."""
    source = test.path.read_text(encoding="utf-8")
    first_source, explored = source, original
    rounds: list[Explored] = []
    fix: Fix | None = None
    for number in range(1, MAX_FIX_ROUNDS + 1):
        try:
            change = propose(test, source, explored)
        except NoFix as no_fix:
            return Repair(fix, False, str(no_fix), rounds)
        source = change.after
        fix = Fix(change.path, first_source, source, change.summary if fix is None else f"{fix.summary}; "
                                                                                        f"{change.summary}")
        try:
            explored = explore_test(test, patched_function(test, source), test.new_page(),
                                    original.run_dir / "fix" / str(number))
        except Webr4Error as refused:  # the changed test fails on its own, or cannot be followed
            return Repair(fix, False, f"the changed test cannot be proven: {refused}", rounds)
        rounds.append(explored)
        if not explored.failing:
            return Repair(fix, True, "", rounds)
    return Repair(fix, False, f"the test still fails in {len(explored.failing)} order(s) after "
                              f"{MAX_FIX_ROUNDS} changes", rounds)


@dataclass
class Proof:
    """Plain Chromium's word on one slowed response: how the original test ended and, when there
    is a fix, how the fixed one did."""

    url: str | None
    original: Any
    fixed: Any = None
    delay_ms: float = DELAY_MS

    @property
    def status(self) -> str:
        """``confirmed`` (the original fails under the slow response), ``not-reproduced`` (it
        passes), ``not-forceable`` (the racing event has no response to slow down)."""
        if self.url is None:
            return "not-forceable"
        return "not-reproduced" if self.original.passed else "confirmed"


def prove(test: TestUnderDeflake, order: FailingOrder, fixed: Callable[..., Any] | None) -> Proof:
    """Run the original test, and the fixed one, in plain Chromium with ``order``'s racing response slow."""
    if order.slow_url is None:
        return Proof(None, None)
    original = run_slowed(test.function, test.arguments, test.source, test.new_page, order.slow_url, order.delay_ms)
    proof = Proof(order.slow_url, original, delay_ms=order.delay_ms)
    if fixed is not None:
        proof.fixed = run_slowed(fixed, test.arguments, test.source, test.new_page, order.slow_url, order.delay_ms)
    return proof


def _outcome_json(outcome: Any) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {"passed": outcome.passed, "line": outcome.line, "message": outcome.message}


def _order_json(test: TestUnderDeflake, order: FailingOrder, proof: Proof, fix: dict[str, Any]) -> dict[str, Any]:
    return {
        "test": test.nodeid, "line": order.outcome.line, "message": order.outcome.message,
        "racing": order.racing(), "fault": order.fault, "reversal": order.reversal.index,
        "parent": order.reversal.parent,
        "confirmation": {"status": proof.status, "url": proof.url,
                         "delay_ms": round(proof.delay_ms) if proof.url else None,
                         "original": _outcome_json(proof.original), "fixed": _outcome_json(proof.fixed)},
        "fix": fix,
    }


def deflake_test(test: TestUnderDeflake, run_dir: Path) -> dict[str, Any]:
    """Everything deflake finds for ``test``, as its entry of ``summary.json``
    (:mod:`webr4.deflake.results`); raises :class:`TestFailsAlone` when it fails on its own."""
    from webr4.deflake.fixes import as_json

    explored = explore_test(test, test.function, test.page, run_dir)
    entry: dict[str, Any] = {"test": test.nodeid, "status": "flaky" if explored.failing else "stable",
                             "message": None, "run": str(Path("tests") / run_dir.name),
                             "sequences": explored.sequences, "flaky": [], "fix": None}
    if not explored.failing:
        return entry
    fixed_repair = repair(test, explored)
    fixed = patched_function(test, fixed_repair.fix.after) if fixed_repair.fix is not None else None
    proofs = [prove(test, order, fixed) for order in explored.failing]
    verified = fixed_repair.explored_clean and any(p.status == "confirmed" for p in proofs) and all(
        p.fixed is None or p.fixed.passed for p in proofs)
    why = "" if verified else fixed_repair.why or _unproven(proofs)
    fix = as_json(fixed_repair.fix, verified, why)
    if fixed_repair.fix is not None:
        fix["file"] = str(test.path.resolve())
        fix["before_sha256"] = hashlib.sha256(fixed_repair.fix.before.encode("utf-8")).hexdigest()
        fixed_copy = run_dir / "fixed" / test.path.name
        fixed_copy.parent.mkdir(parents=True, exist_ok=True)
        fixed_copy.write_text(fixed_repair.fix.after, encoding="utf-8")
        fix["fixed"] = str(fixed_copy.relative_to(run_dir.parent.parent))
    entry["fix"] = fix
    entry["flaky"] = [_order_json(test, order, proof, fix) for order, proof in zip(explored.failing, proofs)]
    app_order = next((n for n, order in enumerate(explored.failing) if order.fault == "app"), None)
    if app_order is not None:  # the app must be fixed: a test of the race that passes once it is
        entry["flaky"][app_order]["regression"] = regression_tests(test, explored.failing[app_order], run_dir)
    return entry


def regression_tests(test: TestUnderDeflake, order: FailingOrder, run_dir: Path) -> dict[str, str]:
    """The race behind ``order`` as tests against the live app, for pytest and Playwright Test, in
    ``run_dir/regression/`` (:mod:`webr4.sweep.regression`): ``pytest`` and ``playwright_test``,
    relative to the deflake run, or ``why`` there are none."""
    from playwright.async_api import Error as PlaywrightError

    from webr4.sweep.regression import Keep, WitnessError, export_witness

    name = test.function.__name__.removeprefix("test_")
    keep = Keep(pytest=run_dir / "regression" / f"test_{name}_race.py",
                playwright_test=run_dir / "regression" / f"{name}-race.spec.ts")
    try:
        written = run_off_thread(lambda: export_witness(run_dir, order.reversal.index, keep), "webr4-regression")
    except (WitnessError, PlaywrightError) as error:
        return {"why": str(error).splitlines()[0]}
    top = run_dir.parent.parent
    return {"pytest": str(written[0].relative_to(top)), "playwright_test": str(written[1].relative_to(top))}


def _unproven(proofs: list[Proof]) -> str:
    """Why plain Chromium did not prove a fix that exploring found clean."""
    if not any(p.status == "confirmed" for p in proofs):
        return "no slow response made the original test fail in plain Chromium, so the fix is not proven there"
    failed = next(p for p in proofs if p.fixed is not None and not p.fixed.passed)
    return f"the fixed test still fails in plain Chromium when {failed.url} is slow: {failed.fixed.message}"
