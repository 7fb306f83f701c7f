"""The worker side of a sweep: a browser owned by one process, driven from synchronous calls.

Worker processes (``--workers N``) and Dask workers (``--cluster``) call :func:`execute_plan`
or :func:`execute_packed`; the first call in a process starts an asyncio loop on a thread of its
own and a :class:`~webr4.browser.driver.Driver` on it, later calls reuse both. A browser that
died is started again and the execution it was running is run once more on the new one
(:class:`~webr4.sweep.plan_execution.BrowserLost` when that one dies too).
"""

from __future__ import annotations

import asyncio
import atexit
import hashlib
import io
import shutil
import tarfile
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path

from webr4.browser.driver import Driver
from webr4.browser.teardown import quiet_lost_browser
from webr4.sweep.plan_execution import AS_RECORDED, BrowserLost, Variant, execute
from webr4.rundir.outcome import Outcome
from webr4.record.session import Session
from webr4.version import __version__


class BrowserHost:
    """One process's browser, usable from any thread of that process."""

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        quiet_lost_browser(self._loop)
        self._thread = threading.Thread(target=self._loop.run_forever, name="webr4-browser", daemon=True)
        self._thread.start()
        self._driver: Driver | None = None
        self._sessions: dict[Path, Session] = {}
        self._lock = threading.Lock()

    def execute(self, session_dir: Path, plan: Sequence[str], variant: Variant = AS_RECORDED) -> Outcome:
        """Run ``plan`` against the session in ``session_dir`` (one execution at a time)."""
        with self._lock:
            return asyncio.run_coroutine_threadsafe(self._execute(session_dir, plan, variant), self._loop).result()

    async def _execute(self, session_dir: Path, plan: Sequence[str], variant: Variant) -> Outcome:
        session = self._sessions.get(session_dir)
        if session is None:
            session = self._sessions[session_dir] = Session.load(session_dir)
        for attempt in (1, 2):
            driver = await self._live_driver()
            try:
                return await execute(driver, session, plan, variant)
            except BrowserLost as lost:
                if attempt == 2:
                    raise BrowserLost(f"{lost}, and again on a new browser") from None
        raise AssertionError("unreachable")

    async def _live_driver(self) -> Driver:
        if self._driver is not None and not self._driver.connected:
            await self._stop()
        if self._driver is None:
            driver = Driver()
            await driver.__aenter__()
            self._driver = driver
        return self._driver

    async def _stop(self) -> None:
        driver, self._driver = self._driver, None
        if driver is not None:
            try:
                await driver.__aexit__(None, None, None)
            except Exception:  # a browser that already died cannot be closed cleanly; it is gone anyway
                pass

    def close(self) -> None:
        if self._thread.is_alive():
            asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(timeout=30)
            self._loop.call_soon_threadsafe(self._loop.stop)


_host: BrowserHost | None = None
_host_lock = threading.Lock()


def _process_host() -> BrowserHost:
    global _host
    with _host_lock:
        if _host is None:
            _host = BrowserHost()
            atexit.register(_host.close)
        return _host


def execute_plan(session_dir: str, plan: Sequence[str], variant: Variant = AS_RECORDED) -> Outcome:
    """Execute ``plan`` in this process's browser (the task a worker process runs)."""
    return _process_host().execute(Path(session_dir), plan, variant)


def installed_version() -> str:
    """The version of webr4 this process runs (each Dask worker is asked before a sweep)."""
    return __version__


def pack_session(directory: Path) -> bytes:
    """The session directory as one gzipped tar, to ship to machines that do not share files."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        archive.add(directory, arcname="session")
    return buffer.getvalue()


def shipped(packed: bytes) -> bytes:
    """``packed`` itself, as the result of a task: a session's copy on a cluster that the scheduler
    can make again (from the task, which holds it) when the worker keeping it dies."""
    return packed


_unpacked: dict[str, Path] = {}


def execute_packed(packed: bytes, plan: Sequence[str], variant: Variant = AS_RECORDED) -> Outcome:
    """Execute ``plan`` against a session shipped by :func:`pack_session` (the cluster task).

    Each distinct session is unpacked once per process, into a temporary directory that goes
    when the process exits.
    """
    digest = hashlib.sha256(packed).hexdigest()
    with _host_lock:
        directory = _unpacked.get(digest)
        if directory is None:
            target = Path(tempfile.mkdtemp(prefix="webr4-session-"))
            atexit.register(shutil.rmtree, target, True)
            with tarfile.open(fileobj=io.BytesIO(packed), mode="r:gz") as archive:
                archive.extractall(target, filter="data")
            directory = _unpacked[digest] = target / "session"
    return _process_host().execute(directory, plan, variant)
