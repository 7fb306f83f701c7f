"""Checks that the flaky-test corpus is trustworthy: every test passes on the fast server and fails under its adversary.

Run from the repository root::

    .venv/bin/python -m benchmarks.flaky.check_plain [--runs N] [NAME ...]

For each entry of ``corpus.json`` (or those whose test id contains one of the NAMEs), the test runs
N times as it is and N times with ``--slow <its glob>=<its delay>``, each run a pytest process of its
own rooted at ``benchmarks/flaky/tests`` (so the corpus's conftest is the one in use). A run's
outcome comes from pytest's JUnit XML: a test that errors (in setup or teardown) or is skipped counts
neither as a pass nor as a fail. The exit status is 0 only when every plain run passes and every
adversary run fails.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.corpora import load_flaky

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
TESTS = HERE / "tests"
DESCRIPTION = "Every corpus test must pass on the fast server and fail under its adversary."
RUN_TIMEOUT_S = 180.0
"""Longest a single pytest run may take; the slowest corpus test takes about ten seconds."""


@dataclass
class Tally:
    """The outcomes of one corpus test: plain runs that passed, adversary runs that failed, and the rest."""

    test: str
    pattern: str
    runs: int
    plain_passed: int = 0
    adversary_failed: int = 0
    odd: list[str] = field(default_factory=list)

    @property
    def trustworthy(self) -> bool:
        """Whether every plain run passed and every adversary run failed."""
        return self.plain_passed == self.runs and self.adversary_failed == self.runs


def outcome(junit: Path) -> str:
    """``passed``, ``failed``, ``error``, ``skipped`` or ``missing``: how the single test of a JUnit report went."""
    if not junit.is_file():
        return "missing"
    cases = ElementTree.parse(junit).getroot().findall(".//testcase")
    if len(cases) != 1:
        return "missing"
    kinds = {child.tag for child in cases[0]}
    for kind in ("error", "failure", "skipped"):
        if kind in kinds:
            return "failed" if kind == "failure" else kind
    return "passed"


def run_once(test: str, slow: list[str]) -> str:
    """Runs ``test`` in a pytest process of its own, with ``--slow`` for each of ``slow``; returns its outcome,
    followed by pytest's last line of output when pytest wrote no report of the test."""
    with tempfile.TemporaryDirectory(prefix="flaky-run-") as scratch:
        junit = Path(scratch) / "junit.xml"
        command = [sys.executable, "-m", "pytest", test, "-p", "no:cacheprovider", "-q",
                   "--rootdir", str(TESTS.relative_to(ROOT)), "--output", str(Path(scratch) / "artifacts"),
                   f"--junitxml={junit}", *(f"--slow={rule}" for rule in slow)]
        try:
            done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=RUN_TIMEOUT_S,
                                  check=False)
        except subprocess.TimeoutExpired:
            return "timeout"
        result = outcome(junit)
        if result == "missing":
            lines = (done.stdout + done.stderr).strip().splitlines() or ["no output"]
            result += f" [exit {done.returncode}: {lines[-1][:100]}]"
        return result


def check_entry(entry: dict[str, Any], runs: int) -> Tally:
    """Runs one corpus test ``runs`` times plain and ``runs`` times under its adversary."""
    tally = Tally(entry["test"], entry["pattern"], runs)
    rule = f"{entry['slow']}={entry['delay_ms']}"
    for _ in range(runs):
        plain = run_once(entry["test"], [])
        tally.plain_passed += plain == "passed"
        if plain not in ("passed", "failed"):
            tally.odd.append(f"plain: {plain}")
        slowed = run_once(entry["test"], [rule])
        tally.adversary_failed += slowed == "failed"
        if slowed not in ("passed", "failed"):
            tally.odd.append(f"adversary: {slowed}")
    return tally


def table(tallies: list[Tally]) -> str:
    """The results as a fixed-width table, one line per test."""
    width = max(len("test"), *(len(t.test.rpartition("::")[2]) for t in tallies))
    lines = [f"{'test':<{width}}  {'pattern':<16}  {'plain passes':>12}  {'adversary fails':>15}  verdict",
             "-" * (width + 63)]
    for t in tallies:
        verdict = "ok" if t.trustworthy else "NOT TRUSTWORTHY"
        if t.odd:
            verdict += f" ({', '.join(sorted(set(t.odd)))})"
        lines.append(f"{t.test.rpartition('::')[2]:<{width}}  {t.pattern:<16}  {f'{t.plain_passed}/{t.runs}':>12}  "
                     f"{f'{t.adversary_failed}/{t.runs}':>15}  {verdict}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Checks the corpus (or the entries named) and prints the table; 0 when every test behaves."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.flaky.check_plain", description=DESCRIPTION)
    parser.add_argument("--runs", type=int, default=3, help="runs per test, plain and under the adversary (default 3)")
    parser.add_argument("names", nargs="*", help="check only the tests whose id contains one of these")
    args = parser.parse_args(argv)
    entries = [e for e in load_flaky() if not args.names or any(name in e["test"] for name in args.names)]
    if not entries:
        parser.error("no corpus entry matches")
    tallies: list[Tally] = []
    for entry in entries:
        tallies.append(check_entry(entry, args.runs))
        print(f"checked {entry['test']}", file=sys.stderr, flush=True)
    print(table(tallies))
    return 0 if all(t.trustworthy for t in tallies) else 1


if __name__ == "__main__":
    sys.exit(main())
