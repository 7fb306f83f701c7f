"""Rewriting scripts in worker processes, so that the harness's event loop stays free meanwhile.

A rewrite is pure Python work of up to a second on a large library. Done on the event loop, it
stops everything else the harness does for the page: releasing parse chunks, answering other
requests, reading the page's step reports. :func:`rewrite_elsewhere` runs it in a worker process
instead, where it also overlaps with Chromium running the scripts that came before, and with the
rewrite of another script on a second core.

The workers are plain child processes (running :func:`serve`) that read jobs from their
standard input and answer on their standard output, each message a pickle preceded by its
length. Unlike :mod:`multiprocessing`, that never imports the program's main module again in the
child, nor forks a process that runs threads. At most :data:`WORKERS` run per process, started
by :func:`warm_up` ahead of need or else by the first rewrite; they end when this process closes
their input (at exit, or when it dies). Where no worker can be started, or one fails, the
rewrite runs in this process, with the same result.

When more scripts wait than there are workers, the longest source goes first: the page usually
needs all of them before it goes on (a parse chunk waits for every script under way), and
starting the longest rewrite first ends the whole batch soonest.
"""

from __future__ import annotations

import asyncio
import atexit
import heapq
import itertools
import os
import pickle
import queue
import struct
import subprocess
import sys
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any

from webr4.errors import Webr4Error
from webr4.instrument.rewrite import RewriteResult, rewrite

WORKERS = max(1, min(2, os.cpu_count() or 1))
"""Worker processes: two lets one large script be rewritten while the next one is; more would
only compete with Chromium and the harness for the same cores."""

Job = tuple[str, str, str, bool, bool]
"""The arguments of one rewrite: source, url, script id, module, handler."""

_LENGTH = struct.Struct("!Q")
_PACKAGE_PARENT = str(Path(__file__).resolve().parents[2])


class WorkerFailed(Webr4Error):
    """A worker could not be started, died, or answered with something other than a result."""


def _send(stream: IO[bytes], message: Any) -> None:
    payload = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(payload)) + payload)
    stream.flush()


def _receive(stream: IO[bytes]) -> Any:
    """The next message; EOFError when the other side has closed the stream."""
    header = stream.read(_LENGTH.size)
    if len(header) < _LENGTH.size:
        raise EOFError
    payload = stream.read(_LENGTH.unpack(header)[0])
    return pickle.loads(payload)


class _Worker:
    """One child process that rewrites one script at a time."""

    def __init__(self) -> None:
        environment = dict(os.environ)
        environment["PYTHONPATH"] = os.pathsep.join(filter(None, (_PACKAGE_PARENT, environment.get("PYTHONPATH"))))
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", "from webr4.instrument.pool import serve; serve()"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=environment,
                start_new_session=True,  # a signal to webr4's process group is webr4's to act on
            )
        except OSError as error:
            raise WorkerFailed(str(error)) from None
        self.answered = 0

    def rewrite(self, job: Job) -> RewriteResult:
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            _send(self.process.stdin, job)
            answer = _receive(self.process.stdout)
        except (OSError, EOFError, pickle.UnpicklingError) as error:
            raise WorkerFailed(f"rewrite worker {self.process.pid} failed: {error!r}") from None
        self.answered += 1
        if not isinstance(answer, RewriteResult):  # the rewrite raised there: it will here too
            raise WorkerFailed(f"rewrite worker {self.process.pid} answered {answer!r}")
        return answer

    def stop(self) -> None:
        if self.process.stdin is not None:
            try:
                self.process.stdin.close()
            except OSError:
                pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()


class _Pool:
    """Up to :data:`WORKERS` workers, started as jobs need them and reused; thread-safe."""

    def __init__(self) -> None:
        self._idle: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
        self._all: list[_Worker] = []
        self._lock = threading.Lock()
        self._threads = ThreadPoolExecutor(WORKERS, thread_name_prefix="webr4-rewrite")
        self._waiting: list[tuple[int, int, Job, Future[RewriteResult]]] = []  # a heap: longest source first
        self._arrivals = itertools.count()  # among equally long sources, the first submitted goes first
        self.unavailable = False

    def rewrite(self, job: Job) -> RewriteResult:
        """Run ``job`` on an idle worker, starting one when none is idle; blocks its thread. Called
        from at most :data:`WORKERS` threads at once, so that is how many workers there can be."""
        try:
            worker = self._idle.get_nowait()
        except queue.Empty:
            worker = self._start()
        try:
            result = worker.rewrite(job)
        except WorkerFailed:
            self._forget(worker)
            if not worker.answered:  # it never worked: workers cannot run here
                self.unavailable = True
            raise
        self._idle.put(worker)
        return result

    def warm_up(self) -> None:
        """Start the workers that are not running yet, without waiting for them to be ready: a
        worker takes a moment to import the rewriter (0.2 s, and over a second on a busy
        machine), which can pass while the browser starts."""
        while not self.unavailable:
            with self._lock:
                if len(self._all) >= WORKERS:
                    return
            try:
                self._idle.put(self._start())
            except WorkerFailed:
                return

    def _start(self) -> _Worker:
        try:
            worker = _Worker()
        except WorkerFailed:
            self.unavailable = True
            raise
        with self._lock:
            self._all.append(worker)
        return worker

    def _forget(self, worker: _Worker) -> None:
        with self._lock:
            self._all.remove(worker)
        worker.stop()

    async def submit(self, job: Job) -> RewriteResult:
        """The result of ``job``, rewritten on a worker once none of the jobs waiting with it has
        a longer source; cancelling the call before then withdraws the job."""
        done: Future[RewriteResult] = Future()
        with self._lock:
            heapq.heappush(self._waiting, (-len(job[0]), next(self._arrivals), job, done))
        self._threads.submit(self._run_longest)
        return await asyncio.wrap_future(done)

    def _run_longest(self) -> None:
        """Run the longest waiting job (not necessarily the one this call was submitted for: each
        submission adds one call, so every job is run by one of them)."""
        with self._lock:
            *_, job, done = heapq.heappop(self._waiting)
        if not done.set_running_or_notify_cancel():
            return
        try:
            done.set_result(self.rewrite(job))
        except BaseException as error:  # noqa: BLE001 - handed to the awaiting caller
            done.set_exception(error)

    def close(self) -> None:
        with self._lock:
            workers, self._all = self._all, []
        for worker in workers:
            worker.stop()
        self._threads.shutdown(wait=False)


_pool: _Pool | None = None
_pool_lock = threading.Lock()


def _shared_pool() -> _Pool:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = _Pool()
            atexit.register(_pool.close)
        return _pool


def warm_up() -> None:
    """Start this process's workers now, ahead of the first script to rewrite."""
    _shared_pool().warm_up()


async def rewrite_elsewhere(
    source: str, url: str, *, script_id: str, module: bool, handler: bool
) -> RewriteResult:
    """:func:`~webr4.instrument.rewrite.rewrite` with the same arguments and the same result,
    computed in a worker process while the calling event loop goes on."""
    pool = _shared_pool()
    if not pool.unavailable:
        try:
            return await pool.submit((source, url, script_id, module, handler))
        except WorkerFailed:
            pass
    return rewrite(source, url, script_id=script_id, module=module, handler=handler)


def serve() -> None:
    """A worker's loop: rewrite each job read from standard input, answering on standard output,
    until the input ends."""
    jobs = sys.stdin.buffer
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # nothing else may write into the answers
    while True:
        try:
            source, url, script_id, module, handler = _receive(jobs)
        except EOFError:
            return
        try:
            answer: Any = rewrite(source, url, script_id=script_id, module=module, handler=handler)
        except Exception as error:  # noqa: BLE001 - the parent rewrites in-process and sees it raise
            answer = repr(error)
        _send(answers, answer)
