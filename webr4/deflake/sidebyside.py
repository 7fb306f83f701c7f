"""Deflaking a suite's tests side by side on one Dask cluster.

pytest runs one test at a time, and a test's deflaking judges its own orders in its own
process. So that a cluster serves many tests at once, as a campaign's entries share one,
:func:`deflake_side_by_side` runs each test in a ``webr4 deflake`` process of its own (a *part*
of the run: it writes the test's entry, and leaves the summary to the caller), as many at once
as the cluster has workers. Every part's sweep sends its executions to the same scheduler.

Each part's output goes to ``RUN/logs/<test>.log``. An interrupt reaches the parts with the
process group (Ctrl-C) or, when it came to this process alone, is passed on to them; either
way the parts stop as a lone ``deflake`` does, and the tests they had not judged stay pending.
"""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from webr4.deflake.results import read_entry, test_dir

_POLL_S = 0.2
_OWN_STOP_S = 2.0  # for the parts to stop on a signal to the whole group, before they are sent one
_STOP_S = 60.0  # for a part to close its browsers and go, before it is killed


@dataclass
class _Part:
    test: str
    process: subprocess.Popen[bytes]
    log: IO[bytes]


@dataclass(frozen=True)
class PartEnd:
    """How the part deflaking ``test`` ended: its exit ``status``, and its output's last line
    when it wrote no entry for the test (``None`` when it did)."""

    test: str
    status: int
    reason: str | None


def log_path(run: Path, test: str) -> Path:
    """Where the part that deflakes ``test`` writes its output."""
    return run / "logs" / f"{test_dir(run, test).name}.log"


def deflake_side_by_side(tests: Sequence[str], at_once: int, command: Callable[[str], list[str]], run: Path,
                         ended: Callable[[PartEnd], None], *, cwd: Path | None = None) -> None:
    """Run ``command(test)`` for each of ``tests``, ``at_once`` at a time, in the order given, and
    tell ``ended`` of each as it ends. On ``KeyboardInterrupt``, or anything ``ended`` raises, the
    parts under way are stopped (their judged tests' entries are written whole or not at all)
    before it propagates."""
    waiting, running = list(tests), list[_Part]()
    (run / "logs").mkdir(parents=True, exist_ok=True)
    try:
        while waiting or running:
            while waiting and len(running) < at_once:
                running.append(_start(waiting.pop(0), command, run, cwd))
            time.sleep(_POLL_S)
            for part in [part for part in running if part.process.poll() is not None]:
                running.remove(part)
                part.log.close()
                ended(_end(part, run))
    except BaseException:  # an interrupt, or a failure here: no part outlives the run
        _stop(running)
        raise


def _start(test: str, command: Callable[[str], list[str]], run: Path, cwd: Path | None) -> _Part:
    log = log_path(run, test).open("wb")
    try:
        process = subprocess.Popen(command(test), cwd=cwd, stdin=subprocess.DEVNULL, stdout=log,
                                   stderr=subprocess.STDOUT)
    except BaseException:
        log.close()
        raise
    return _Part(test, process, log)


def _end(part: _Part, run: Path) -> PartEnd:
    if read_entry(run, part.test) is not None:
        return PartEnd(part.test, part.process.returncode, None)
    said = log_path(run, part.test).read_text(encoding="utf-8", errors="replace").strip().splitlines()
    return PartEnd(part.test, part.process.returncode, said[-1] if said else None)


def _stop(running: list[_Part]) -> None:
    """Let the parts stop on the signal the group got; send one to those that did not get it;
    kill what outlives :data:`_STOP_S`."""
    deadline = time.monotonic() + _OWN_STOP_S
    while any(part.process.poll() is None for part in running) and time.monotonic() < deadline:
        time.sleep(_POLL_S)
    for part in running:
        if part.process.poll() is None:
            part.process.send_signal(signal.SIGTERM)
    for part in running:
        try:
            part.process.wait(timeout=max(0.0, deadline + _STOP_S - time.monotonic()))
        except subprocess.TimeoutExpired:
            part.process.kill()
            part.process.wait()
        part.log.close()
