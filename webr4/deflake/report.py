"""``RUN/report/index.html``: an overview of the tests (status, failing orders, plain Chromium's
words, the fix, a link to each test's own run), then a section per test, and per failing order the
failing line in its source, the racing pair, plain Chromium's word, the two orders' screenshots
and the fix's diff.

Everything the tests or the pages said is escaped by Jinja2's autoescaping; images are the
run's own files, by relative paths, so the page works from ``file://`` with no network.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from webr4.resources import resource_dir
from webr4.rundir.run import SCREENSHOT, RunDir

_CONTEXT_LINES = 3


def _source(path: str | None, line: int) -> list[tuple[int, str]]:
    """The lines around ``line`` of the test file ``path`` (none when it cannot be read)."""
    if not path or not line:
        return []
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    first = max(1, line - _CONTEXT_LINES)
    return [(number, lines[number - 1]) for number in range(first, min(len(lines), line + _CONTEXT_LINES) + 1)]


def _screenshots(run: Path, test_run: str, parent: int, child: int) -> list[tuple[str, str]]:
    files = RunDir(run / test_run)
    shots = [(label, files.sequence_file(index, SCREENSHOT)) for label, index in
             (("the order the test passes in", parent), ("the order it fails in", child))]
    return [(label, os.path.relpath(path, run / "report")) for label, path in shots if path]


def write_deflake_report(run: Path, summary: dict[str, Any]) -> Path:
    """Write the report of the deflake run ``run`` from its ``summary``; its index page's path."""
    out = run / "report"
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(resource_dir("reports") / "report.css", out / "report.css")
    tests = []
    for entry in summary["tests"]:
        source = (entry.get("fix") or {}).get("file")
        orders = []
        for order in entry.get("flaky", []):
            index = order["reversal"]
            parent = order.get("parent", 0)
            orders.append({**order, "source": _source(source, order["line"]),
                           "screenshots": _screenshots(run, entry["run"], parent, index),
                           "reversal_page": f"../{entry['run']}/report/reversal-{index}.html"})
        run_report = run / entry["run"] / "report" / "index.html" if entry.get("run") else None
        tests.append({**entry, "flaky": orders, "fix": entry.get("fix"),
                      "confirmations": Counter(order["confirmation"]["status"] for order in entry.get("flaky", [])),
                      "run_report": os.path.relpath(run_report, out) if run_report and run_report.is_file() else None})
    env = Environment(loader=FileSystemLoader(resource_dir("reports")), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True)
    page = out / "index.html"
    page.write_text(env.get_template("deflake.html.j2").render(tests=tests, pending=summary.get("pending", [])),
                    encoding="utf-8")
    return page
