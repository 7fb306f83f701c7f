"""The pipeline runs each plan once for what it must log: an execution that logged every access
serves a run that asks for fewer, never the other way round."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

from webr4.state.snapshot import StateSnapshot
from webr4.sweep.plan_execution import AS_RECORDED, Variant
from webr4.rundir.outcome import Outcome
from webr4.sweep.pipeline import Pipeline
from webr4.rundir.store import RunStore
from webr4.trace import Category, Event, Step, Trace

PAIR = Variant(logged_events=frozenset({"a", "b"}))
Run = tuple[tuple[str, ...], frozenset[str] | None]
"""A plan the backend ran, and the events it logged (None: every event)."""


class CountingBackend:
    """Runs every plan at once, noting what it was asked to log."""

    workers = 2

    def __init__(self) -> None:
        self.runs: list[Run] = []

    async def execute(self, plan: Sequence[str], variant: Variant = AS_RECORDED) -> Outcome:
        self.runs.append((tuple(plan), variant.logged_events))
        await asyncio.sleep(0)
        events = {e: Event(e, Category.TIMER, "timeout", e) for e in plan}
        return Outcome(Trace([Step(e, frozenset({e})) for e in plan], events), StateSnapshot(dom="", exceptions=[]))

    async def close(self) -> None:
        pass


def _runs(tmp_path: Path, asked: list[tuple[tuple[str, ...], Variant]],
          wanted: Sequence[tuple[tuple[str, ...], Variant]]) -> tuple[list[str], list[Run]]:
    """The keys the pipeline hands ``asked`` plans out under, having wished for ``wanted``, and
    what the backend ran."""
    backend = CountingBackend()

    async def go() -> list[str]:
        pipeline = Pipeline(backend, RunStore.create(tmp_path, {}))
        pipeline.want(wanted)
        keys = [(await pipeline.outcome(plan, variant=variant))[0] for plan, variant in asked]
        await pipeline.close()
        return keys

    return asyncio.run(go()), backend.runs


def test_a_run_logged_in_full_serves_one_that_asks_for_its_pair_alone(tmp_path):
    keys, runs = _runs(tmp_path, [(("a", "b"), PAIR)], [(("a", "b"), AS_RECORDED)])
    assert runs == [(("a", "b"), None)]
    assert len(set(keys)) == 1


def test_a_run_logged_for_a_pair_serves_neither_a_full_run_nor_another_pair(tmp_path):
    other = Variant(logged_events=frozenset({"a", "c"}))
    keys, runs = _runs(tmp_path, [(("a", "b"), PAIR), (("a", "b"), other), (("a", "b"), AS_RECORDED)],
                       [(("a", "b"), PAIR)])
    assert runs == [(("a", "b"), frozenset({"a", "b"})), (("a", "b"), frozenset({"a", "c"})), (("a", "b"), None)]
    assert len(set(keys)) == 3
