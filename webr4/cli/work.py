"""A command's work, run to its end in an event loop that SIGINT and SIGTERM cancel: every
failure the user can fix becomes one line (:class:`~webr4.cli.failures.Failure`), an interrupt
says what was kept and how to go on (:class:`~webr4.cli.failures.Interrupted`)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any, Awaitable, Callable, Coroutine, TypeVar

from webr4 import interrupts
from webr4.browser.driver import Driver
from webr4.browser.network import NetworkError
from webr4.browser.teardown import quiet_lost_browser
from webr4.cli.failures import Failure, Interrupted, one_line
from webr4.errors import Webr4Error
from webr4.rundir.run import RunDir
from webr4.rundir.store import damaged
from webr4.sweep.plan_execution import BrowserLost

T = TypeVar("T")


def interruptible(work: Callable[[], Coroutine[Any, Any, T]], out_dir: Path, resume_command: str) -> T:
    """Run a sweep; an interrupt, or a browser lost twice under it, says what was kept and how to
    go on."""
    try:
        return run(work, out_dir)
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted; what was explored is kept in {out_dir}, continue with: "
                          f"{resume_command}") from None
    except BrowserLost as lost:
        raise Interrupted(f"interrupted: {lost}; what was explored is kept in {out_dir}, continue with: "
                          f"{resume_command}") from None


def with_driver(work: Callable[[Driver], Awaitable[T]], run_dir: Path | None = None) -> T:
    """Run ``work`` with a browser; user-fixable failures become one-line errors (``run_dir``:
    the run whose store it reads, if any)."""
    async def go() -> T:
        async with Driver() as driver:
            return await work(driver)

    return run(go, run_dir)


def run(work: Callable[[], Coroutine[Any, Any, T]], run_dir: Path | None = None) -> T:
    """Run ``work`` to completion; user-fixable failures become one-line errors. ``run_dir`` is
    the run whose store ``work`` uses, if any: a store that turns out damaged is named as such."""
    try:
        try:
            with asyncio.Runner() as runner:
                quiet_lost_browser(runner.get_loop())
                return runner.run(interrupts.cancelled_by_signals(work()))
        except Exception:
            if interrupts.requested():  # failed because of the signal (it took the browser down too)
                raise KeyboardInterrupt from None
            raise
    except BrowserLost:
        raise  # the sweep stopped as interrupted: interruptible says how to go on
    except NetworkError as error:
        raise Failure(f"{error}; check the URL and that the site is running") from None
    except Webr4Error as error:
        raise Failure(str(error)) from None
    except sqlite3.DatabaseError as error:
        if run_dir is None or isinstance(error, sqlite3.OperationalError):
            raise Failure(f"the run store failed: {one_line(error)}; free space or choose another --out") from None
        raise Failure(str(damaged(RunDir(run_dir).store, error))) from None
    except sqlite3.Error as error:  # the run store: most often a full disk
        raise Failure(f"the run store failed: {one_line(error)}; free space or choose another --out") from None
    except OSError as error:  # the output directory: unwritable, a file in the way, a full disk
        if error.filename is None:
            raise  # not about a file webr4 writes: the command's guard reports it as unexpected
        raise Failure(f"cannot write {error.filename}: {error.strerror}; choose another --out") from None
