"""A Dask cluster held open for other processes to share: ``deflake`` runs its tests side by
side, each in a process of its own, on one cluster.

:func:`hosted_cluster` opens a :class:`~webr4.sweep.backends.DaskConnection` (``local:N``
starts the cluster here) on an event loop of its own thread, so that the scheduler goes on
serving while the caller's thread waits on its processes, and closes it on leaving.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from webr4.sweep.backends import DaskConnection

_CLOSE_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class HostedCluster:
    """What another process needs of the cluster: its scheduler's ``address`` and how many
    ``workers`` it has."""

    address: str
    workers: int


@contextmanager
def hosted_cluster(address: str) -> Iterator[HostedCluster]:
    """The cluster at ``address`` (``tcp://HOST:PORT``, or ``local:N`` started until the block
    ends), checked as a sweep checks it (:class:`~webr4.sweep.backends.BackendError` when it
    cannot serve webr4)."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="webr4-cluster", daemon=True)
    thread.start()
    try:
        connection = asyncio.run_coroutine_threadsafe(DaskConnection.open(address), loop).result()
        try:
            yield HostedCluster(connection.address, connection.workers)
        finally:
            asyncio.run_coroutine_threadsafe(connection.close(), loop).result(timeout=_CLOSE_TIMEOUT_S)
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()
