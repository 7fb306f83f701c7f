"""Runs a sweep's plans on a backend, each at most once, with every outcome kept in the store.

The sweep says which plans it wants, most wanted first (the one it waits for, then speculative
ones); the pipeline keeps the backend's workers busy with them. An outcome found in the store
(from before an interruption) or already computed is never run again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

from webr4.sweep.backends import Backend
from webr4.sweep.plan_execution import AS_RECORDED, Variant
from webr4.rundir.outcome import Outcome
from webr4.rundir.store import RunStore, execution_key
from webr4.trace import Trace

Plan = tuple[str, ...]


class Pipeline:
    def __init__(self, backend: Backend, store: RunStore) -> None:
        self._backend, self._store = backend, store
        self._running: dict[str, asyncio.Task[Outcome]] = {}
        self._wanted: list[tuple[str, Plan, Variant]] = []
        self._unclaimed: dict[str, Outcome] = {}  # finished here, not yet asked for by outcome()
        self._traces: dict[str, Trace] = {}  # every finished execution's trace, for speculation

    def want(self, plans: Sequence[tuple[Sequence[str], Variant]]) -> None:
        """Run these plans, each as its variant says, as workers come free, in this order; replaces
        the previous wish list."""
        wanted = []
        for plan, variant in plans:
            keys = _serving(plan, 0, variant)
            if not any(key in self._running or self._trace(key) is not None for key in keys):
                wanted.append((keys[-1], tuple(plan), variant))
        self._wanted = wanted
        self._fill()

    async def outcome(self, plan: Sequence[str], copy: int = 0, variant: Variant = AS_RECORDED) -> tuple[str, Outcome]:
        """The key and the outcome of ``plan`` (run as ``variant``; ``copy`` tells apart executions
        of one plan that are kept side by side): finished (here or before an interruption), awaited
        from its running execution, or run now; an execution that logged more than ``variant``
        asks for serves it too. Outcomes are handed out, not kept: the caller stores what it
        needs, so a long sweep does not hold every screenshot in memory."""
        keys = _serving(plan, copy, variant)
        for key in keys:
            task = self._running.get(key)
            if task is not None:
                await task
            known = self._unclaimed.pop(key, None) or self._store.outcome(key)
            if known is not None:
                return key, known
        await self._start(keys[-1], tuple(plan), variant)
        return keys[-1], self._unclaimed.pop(keys[-1])

    def trace(self, plan: Sequence[str]) -> Trace | None:
        """The trace of ``plan`` logged in full, if it has finished, without waiting."""
        return self._trace(execution_key(plan))

    async def close(self) -> None:
        """Abandon speculative executions still under way."""
        self._wanted = []
        for task in self._running.values():
            task.cancel()
        await asyncio.gather(*self._running.values(), return_exceptions=True)

    def _trace(self, key: str) -> Trace | None:
        if key not in self._traces:
            stored = self._store.trace(key)
            if stored is None:
                return None
            self._traces[key] = stored
        return self._traces[key]

    def _fill(self) -> None:
        while self._wanted and len(self._running) < self._backend.workers:
            key, plan, variant = self._wanted.pop(0)
            if key not in self._running and key not in self._traces:
                self._start(key, plan, variant)

    def _start(self, key: str, plan: Plan, variant: Variant = AS_RECORDED) -> asyncio.Task[Outcome]:
        task = asyncio.ensure_future(self._run(key, plan, variant))
        self._running[key] = task
        task.add_done_callback(lambda _: self._done(key))
        return task

    def _done(self, key: str) -> None:
        self._running.pop(key, None)
        self._fill()

    async def _run(self, key: str, plan: Plan, variant: Variant) -> Outcome:
        self._store.started(key, plan)
        started = time.monotonic()
        outcome = await self._backend.execute(plan, variant)
        self._store.finished(key, outcome, time.monotonic() - started)
        self._traces[key] = outcome.trace
        self._unclaimed[key] = outcome
        return outcome


def _serving(plan: Sequence[str], copy: int, variant: Variant) -> list[str]:
    """The keys of the executions that serve ``plan`` run as ``variant``, the one it runs as
    last: one that logged every access serves any run; one that logged some events' alone, a run
    that asks for those."""
    full = execution_key(plan, copy)
    return [full] if variant.logged_events is None else [full, execution_key(plan, copy, variant.logged_events)]
