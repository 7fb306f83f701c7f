"""One webr4 at a time in a run directory.

Two sweeps writing one run directory would interleave their store rows and overwrite each
other's files. :func:`claim` holds the directory for the process, with an advisory ``flock`` on
the directory itself: nothing is written into the run, and the lock goes when the process does,
however it ends (even ``kill -9``). A claim within the process that already holds the directory
is granted, so the command line can claim a run before it looks at it and the sweep again inside.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from webr4.errors import Webr4Error


class RunInUse(Webr4Error):
    """Another process is using the run directory (one line naming it and what to do)."""


_held: dict[Path, int] = {}  # directory (resolved) -> how many claims this process holds on it


@contextmanager
def claim(directory: Path) -> Iterator[None]:
    """Hold ``directory`` (created when missing) for this process while the block runs; raises
    :class:`RunInUse` at once when another process holds it."""
    directory.mkdir(parents=True, exist_ok=True)
    key = directory.resolve()
    if key in _held:
        _held[key] += 1
        try:
            yield
        finally:
            _held[key] -= 1
        return
    handle = os.open(key, os.O_RDONLY | os.O_DIRECTORY)
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunInUse(f"another webr4 is using {directory}; wait for it to end, or choose another --out") from None
        _held[key] = 1
        try:
            yield
        finally:
            del _held[key]
    finally:
        os.close(handle)  # closing the descriptor releases the lock
