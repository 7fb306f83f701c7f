"""The flaky-test corpus as one ``webr4 deflake`` run: one test after another, then side by side.

The corpus's tests (``benchmarks/flaky/``, with the npm apps and pages some of them use) are
deflaked twice as a user would run a whole suite, each time into a run directory of its own:
``webr4 deflake TESTS...`` (one test after another in pytest) and ``webr4 deflake TESTS...
--cluster local:2`` (two tests at once, each in a process of its own, their executions on one
local Dask cluster of two workers).

Reported: both wall times and the speed-up, the load average as each began, and per test
whether both runs said the same: its status, its failing orders' confirmations in plain
Chromium, and whether its fix was verified.

``python -m benchmarks --only deflake_suite`` writes ``benchmarks/results/deflake_suite.{md,json}``;
``python -m benchmarks.deflake_suite NAME...`` measures the tests whose names contain a NAME.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from benchmarks.corpora import FLAKY_DIR, ensure_apps, ensure_web_root, load_apps, load_flaky, load_pages
from benchmarks.registry import by_name
from benchmarks.section import Section

WAYS = {"one after another": [], "side by side, --cluster local:2": ["--cluster", "local:2"]}
RUN_LIMIT_S = 3_600.0
_ENV = {**os.environ, "PYTHONPATH": str(FLAKY_DIR.parent.parent)}  # a copy of the corpus imports its server
TITLE = "deflake on the flaky-test corpus as one run, one test after another and side by side"


@dataclass(frozen=True)
class SuiteRun:
    """One way of deflaking the corpus: its wall time, exit status, and per test what it said."""

    way: str
    seconds: float
    status: int
    load: float
    said: dict[str, list[Any]]  # test -> [status, confirmations of its failing orders, fix verified]


def deflake_suite(way: str, tests: Path, files: list[str], out: Path, extra: list[str]) -> SuiteRun:
    """Deflake ``files`` of the corpus copy ``tests`` into ``out`` as one run, the ``way`` ``extra`` says."""
    load = os.getloadavg()[0]
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "webr4", "deflake", *files, "--out", str(out), *extra], cwd=tests,
                          capture_output=True, text=True, timeout=RUN_LIMIT_S, env=_ENV)
    seconds = time.monotonic() - started
    summary_path = out / "summary.json"
    entries = json.loads(summary_path.read_text())["tests"] if summary_path.is_file() else []
    said = {entry["test"]: [entry["status"], sorted((order.get("confirmation") or {}).get("status", "–")
                                                    for order in entry["flaky"]),
                            bool((entry.get("fix") or {}).get("verified"))] for entry in entries}
    return SuiteRun(way, seconds, done.returncode, load, said)


def table(runs: list[SuiteRun]) -> str:
    first = runs[0]
    head = ["| way | wall (s) | exit status | tests judged | speed-up | load average at start |",
            "|---|---:|---:|---:|---:|---:|"]
    rows = [f"| {run.way} | {run.seconds:.0f} | {run.status} | {len(run.said)} | "
            f"{first.seconds / run.seconds:.2f}× | {run.load:.1f} |" for run in runs]
    tests = sorted(set().union(*(run.said for run in runs)))
    differing = [test for test in tests if len({json.dumps(run.said.get(test)) for run in runs}) > 1]
    agree = (f"Both runs said the same of {len(tests) - len(differing)} of {len(tests)} tests (status, plain "
             "Chromium's word on each failing order, fix verified)")
    agree += "." if not differing else f"; they differ for {', '.join(differing)}."
    return "\n".join([*head, *rows, "", agree])


def run(_sites: list[Path], only: list[str] | None = None) -> Section:
    corpus = load_flaky()
    ensure_apps(load_apps())
    ensure_web_root(load_pages())
    files = sorted({Path(entry["test"].split("::")[0]).name for entry in corpus
                    if not only or any(name in entry["test"] for name in only)})
    runs = []
    with tempfile.TemporaryDirectory(prefix="webr4-deflake-suite-") as scratch:
        for number, (way, extra) in enumerate(WAYS.items()):
            copy = Path(scratch) / f"corpus-{number}"
            shutil.copytree(FLAKY_DIR, copy)
            suite = deflake_suite(way, copy / "tests", files, Path(scratch) / f"run-{number}", extra)
            runs.append(suite)
            print(f"deflake_suite: {way}: {suite.seconds:.0f} s, status {suite.status}", file=sys.stderr, flush=True)
    return Section(TITLE, table(runs), [asdict(run) for run in runs])


if __name__ == "__main__":  # python -m benchmarks.deflake_suite [NAME...]
    by_name()["deflake_suite"].publish(run([], sys.argv[1:] or None))
