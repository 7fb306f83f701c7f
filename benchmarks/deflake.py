"""``webr4 deflake`` on the flaky-test corpus: diagnosed, fixed with proof, and what it costs.

``python -m benchmarks --only deflake``, or ``python -m benchmarks.deflake NAME...`` to measure
some tests again (their rows replace those of the results file, each row naming its commit). The
corpus (``benchmarks/flaky/``) is a Playwright project of its own, on small apps of its own and on
TodoMVC apps and real-web pages from the npm registry (installed first, as their own benchmarks
install them): each test passes on its fast server and fails when one response is slow
(``corpus.json`` names it and how slow; ``python -m benchmarks.flaky.check_plain`` checks that
much). For each test this section

* runs it as it is :data:`RUNS` times (its call's time, from pytest's JUnit report);
* runs ``webr4 deflake`` on it (wall time, against one plain pytest process of the same test);
* reads the summary: is the corpus's slow response named as the racing event, is the fault the
  corpus's, is a fix verified;
* writes the verified fix into a copy of the corpus and runs the fixed test :data:`RUNS` times
  under the corpus's slow response and :data:`RUNS` times without it: each must pass every time,
  and its call must take no longer than 1.25 times the original's (median of the plain runs).

Results go to ``benchmarks/results/deflake.{md,json}`` and the table of
``docs/benchmarks/deflake.md`` between ``<!-- deflake:start -->`` and ``<!-- deflake:end -->``.
"""

from __future__ import annotations

import fnmatch
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from benchmarks.corpora import FLAKY_DIR, ensure_apps, ensure_web_root, load_apps, load_flaky, load_pages
from benchmarks.registry import RESULTS, by_name
from benchmarks.section import Section

TESTS = FLAKY_DIR / "tests"
RUNS = 20
"""Runs of each fixed test under its slow response, and without it (the plain runs time it too)."""
RUN_LIMIT_S = 900.0
_ENV = {**os.environ, "PYTHONPATH": str(FLAKY_DIR.parent.parent)}  # a copy of the corpus imports its server
TITLE = "deflake on the flaky-test corpus"


@dataclass
class Row:
    """One corpus test: what deflake said of it, and how its fix did."""

    test: str
    pattern: str
    diagnosed: bool
    fault: str | None
    expected_fault: str
    fix: str | None
    verified: bool
    why: str
    fixed_slow_passed: int = 0
    fixed_plain_passed: int = 0
    runs: int = RUNS
    original_s: float | None = None
    fixed_s: float | None = None
    deflake_s: float = 0.0
    plain_process_s: float = 0.0
    commit: str = ""  # the checkout's commit when the row was measured

    @property
    def time_ratio(self) -> float | None:
        if self.original_s is None or self.fixed_s is None or not self.original_s:
            return None
        return self.fixed_s / self.original_s

    @property
    def cost(self) -> float:
        return self.deflake_s / self.plain_process_s if self.plain_process_s else 0.0


def _pytest(tests: Path, files: list[str], junit: Path, slow: str | None = None) -> list[tuple[str, float]]:
    """Run ``files`` (a file named twice runs twice) in one pytest process in ``tests``; each
    test's outcome and its call's seconds, in order."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--keep-duplicates", *files,
               f"--junitxml={junit}", "-o", "junit_duration_report=call"]
    if slow:
        command.append(f"--slow={slow}")
    subprocess.run(command, cwd=tests, capture_output=True, text=True, timeout=RUN_LIMIT_S, env=_ENV)
    outcomes = []
    for case in ElementTree.parse(junit).iter("testcase"):
        kinds = {child.tag for child in case}
        outcome = "failed" if kinds & {"failure", "error"} else "skipped" if "skipped" in kinds else "passed"
        outcomes.append((outcome, float(case.get("time") or 0.0)))
    return outcomes


def _deflake(tests: Path, file: str, out: Path) -> tuple[dict[str, Any], float]:
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "webr4", "deflake", file, "--out", str(out)], cwd=tests,
                   capture_output=True, text=True, timeout=RUN_LIMIT_S)
    seconds = time.monotonic() - started
    summary_path = out / "summary.json"
    summary = json.loads(summary_path.read_text()) if summary_path.is_file() else {"tests": [], "flaky": []}
    return summary, seconds


def _one_process(tests: Path, file: str) -> float:
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", file], cwd=tests,
                   capture_output=True, timeout=RUN_LIMIT_S)
    return time.monotonic() - started


def _matches(url: str | None, glob: str) -> bool:
    return url is not None and url != "" and fnmatch.fnmatch(url.split("?")[0], glob.replace("**", "*"))


def measure(entry: dict[str, Any], scratch: Path) -> Row:
    """Deflake one corpus test and run its fix; ``scratch`` is a directory of its own."""
    file = entry["test"].split("::")[0].removeprefix("benchmarks/flaky/tests/")
    slow = f"{entry['slow']}={entry['delay_ms']}"
    plain = _pytest(TESTS, [file] * RUNS, scratch / "plain.xml")
    summary, deflake_s = _deflake(TESTS, file, scratch / "run")
    tests = summary["tests"]
    test = tests[0] if tests else {"flaky": [], "fix": None, "status": "error", "message": "no summary"}
    orders = test.get("flaky", [])
    named = [order for order in orders if _matches(order["racing"]["url"], entry["slow"])]
    fix = test.get("fix") or {}
    row = Row(file.removesuffix(".py"), entry["pattern"], bool(named), named[0]["fault"] if named else None,
              entry["fault"], fix.get("summary"), bool(fix.get("verified")),
              fix.get("why") or test.get("message") or ("" if orders else "no failing order found"),
              deflake_s=deflake_s, plain_process_s=_one_process(TESTS, file))
    row.original_s = _median_passed(plain)
    if row.verified:
        fixed_tests = scratch / "tests"
        shutil.copytree(TESTS, fixed_tests)
        shutil.copy(scratch / "run" / fix["fixed"], fixed_tests / file)
        under_slow = _pytest(fixed_tests, [file] * RUNS, scratch / "fixed-slow.xml", slow)
        fixed_plain = _pytest(fixed_tests, [file] * RUNS, scratch / "fixed-plain.xml")
        row.fixed_slow_passed = sum(1 for outcome, _ in under_slow if outcome == "passed")
        row.fixed_plain_passed = sum(1 for outcome, _ in fixed_plain if outcome == "passed")
        row.fixed_s = _median_passed(fixed_plain)
    return row


def _median_passed(runs: list[tuple[str, float]]) -> float | None:
    times = [seconds for outcome, seconds in runs if outcome == "passed"]
    return statistics.median(times) if times else None


def table(rows: list[Row]) -> str:
    lines = ["| test | pattern | racing response named | fault (corpus's) | fix verified | fixed test under "
             "its slow response | fixed test without it | run time, fixed / original | deflake cost, × one "
             "plain run |", "|---|---|---|---|---|---:|---:|---:|---:|"]
    for row in rows:
        ratio = f"{row.time_ratio:.2f}" if row.time_ratio is not None else "–"
        fixed = (f"{row.fixed_slow_passed}/{row.runs}", f"{row.fixed_plain_passed}/{row.runs}") if row.verified \
            else ("–", "–")
        verified = "yes" if row.verified else f"no: {row.why}"
        lines.append(f"| {row.test} | {row.pattern} | {'yes' if row.diagnosed else 'no'} | {row.fault or '–'} "
                     f"({row.expected_fault}) | {verified} | {fixed[0]} | {fixed[1]} | {ratio} | {row.cost:.1f} |")
    diagnosed = sum(r.diagnosed for r in rows)
    proven = [r for r in rows if r.verified]
    solid = sum(1 for r in proven if r.fixed_slow_passed == r.runs and r.fixed_plain_passed == r.runs)
    ratios = [r.time_ratio for r in proven if r.time_ratio is not None]
    costs = [r.cost for r in rows if r.cost]
    lines.append("")
    lines.append(f"{diagnosed} of {len(rows)} tests diagnosed (the corpus's slow response named as the racing "
                 f"event); {len(proven)} fixes verified, {solid} of them passing {RUNS} of {RUNS} runs under "
                 f"the slow response and {RUNS} of {RUNS} without it; fixed / original run time "
                 f"median {statistics.median(ratios):.2f}, worst {max(ratios):.2f}" if ratios else
                 f"{diagnosed} of {len(rows)} tests diagnosed; no fix verified")
    if costs:
        lines[-1] += (f"; deflake took {statistics.median(costs):.1f}× one plain pytest run of the test "
                      f"(median; worst {max(costs):.1f}×).")
    commits: dict[str, list[str]] = {}
    for row in rows:
        commits.setdefault(row.commit or "unknown", []).append(row.test)
    lines += ["", "Measured at " + "; ".join(
        f"{commit}: {', '.join(tests) if len(commits) > 1 else 'every row'}" for commit, tests in commits.items())
        + " (`python -m benchmarks --only deflake`, or `python -m benchmarks.deflake NAME...` for rows measured "
          "again)."]
    return "\n".join(lines)


def _commit() -> str:
    """The checkout's commit, short, with ``+`` when its tree has changes."""
    root = FLAKY_DIR.parent.parent
    head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(root), "diff", "--quiet", "HEAD"], capture_output=True)
    return (head.stdout.strip() or "unknown") + ("+" if dirty.returncode else "")


def _with_earlier(rows: list[Row], corpus: list[dict[str, Any]]) -> list[Row]:
    """``rows`` (some of the corpus, measured now) with the corpus's other rows as the results
    file last holds them, in the corpus's order."""
    stored = RESULTS / "deflake.json"
    earlier = json.loads(stored.read_text())["section"]["data"] if stored.is_file() else []
    names = {f.name for f in fields(Row)}
    by_test = {raw["test"]: Row(**{k: v for k, v in raw.items() if k in names}) for raw in earlier}
    by_test.update({row.test: row for row in rows})
    order = [Path(entry["test"].split("::")[0]).stem for entry in corpus]
    return [by_test[name] for name in order if name in by_test]


def run(_sites: list[Path], only: list[str] | None = None) -> Section:
    corpus = load_flaky()
    # the corpus's tests on TodoMVC apps and real-web pages need them installed (from the npm registry)
    ensure_apps(load_apps())
    ensure_web_root(load_pages())
    entries = [e for e in corpus if not only or any(name in e["test"] for name in only)]
    rows = []
    with tempfile.TemporaryDirectory(prefix="webr4-deflake-bench-") as scratch:
        for number, entry in enumerate(entries):
            place = Path(scratch) / str(number)
            place.mkdir()
            rows.append(measure(entry, place))
            rows[-1].commit = _commit()
            print(f"deflake: {rows[-1].test}: diagnosed {rows[-1].diagnosed}, verified {rows[-1].verified}",
                  flush=True)
    if only:
        rows = _with_earlier(rows, corpus)
    markdown = table(rows)
    return Section(TITLE, markdown, [asdict(r) | {"time_ratio": r.time_ratio, "cost": r.cost} for r in rows],
                   docs=markdown)


if __name__ == "__main__":  # measure some tests again: python -m benchmarks.deflake NAME...
    by_name()["deflake"].publish(run([], sys.argv[1:] or None))
