"""Running webr4's asynchronous work from a test's synchronous Playwright, which holds an event
loop on the test's thread: the work gets a loop on a thread of its own.

An interrupt (SIGINT, SIGTERM) reaches the test's thread only. :func:`run_off_thread` then cancels
the work on its thread, waits for it to let go of what it holds (its browsers closed, its files
written) and raises the interrupt on, so that pytest stops at once rather than once the sweep has
run to its end.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_off_thread(work: Callable[[], Coroutine[Any, Any, T]], name: str) -> T:
    """What ``work()`` returns, run in a new event loop on a thread called ``name``; what it
    raises, raised here. ``KeyboardInterrupt`` here cancels it there first."""
    stop = threading.Event()
    running: list[tuple[asyncio.AbstractEventLoop, asyncio.Task[Any]]] = []

    async def cancellable() -> T:
        task = asyncio.current_task()
        assert task is not None
        running.append((asyncio.get_running_loop(), task))
        if stop.is_set():  # interrupted before this thread could be told
            raise asyncio.CancelledError
        return await work()

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix=name) as pool:
        done = pool.submit(lambda: asyncio.run(cancellable()))
        try:
            return done.result()
        except KeyboardInterrupt:
            stop.set()
            for loop, task in running:
                loop.call_soon_threadsafe(task.cancel)
            raise  # leaving the pool waits for the cancelled work to end
