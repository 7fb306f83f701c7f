"""Stopping on SIGINT and SIGTERM at any moment: one line, exit status 130.

Ctrl-C (SIGINT) and SIGTERM both stop webr4 as an interrupt: :func:`install` makes each raise
``KeyboardInterrupt`` in the main thread, which the command line turns into status 130 and one
line saying how to go on. A signal that whoever started webr4 ignores (a background job of a
shell script ignores SIGINT) stays ignored. :func:`requested` says whether one came, so that
whatever fails because of it (a browser that the same signal to the process group took down)
counts as the interrupt, not as an error of its own.

The ``webr4`` program (:func:`webr4.__main__.main`) installs them before the command line is
even imported.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from types import FrameType
from typing import Any, Coroutine, TypeVar

T = TypeVar("T")

INTERRUPTED = 130
SIGNALS = (signal.SIGINT, signal.SIGTERM)
_received: list[int] = []


def _stop(signum: int, frame: FrameType | None) -> None:
    _received.append(signum)
    raise KeyboardInterrupt


def _unraisable(report: Any) -> None:
    """Python reports, and otherwise drops, an exception raised where it cannot propagate (a
    weakref callback of the import system): a ``KeyboardInterrupt`` from :func:`_stop` there is
    kept by :func:`requested` instead, and said once, as every interrupt is."""
    if report.exc_type is not KeyboardInterrupt:
        sys.__unraisablehook__(report)


def install() -> dict[int, Any] | None:
    """From now on SIGINT and SIGTERM raise ``KeyboardInterrupt`` (unless ignored); returns the
    handlers replaced, for :func:`restore`, or ``None`` off the main thread, where signals
    cannot be handled."""
    sys.unraisablehook = _unraisable
    replaced: dict[int, Any] = {}
    try:
        for signum in SIGNALS:
            if signal.getsignal(signum) is not signal.SIG_IGN:
                replaced[signum] = signal.signal(signum, _stop)
    except ValueError:
        return None
    return replaced


def restore(replaced: dict[int, Any] | None) -> None:
    """Put back the handlers :func:`install` replaced, and forget the signals that came."""
    for signum, handler in (replaced or {}).items():
        signal.signal(signum, handler)
    _received.clear()


def requested() -> bool:
    """Whether SIGINT or SIGTERM came (since the last :func:`restore`), even where the
    ``KeyboardInterrupt`` it raised was lost."""
    return bool(_received)


async def cancelled_by_signals(work: Coroutine[Any, Any, T]) -> T:
    """Await ``work`` in the running loop; SIGINT or SIGTERM (unless ignored) cancels it, so that
    everything it holds is let go of in order (browsers closed, files written), and then raises
    ``KeyboardInterrupt``. A second signal raises at once."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    watched = [signum for signum in SIGNALS if signal.getsignal(signum) is not signal.SIG_IGN]

    def stop(signum: int) -> None:
        _received.append(signum)
        if len(_received) > 1:
            raise KeyboardInterrupt
        task.cancel()

    try:
        for signum in watched:
            loop.add_signal_handler(signum, stop, signum)
    except (ValueError, RuntimeError):  # not the main thread: signals stay with whoever handles them
        watched = []
    try:
        if _received:  # it came before the loop could take it
            raise KeyboardInterrupt
        result = await work
    except asyncio.CancelledError:
        if _received:
            raise KeyboardInterrupt from None
        raise
    finally:
        for signum in watched:
            loop.remove_signal_handler(signum)
            signal.signal(signum, _stop)
    if _received:  # it came as the work was ending, too late to cancel it: still an interrupt
        raise KeyboardInterrupt
    return result
