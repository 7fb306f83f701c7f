"""Where a sweep's executions run: this process, worker processes, or a Dask cluster.

Every backend turns a plan into an :class:`~webr4.sweep.plan_execution.Outcome` and may run up to
:attr:`Backend.workers` plans at once. What goes wrong in the page — a renderer crash, a hang
past the session's run timeout — comes back as a failed outcome after one retry (classified
``error``). An execution lost to a dead browser, Playwright driver or worker process (a
signal, an out-of-memory kill) is not the page's doing: it runs once more on a new browser,
and when that one is lost too the backend raises
:class:`~webr4.sweep.plan_execution.BrowserLost`, which stops the sweep as interrupted; it never
becomes a verdict.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, Protocol

from webr4.browser.driver import Driver
from webr4.sweep.plan_execution import AS_RECORDED, BrowserLost, Variant, execute
from webr4.rundir.outcome import Outcome
from webr4.sweep.parent_death import bind_to_parent, signals_held
from webr4.record.session import Session
from webr4.sweep.workers import execute_packed, execute_plan, installed_version, pack_session, shipped
from webr4.version import __version__
from webr4.errors import Webr4Error

_MARGIN_S = 60.0  # beyond the session's own run timeout, before an execution counts as hung


class BackendError(Webr4Error):
    """A backend cannot start (one line naming the problem and what to do)."""


class Backend(Protocol):
    """Runs plans of one session (as recorded, or in a :class:`Variant`); ``workers`` of them at once."""

    workers: int

    async def execute(self, plan: Sequence[str], variant: Variant = AS_RECORDED) -> Outcome: ...

    async def close(self) -> None: ...


def _deadline(session: Session) -> float:
    return session.run_limits.wall_time_s(len(session.user_actions)) + _MARGIN_S


class InProcess:
    """Executions one at a time in a browser this process already drives; when that browser
    dies, in one this backend starts (and closes) itself."""

    workers = 1

    def __init__(self, driver: Driver, session: Session) -> None:
        self._driver, self._session = driver, session
        self._own: Driver | None = None  # the replacement for a browser that died
        self._lock = asyncio.Lock()

    async def execute(self, plan: Sequence[str], variant: Variant = AS_RECORDED) -> Outcome:
        async with self._lock:
            for attempt in (1, 2):
                driver = await self._live_driver()
                try:
                    async with asyncio.timeout(_deadline(self._session)):  # unlike wait_for, never loses a cancel
                        return await execute(driver, self._session, plan, variant)
                except TimeoutError:
                    return Outcome.failure(f"the execution did not end within {_deadline(self._session):.0f} s")
                except BrowserLost as lost:
                    if attempt == 2:
                        raise BrowserLost(f"{lost}, and again on a new browser") from None
        raise AssertionError("unreachable")

    async def _live_driver(self) -> Driver:
        if self._driver.connected:
            return self._driver
        await self.close()
        self._own = self._driver = await Driver().__aenter__()
        return self._driver

    async def close(self) -> None:
        """Close the browser this backend started, if any; the one it was given belongs to the
        caller, who closes it."""
        own, self._own = self._own, None
        if own is not None:
            await own.__aexit__(None, None, None)


class WorkerProcesses:
    """``workers`` processes, each with a browser of its own and a fresh context per execution."""

    def __init__(self, session: Session, workers: int) -> None:
        self.workers = workers
        self._session = session
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        # spawn, not fork: the parent holds threads and a Playwright connection of its own
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=bind_to_parent, initargs=(os.getpid(),))

    async def execute(self, plan: Sequence[str], variant: Variant = AS_RECORDED) -> Outcome:
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            pool = self._pool
            try:
                with signals_held():  # a worker it starts must not die of a signal before it leaves the group
                    call = loop.run_in_executor(pool, execute_plan, str(self._session.directory.resolve()),
                                                tuple(plan), variant)
                async with asyncio.timeout(_deadline(self._session)):
                    return await call
            except (BrokenProcessPool, TimeoutError) as error:
                if pool is self._pool:  # the first task to notice replaces the pool for everyone
                    self._restart(pool)
                if attempt == 2:
                    if isinstance(error, TimeoutError):
                        return Outcome.failure("the worker process hung twice running this plan")
                    raise BrowserLost("the worker process died running an execution, and again in a new "
                                      "worker") from None
        raise AssertionError("unreachable")

    def _restart(self, pool: ProcessPoolExecutor) -> None:
        for process in list(getattr(pool, "_processes", {}).values()):
            process.kill()
        pool.shutdown(wait=False, cancel_futures=True)
        self._pool = self._new_pool()

    async def close(self) -> None:
        await asyncio.get_running_loop().run_in_executor(None, self._pool.shutdown)


class DaskConnection:
    """A client of a Dask ``distributed`` cluster, which several sweeps may share (a campaign's
    entries run on one): each sweep takes a :class:`DaskCluster` backend of it with
    :meth:`backend`, and closing that backend leaves the connection open.

    The ``address`` :meth:`open` takes is ``tcp://HOST:PORT`` of a running scheduler, or ``local:N`` to start a local
    cluster of ``N`` single-threaded worker processes until :meth:`close`. A local cluster keeps
    its scratch files in a temporary directory of its own, removed by :meth:`close`.
    """

    def __init__(self, client: Any, cluster: Any, workers: int, scratch: Path | None = None) -> None:
        self.client, self._cluster, self._scratch = client, cluster, scratch
        self.workers = workers

    @classmethod
    async def open(cls, address: str) -> DaskConnection:
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError:
            raise BackendError("--cluster needs Dask: pip install 'webr4[cluster]'") from None
        cluster: Any = None  # a LocalCluster started asynchronously: its close() is awaitable
        scratch: Path | None = None
        try:
            if address.startswith("local:"):
                count = _local_workers(address)
                scratch = Path(tempfile.mkdtemp(prefix="webr4-dask-"))
                # its processes start with the signals held, and leave the process group before
                # taking them (localworkers.py): Ctrl-C is webr4's to act on, and it closes the cluster
                with dask.config.set({"temporary-directory": str(scratch)}), signals_held():
                    cluster = await LocalCluster(n_workers=count, threads_per_worker=1, processes=True,
                                                 dashboard_address=None, asynchronous=True,
                                                 local_directory=str(scratch))
                target: Any = cluster
            elif address.startswith(("tcp://", "tls://")):
                target = address
            else:
                raise BackendError(f"--cluster {address!r}: give tcp://HOST:PORT of a Dask scheduler or local:N")
            client = await Client(target, asynchronous=True, timeout="20s")
        except BaseException as error:
            if cluster is not None:
                await cluster.close()
            if scratch is not None:
                shutil.rmtree(scratch, ignore_errors=True)
            if isinstance(error, OSError):
                raise BackendError(f"cannot reach the Dask scheduler at {address}: {error}") from None
            raise
        connection = cls(client, cluster, 0, scratch)
        try:
            if cluster is not None:
                from webr4.sweep.localworkers import LocalWorker

                await client.register_plugin(LocalWorker())
            connection.workers = await _checked_workers(client, address)
        except BaseException:
            await connection.close()
            raise
        return connection

    @property
    def address(self) -> str:
        """The scheduler's address, which other processes may connect to (a local cluster's too)."""
        return str(self.client.scheduler.address)

    async def backend(self, session: Session, *, owned: bool = False) -> DaskCluster:
        """The backend that runs ``session``'s executions on this cluster; ``owned``: closing it
        closes this connection too (a connection for one sweep). Local workers read the session
        where it is; those of a remote cluster get it shipped once, packed, so they need not share
        a file system with this one. It is shipped as a task's result, not scattered: when the
        worker holding it dies, the scheduler runs the task again, where scattered data would be
        lost and every execution waiting for it cancelled."""
        if self._cluster is not None:
            return DaskCluster(self, execute_plan, str(session.directory.resolve()), owned)
        packed = self.client.submit(shipped, pack_session(session.directory), pure=True)
        return DaskCluster(self, execute_packed, packed, owned)

    async def close(self) -> None:
        try:
            await self.client.close()
            if self._cluster is not None:
                await self._cluster.close()
        finally:
            if self._scratch is not None:
                shutil.rmtree(self._scratch, ignore_errors=True)


class DaskCluster:
    """Executions of one session as tasks on a Dask cluster (a :class:`DaskConnection`); each
    worker process keeps a browser. Made by :meth:`connect`, it owns its connection and closes
    it; made by :meth:`DaskConnection.backend`, it leaves the connection to its owner."""

    def __init__(self, connection: DaskConnection, task: Callable[..., Outcome], session: Any,
                 owns_connection: bool = False) -> None:
        self._connection, self._task, self._session = connection, task, session
        self._owns_connection = owns_connection
        self.workers = connection.workers

    @classmethod
    async def connect(cls, address: str, session: Session) -> DaskCluster:
        """A connection to the cluster at ``address`` (see :class:`DaskConnection`), for this
        sweep alone."""
        connection = await DaskConnection.open(address)
        try:
            return await connection.backend(session, owned=True)
        except BaseException:
            await connection.close()
            raise

    async def execute(self, plan: Sequence[str], variant: Variant = AS_RECORDED) -> Outcome:
        from distributed import KilledWorker

        for attempt in (1, 2):
            try:
                return await self._connection.client.submit(self._task, self._session, tuple(plan), variant,
                                                            pure=False)
            except KilledWorker:
                if attempt == 2:
                    raise BrowserLost("the Dask worker running an execution died, and again on another "
                                      "worker") from None
        raise AssertionError("unreachable")

    async def close(self) -> None:
        if self._owns_connection:
            await self._connection.close()


async def _checked_workers(client: Any, address: str) -> int:
    """How many workers the cluster has, once one has joined and every one runs this webr4
    (:class:`BackendError` otherwise: a worker without it, or with another version, would fail
    every execution or judge them by other rules)."""
    try:
        await client.wait_for_workers(1, timeout="60s")
    except TimeoutError:
        raise BackendError(f"no Dask worker joined the scheduler at {address} within 60 s; start workers, "
                           "or check that they reach it") from None
    try:
        versions: dict[str, str] = await client.run(installed_version)
    except Exception as error:  # what failed on a worker, raised here: most often webr4 missing there
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise BackendError(f"the Dask workers at {address} cannot run webr4 {__version__} ({reason}); install "
                           f"webr4[cluster] {__version__} where they run") from None
    other = sorted(set(versions.values()) - {__version__})
    if other:
        raise BackendError(f"the Dask workers at {address} run webr4 {', '.join(other)}, this machine "
                           f"{__version__}; install the same version on both")
    return len(versions)


def _local_workers(address: str) -> int:
    count = address.removeprefix("local:")
    if not count.isdigit() or int(count) < 1:
        raise BackendError(f"--cluster {address!r}: local:N needs a worker count N ≥ 1")
    return int(count)
