"""Holding back the locations one event alone touches changes no answer: the check on real apps.

The page holds back each variable and property an event touched until another event touches it,
and never ships the rest (``instrument_js/access_log/holding.js``). This module
states what must not change — :func:`answers`: the races, uncovered races and each filter's
decisions, the conflicting locations of every pair of events, the racing objects to name, and
what the classifier's rules read of each step's writes — and checks it on the real-app corpus:

``python -m benchmarks.profiling.held_accesses [APP ...]`` (default: react, emberjs, angularjs, jquery)
records each app's session, replays the seed from the recording with the full access log and as
webr4 runs, compares their answers, and prints per app the accesses and trace size of the full
log's summary without unshared reads (what webr4 kept before holding back) and of the trace it
keeps now. Two replays agree up to a native event's timing, which a loaded machine can move,
so an app gets up to :data:`ATTEMPTS` pairs of replays (a wrong trace differs every time); exit
status 1 when an app's answers differ in all of them.

The racing objects to name are compared with those of the full log's locations that two or more
steps touch: naming takes the objects two events touch, one writing, whichever locations
(:func:`webr4.browser.naming.racing_ids`), so leaving out the locations one step alone touches
names fewer objects than the full log, only those whose locations can take part in no race.

Finding: docs/concepts/control.md (the accesses the page holds back); ``tests/engine/test_summary.py``
and ``tests/browser/test_access_summary.py`` check :func:`answers` on small pages in every run.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from pathlib import Path

from benchmarks.corpora import served_apps
from webr4.access_summary import summarise, without_unshared_reads
from webr4.browser.driver import Driver
from webr4.browser.naming import racing_ids
from webr4.classify.rules import FOCUS_LOCATION, step_writes
from webr4.engine.describe import conflict_locations
from webr4.engine.filters import ALL_FILTERS, DEFAULT_FILTERS
from webr4.engine.races import find_races
from webr4.execution import AccessLog, Capture
from webr4.record.session import Session, record
from webr4.trace import Trace

DEFAULT_APPS = ("react", "emberjs", "angularjs", "jquery")
ATTEMPTS = 3
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")


def written_names(writes: list[str]) -> frozenset[str]:
    """The identifiers the initialisation rule finds among ``writes``: every ``name`` for which
    :func:`webr4.classify.rules.wrote_name` holds, a JavaScript identifier (what a "not defined"
    message names)."""
    suffixes = (location[i + 1:] for location in writes for i, c in enumerate(location) if c in ".:")
    return frozenset(name for name in suffixes if _IDENTIFIER.fullmatch(name))


def answers(trace: Trace) -> dict[str, object]:
    """Everything downstream computes from a trace's accesses, but the sleep sets' footprints."""
    found: dict[str, object] = {}
    for name, filters in [("none", ()), ("default", DEFAULT_FILTERS), *((f.name, (f,)) for f in ALL_FILTERS)]:
        analysis = find_races(trace, filters=filters)
        found[name] = (analysis.races, analysis.uncovered, analysis.race_count)
    touching: dict[str, set[str]] = defaultdict(set)
    for step in trace.steps:
        for access in step.accesses:
            touching[access.location].add(step.event)
    pairs = {(a, b) for events in touching.values() for a in events for b in events if a != b}
    conflicts = {pair: conflict_locations(trace, *pair) for pair in sorted(pairs)}
    found["conflicts"] = {pair: where for pair, where in conflicts.items() if where}
    found["names"] = racing_ids(trace)
    rules = {}
    for step in trace.steps:
        writes = step_writes(trace, step.event) or []
        rules[step.event] = (any(w != FOCUS_LOCATION for w in writes), written_names(writes))
    found["rules"] = rules
    return found


def shared_only(trace: Trace) -> Trace:
    """``trace`` with only the accesses to locations that two or more of its steps touch."""
    touching = Counter(location for step in trace.steps for location in {a.location for a in step.accesses})
    return replace(trace, steps=[replace(s, accesses=tuple(a for a in s.accesses if touching[a.location] > 1))
                                 for s in trace.steps])


def as_before(full: Trace) -> Trace:
    """What webr4 kept of ``full`` before holding back: summaries without unshared reads."""
    return without_unshared_reads(replace(full, steps=[replace(s, accesses=summarise(s.accesses)) for s in full.steps]))


@dataclass(frozen=True)
class Comparison:
    app: str
    same: bool
    differing: tuple[str, ...]  # the answers that differ in the last attempt
    attempts: int
    before_accesses: int
    before_mb: float
    held_accesses: int
    held_mb: float


def differing_answers(full: Trace, held: Trace) -> tuple[str, ...]:
    """The answers of ``held`` (as webr4 runs) that are not those of ``full`` (the full log of
    the same sequence); racing names against :func:`shared_only` (see the module docstring)."""
    if held.sequence != full.sequence:
        return ("sequence",)
    mine, theirs = answers(held), answers(full)
    theirs["names"] = racing_ids(shared_only(full))
    return tuple(key for key in theirs if mine[key] != theirs[key])


def compare(app: str, full: Trace, held: Trace, attempts: int) -> Comparison:
    """``held`` against ``full`` (see :func:`differing_answers`), and what each keeps."""
    before = as_before(full)
    differing = differing_answers(full, held)
    return Comparison(app, not differing, differing, attempts, sum(len(s.accesses) for s in before.steps),
                      len(before.dumps()) / 1e6, sum(len(s.accesses) for s in held.steps), len(held.dumps()) / 1e6)


async def replay(driver: Driver, session: Session, *, full: bool) -> Trace:
    """The seed of ``session`` replayed from its recording, with the full access log or as webr4 runs."""
    execution = await driver.execute(session.url, tuple(session.seed_trace().sequence), actions=session.user_actions,
                                     store=session.network(), live_network=False, limits=session.run_limits,
                                     seed=session.seed,
                                     capture=Capture(accesses=AccessLog.FULL if full else AccessLog.SUMMARY))
    return execution.trace


async def check(names: list[str]) -> list[Comparison]:
    results = []
    with served_apps("webr4-held-") as (corpus, base, scratch):
        async with Driver() as driver:
            for app in [app for name in names for app in corpus.apps if app.name == name]:
                print(f"held_accesses: {app.name} ...", file=sys.stderr, flush=True)
                session = await record(driver, f"{base}{app.name}/", Path(scratch) / app.name, corpus.session)
                for attempt in range(1, ATTEMPTS + 1):
                    full, held = await replay(driver, session, full=True), await replay(driver, session, full=False)
                    result = compare(app.name, full, held, attempt)
                    if result.same:
                        break
                results.append(result)
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.profiling.held_accesses",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("apps", nargs="*", default=list(DEFAULT_APPS), help="apps of the corpus")
    args = parser.parse_args(argv)
    results = asyncio.run(check(args.apps))
    print("| app | same answers | pairs of replays | accesses before | trace MB before | accesses held "
          "| trace MB held |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for r in results:
        same = "yes" if r.same else "no: " + ", ".join(r.differing)
        print(f"| {r.app} | {same} | {r.attempts} | {r.before_accesses} | {r.before_mb:.2f} | {r.held_accesses} "
              f"| {r.held_mb:.2f} |")
    sys.exit(0 if all(r.same for r in results) else 1)


if __name__ == "__main__":
    main()
