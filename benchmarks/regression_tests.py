"""The generated regression tests on the real-app corpora: do they fail with their levers, and pass
without them, against the unmodified app?

For every app of the real-app corpus (:mod:`benchmarks.real_apps`) and of the module-loader apps
(:mod:`benchmarks.loader_apps`): the corpus session recorded (the longest part of it an app can
do, at least the two todos), a bound-1 sweep of at most :data:`MAX_SEQUENCES` sequences, and each
harmful reversal confirmed in plain Chromium, which writes the race as a test for pytest and for
Playwright Test (:func:`webr4.sweep.regression.keep_regression_tests`). Each confirmed race's
tests then run against the live app, served as the corpus ships it:

* with their levers, once: the test must fail (the race is there);
* with them switched off (``WEBR4_LEVERS=off``), :data:`REPEATS` times: the test must pass every
  time, or it is itself flaky;

the TypeScript form with ``@playwright/test`` of the Python package's minor version from the npm
registry (``--repeat-each``), when Node is there. The table gives both counts per race and the
length of each generated file.

``python -m benchmarks --only regression_tests`` writes ``benchmarks/results/regression_tests.{md,json}``.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any, Callable

from playwright.async_api import async_playwright

from benchmarks.loader_apps import APPS as LOADER_APPS
from benchmarks.loader_apps import MIN_STEPS
from benchmarks.npm import npm_install
from benchmarks.corpora import APPS_CACHE, TODOMVC, ensure_apps, load_apps
from benchmarks.section import Section
from webr4.browser.driver import Driver
from webr4.browser.launch import chromium_path
from webr4.record.session import SessionError, record
from webr4.rundir.run import RunDir
from webr4.serve import serve
from webr4.sweep.confirm import confirm_run
from webr4.sweep.explore import explore
from webr4.sweep.settings import SweepSettings
from webr4.witness.writers import LEVERS_SWITCH

RESULTS = Path(__file__).resolve().parent / "results"
MAX_SEQUENCES = 20
TIME_LIMIT_S = 300.0
REPEATS = 10
PLAYWRIGHT_TEST = APPS_CACHE.parent / "playwright_test"

CONFTEST = '''import os

import pytest


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": os.environ["CHROMIUM"]}
'''
CONFIG = '''import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: ".",
  workers: 1,
  use: { baseURL: process.env.BASE_URL, launchOptions: { executablePath: process.env.CHROMIUM } },
});
'''


@dataclass
class RaceRow:
    """One confirmed race's generated tests: how often each failed with its levers (on an
    assertion of the outcome, not on a lever or a step) and passed without them, and each file's
    length in lines (``None``: no test, ``why`` says)."""

    app: str
    reversal: int
    story: str = ""
    python_lines: int | None = None
    typescript_lines: int | None = None
    python_failed_with_levers: int = 0
    python_passed_without: int = 0
    typescript_failed_with_levers: int | None = None
    typescript_passed_without: int | None = None
    why: str = ""
    failed_without: list[str] = field(default_factory=list)
    """How each run without levers that did not pass ended: its form and first line of error."""


@dataclass
class AppRow:
    app: str
    confirmed: int = 0
    races: list[RaceRow] = field(default_factory=list)
    error: str | None = None


async def explore_app(driver: Driver, url: str, steps: list[dict[str, Any]], scratch: Path) -> Path:
    """Record (the longest part of ``steps`` the app can do), sweep and confirm one app; its run."""
    session = None
    for count in range(len(steps), MIN_STEPS - 1, -1):
        try:
            session = await record(driver, url, scratch / f"session-{count}", steps[:count])
            break
        except SessionError:
            continue
    if session is None:
        raise SessionError("not even the two todos could be recorded")
    run = scratch / "run"
    await explore(driver, session, run, SweepSettings(bound=1, max_sequences=MAX_SEQUENCES, time_limit=TIME_LIMIT_S))
    await confirm_run(driver.browser, session, run, "harmful")
    return run


def _pytest(directory: Path, base: str, levers: str, failures: list[str] | None = None) -> str:
    """How the generated pytest test in ``directory`` ends against ``base``: ``passed``,
    ``outcome`` (an assertion of the outcome failed) or ``error`` (anything else: a lever, a step);
    a run that did not pass adds its first error line to ``failures``."""
    env = {**os.environ, "CHROMIUM": os.environ["WEBR4_BENCH_CHROMIUM"], LEVERS_SWITCH: levers}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--base-url",
                           base.rstrip("/"), "test_race.py"], cwd=directory, env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    if done.returncode == 0:
        return "passed"
    if failures is not None:
        first = next((line for line in done.stdout.splitlines() if line.startswith("E ")), done.stdout[-200:])
        failures.append(f"pytest: {first.removeprefix('E').strip()[:200]}")
    return "outcome" if "AssertionError" in done.stdout else "error"


def _spec(directory: Path, base: str, levers: str, repeats: int,
          failures: list[str] | None = None) -> tuple[int, int]:
    """Of ``repeats`` runs of the generated spec in ``directory`` against ``base``: how many
    passed, and how many failed on an assertion of the outcome; each run that did not pass adds
    its first error line to ``failures``."""
    env = {**os.environ, "CHROMIUM": os.environ["WEBR4_BENCH_CHROMIUM"], LEVERS_SWITCH: levers, "BASE_URL": base}
    done = subprocess.run([str(PLAYWRIGHT_TEST / "node_modules" / ".bin" / "playwright"), "test", "--reporter=json",
                           f"--repeat-each={repeats}"], cwd=directory, env=env, capture_output=True, text=True,
                          timeout=900, check=False)
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        return 0, 0
    results = [result for suite in report.get("suites", []) for spec in suite.get("specs", [])
               for test in spec.get("tests", []) for result in test.get("results", [])]
    passed = sum(result.get("status") == "passed" for result in results)
    if failures is not None:
        for result in results:
            if result.get("status") != "passed":
                message = (result.get("error") or {}).get("message", "") or result.get("status", "failed")
                failures.append(f"Playwright Test: {message.strip().splitlines()[0][:200]}")
    outcome = sum(result.get("status") != "passed" and "expect(" in (result.get("error") or {}).get("message", "")
                  for result in results)
    return passed, outcome


def measure_race(app: str, run: Path, reversal: int, base: str, work: Path, node: bool) -> RaceRow:
    """Run one confirmed race's generated tests with and without their levers."""
    witness = RunDir(run).witness(reversal)
    row = RaceRow(app, reversal)
    python, spec = witness.regression_test("python"), witness.regression_test("typescript")
    if not python.is_file():
        row.why = witness.no_test.read_text().strip() if witness.no_test.is_file() else "no test written"
        return row
    row.story = witness.story.read_text().strip() if witness.story.is_file() else ""
    directory = work / f"{app}-{reversal}"
    directory.mkdir(parents=True)
    shutil.copyfile(python, directory / "test_race.py")
    shutil.copyfile(spec, directory / "race.spec.ts")
    (directory / "conftest.py").write_text(CONFTEST)
    (directory / "playwright.config.ts").write_text(CONFIG)
    row.python_lines = len(python.read_text().splitlines())
    row.typescript_lines = len(spec.read_text().splitlines())
    row.python_failed_with_levers = int(_pytest(directory, base, "on") == "outcome")
    row.python_passed_without = sum(_pytest(directory, base, "off", row.failed_without) == "passed"
                                    for _ in range(REPEATS))
    if node:
        (directory / "node_modules").symlink_to(PLAYWRIGHT_TEST / "node_modules", target_is_directory=True)
        row.typescript_failed_with_levers = _spec(directory, base, "on", 1)[1]
        row.typescript_passed_without = _spec(directory, base, "off", REPEATS, row.failed_without)[0]
    return row


async def measure(apps: list[tuple[str, Path]], steps: list[dict[str, Any]], node: bool,
                  measured: Callable[[list[AppRow]], None]) -> list[AppRow]:
    """Each app's row; ``measured`` is called with the rows so far after each app, so that a run cut
    short keeps what it measured."""
    rows: list[AppRow] = []
    with tempfile.TemporaryDirectory(prefix="webr4-regression-tests-") as scratch:
        async with async_playwright() as playwright:
            os.environ.setdefault("WEBR4_BENCH_CHROMIUM", chromium_path(playwright))
        async with Driver() as driver:
            for name, root in apps:
                print(f"regression_tests: {name} ...", file=sys.stderr, flush=True)
                row = AppRow(name)
                with serve(root) as base:
                    try:
                        run = await explore_app(driver, f"{base}{name}/", steps, Path(scratch) / name)
                    except Exception as error:  # noqa: BLE001 - one app's failure is its row
                        row.error = str(error).splitlines()[0][:200] if str(error) else type(error).__name__
                        rows.append(row)
                        measured(rows)
                        continue
                    confirmed = [r.index for r in RunDir(run).read_summary().harmful()
                                 if r.confirmation_status == "confirmed"]
                    row.confirmed = len(confirmed)
                    row.races = [measure_race(name, run, index, base, Path(scratch) / "tests", node)
                                 for index in confirmed]
                rows.append(row)
                measured(rows)
                print(f"regression_tests: {json.dumps(asdict(row))}", file=sys.stderr, flush=True)
    return rows


def _with_earlier(rows: list[AppRow], order: list[str]) -> list[AppRow]:
    """``rows`` (some apps, measured now) with the other apps' rows as the results file last holds
    them, in the corpus's ``order``."""
    stored = RESULTS / "regression_tests.json"
    earlier = json.loads(stored.read_text())["section"]["data"] if stored.is_file() else []
    by_app = {raw["app"]: AppRow(raw["app"], raw["confirmed"], [RaceRow(**race) for race in raw["races"]],
                                 raw["error"]) for raw in earlier}
    by_app.update({row.app: row for row in rows})
    return [by_app[name] for name in order if name in by_app]


def _playwright_test() -> bool:
    """Whether ``@playwright/test`` is installed for the TypeScript form (installing it once)."""
    if shutil.which("node") is None:
        return False
    package = "@playwright/test@" + ".".join(version("playwright").split(".")[:2])
    return npm_install(PLAYWRIGHT_TEST, [package], who="regression_tests",
                       otherwise="the TypeScript form is not measured")


def table(rows: list[AppRow], node: bool) -> str:
    races = [race for row in rows for race in row.races]
    head = ("| app | reversal | race | lines (py / ts) | pytest: failed with levers | pytest: passed without "
            f"(of {REPEATS}) | Playwright Test: failed with levers | Playwright Test: passed without (of {REPEATS}) |\n"
            "|---|---:|---|---|---:|---:|---:|---:|")
    lines = [head]
    for race in races:
        if race.python_lines is None:
            lines.append(f"| {race.app} | {race.reversal} | no test: {race.why} | | | | | |")
            continue
        ts = (f"{race.typescript_failed_with_levers} | {race.typescript_passed_without}" if node else "– | –")
        lines.append(f"| {race.app} | {race.reversal} | {race.story} | {race.python_lines} / {race.typescript_lines} | "
                     f"{race.python_failed_with_levers} | {race.python_passed_without} | {ts} |")
    written = [r for r in races if r.python_lines is not None]
    good = [r for r in written if r.python_failed_with_levers and r.python_passed_without == REPEATS
            and (not node or (r.typescript_failed_with_levers and r.typescript_passed_without == REPEATS))]
    errors = [f"{row.app}: {row.error}" for row in rows if row.error]
    lines += ["", f"{len(races)} confirmed races on {len(rows)} apps; {len(written)} with generated tests; "
                  f"{len(good)} of them fail with their levers and pass {REPEATS} of {REPEATS} runs without"
                  f"{' (both forms)' if node else ' (pytest form; no Node here)'}."]
    failed = [f"- {race.app}, reversal {race.reversal}: {failure}" for race in races
              for failure in dict.fromkeys(race.failed_without)]
    if failed:
        lines += ["", "Runs without levers that did not pass:", *failed]
    if errors:
        lines += ["", "Not measured: " + "; ".join(errors)]
    return "\n".join(lines)


def run(sites: list[Path]) -> Section:  # noqa: ARG001 - the section measures the npm apps, not the sites
    corpus = load_apps()
    apps_dir = ensure_apps(corpus)
    title = "Generated regression tests on the real-app corpora, against the unmodified apps"
    if apps_dir is None:
        return Section(title, "not measured: the npm packages could not be installed", [])
    only = set(os.environ.get("REGRESSION_APPS", "").split(",")) - {""}
    apps = [(app.name, apps_dir) for app in corpus.apps] + [(name, TODOMVC) for name in LOADER_APPS]
    order = [name for name, _ in apps]
    apps = [(name, root) for name, root in apps if not only or name in only]
    node = _playwright_test()

    def section(rows: list[AppRow]) -> Section:
        rows = _with_earlier(rows, order) if only else rows
        return Section(title, table(rows, node), [asdict(row) for row in rows])

    def keep(rows: list[AppRow]) -> None:
        section(rows).write(RESULTS / "regression_tests")

    rows = asyncio.run(measure(apps, corpus.session, node, keep))
    return section(rows)


if __name__ == "__main__":  # some apps again: REGRESSION_APPS=a,b python -m benchmarks.regression_tests
    run([]).write(RESULTS / "regression_tests")
