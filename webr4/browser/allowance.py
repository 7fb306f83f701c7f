"""An event's time allowance: the wall time the page's work may take, not counting webr4's own.

An event may run for ``--event-timeout`` seconds. While it runs, webr4 may have to prepare what
the page asked for (rewrite a script that just arrived, chunk a document); on a large script and
a busy machine that alone can take longer than the allowance, and the page would be blamed for a
hang that was the harness's. :func:`wait_within` gives the work its allowance plus every second the
harness reports spending meanwhile, and :class:`HarnessTime` keeps that running total.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import TypeVar

T = TypeVar("T")


async def wait_within(work: Awaitable[T], seconds: float, harness_seconds: Callable[[], float]) -> T:
    """Await ``work`` for ``seconds`` of wall time plus the growth of ``harness_seconds()`` (a
    running total of the time the harness spent on the page's behalf) while it ran.

    Raises :class:`asyncio.TimeoutError` when the allowance runs out first; ``work`` is then
    cancelled and waited for, as :func:`asyncio.wait_for` does.
    """
    task = asyncio.ensure_future(work)
    counted = harness_seconds()
    remaining = seconds
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=remaining)
            if done:
                return task.result()
            spent = harness_seconds()
            if spent <= counted:
                raise asyncio.TimeoutError
            remaining, counted = spent - counted, spent
    finally:
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


class HarnessTime:
    """The wall time the harness has spent on the page's behalf, work still under way included.

    Work that awaits (a script rewritten in a worker process) is counted from its start, so that
    an allowance checked while it runs already sees it. Work running at the same time is counted once
    per piece: an allowance may be extended more than the page waited, never less. That holds for
    work done ahead of need too (a held script made ready before the page may run it): it takes
    the machine from whatever event runs meanwhile.
    """

    def __init__(self) -> None:
        self._finished_s = 0.0
        self._started: dict[int, float] = {}
        self._next = 0
        self._awaited = 0  # pieces under way that :meth:`quiet` waits for
        self._quiet = asyncio.Event()
        self._quiet.set()

    @property
    def seconds(self) -> float:
        now = time.perf_counter()
        return self._finished_s + sum(now - started for started in self._started.values())

    @contextlib.contextmanager
    def counting(self, *, ahead: bool = False) -> Iterator[None]:
        """Count the time the block takes. ``ahead`` marks work done before the page needs it,
        which :meth:`quiet` does not wait for."""
        token, self._next = self._next, self._next + 1
        self._started[token] = time.perf_counter()
        if not ahead:
            self._awaited += 1
            self._quiet.clear()
        try:
            yield
        finally:
            self._finished_s += time.perf_counter() - self._started.pop(token)
            if not ahead:
                self._awaited -= 1
                if not self._awaited:
                    self._quiet.set()

    async def quiet(self) -> None:
        """Return once no counted work is under way but work done ahead of need."""
        await self._quiet.wait()
