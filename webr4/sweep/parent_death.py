"""Worker processes that die with the process that started them.

A sweep's worker processes each drive a browser (a Playwright driver and a Chromium tree). If
the parent is killed (``kill -9``, an OOM kill, a closed terminal) nothing would stop them, so
every worker calls :func:`bind_to_parent` first: on Linux the kernel sends it ``SIGKILL`` when
the parent dies (``PR_SET_PDEATHSIG``); elsewhere a daemon thread notices that the parent is
gone and ends the process. A worker's Playwright driver then sees its pipe close and takes its
Chromium down with it. Workers also leave the parent's process group and ignore Ctrl-C: a
terminal (or ``timeout``, or a container stop) signals the whole group, and it is the parent that
decides how a sweep stops.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
_POLL_S = 0.5


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM held back (blocked, not lost) while the block starts worker processes:
    a new worker inherits the block, so that a signal to the process group cannot end it before
    :func:`bind_to_parent` has taken it out of the group."""
    held = {signal.SIGINT, signal.SIGTERM}
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def bind_to_parent(parent_pid: int) -> None:
    """Make this process end when ``parent_pid`` (the process that started it) ends, and take it
    (with the Playwright driver it starts) out of the parent's process group: a signal to the
    group is the parent's to act on. Signals held back while it started (:func:`signals_held`)
    come now: Ctrl-C is ignored, and a SIGTERM that came meanwhile ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):  # already a session leader
        os.setsid()
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    if not (sys.platform.startswith("linux") and _kernel_kills_on_parent_death()):
        threading.Thread(target=_exit_when_orphaned, args=(parent_pid,), name="webr4-parent-watch", daemon=True).start()
    if os.getppid() != parent_pid:  # the parent died before the binding took effect
        os._exit(1)


def _kernel_kills_on_parent_death() -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _exit_when_orphaned(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(_POLL_S)
    os._exit(1)
