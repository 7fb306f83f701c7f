"""What a user keeps of a race, run as its users run it, in a fresh virtual environment with only
pytest, pytest-playwright and playwright (and ``@playwright/test`` from the npm registry for the
TypeScript form).

The generated tests run against the live site: for every bundled site with a harmful race, each
fails on the racy site and passes on its fixed twin served in its place (nothing recorded again).
The two forms run side by side: they mostly wait, on assertions that must fail and on responses
held. (Without its levers a test may fail on a racy site too: the race is real, and a real network
runs it either way; the real-app benchmark runs them so.) The offline test serves the recorded
responses, so it sees a fix only once the fixed page is recorded; the traces hold both plain runs.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
import zipfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import pytest
from click.testing import CliRunner

from webr4.browser.driver import Driver
from webr4.cli import main
from webr4.checking import SweepOptions, explore_session
from webr4.record.session import record
from webr4.serve import serve
from webr4.sweep.regression import Keep, export_witness
from webr4.sweep.settings import SweepSettings
from webr4.witness.writers import LEVERS_SWITCH

from ..conftest import SITES, expected, installing, site_names

pytestmark = pytest.mark.browser

HARMFUL = [site for site in site_names() if expected(site)["harmful"]]
RACY_EXPECT_MS = 2_000
"""How long a web-first assertion waits on the racy site: only how soon a failing test ends."""
FIXED_EXPECT_MS = 15_000
"""How long one waits on a fixed site, where every assertion must pass: as long as a busy machine needs."""

CONFTEST = '''import os

import pytest
from playwright.sync_api import expect

expect.set_options(timeout=int(os.environ.get("EXPECT_MS", "5000")))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": os.environ["CHROMIUM"]}
'''

PLAYWRIGHT_CONFIG = '''import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: ".",
  workers: 1,
  expect: { timeout: Number(process.env.EXPECT_MS ?? 5000) },
  use: { baseURL: process.env.BASE_URL, launchOptions: { executablePath: process.env.CHROMIUM } },
});
'''


@dataclass(frozen=True)
class Generated:
    """The sites' copies served at ``base`` from ``root``, and the tests generated from them."""

    root: Path
    base: str
    python: Path  # a directory of test_<site>.py files
    typescript: Path  # a directory of <site>.spec.ts files
    runs: dict[str, tuple[Path, int]]  # site -> its run directory and harmful reversal


@pytest.fixture(scope="module")
def generated(driver, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Generated]:
    """Every harmful site copied (without its twin) and served, recorded and swept in the shared
    browser, and its first harmful reversal generated in both forms."""
    root, work = tmp_path_factory.mktemp("served"), tmp_path_factory.mktemp("work")
    python, typescript = work / "python", work / "typescript"
    for site in HARMFUL:
        shutil.copytree(SITES / site, root / site, ignore=shutil.ignore_patterns("fixed"))
    with serve(root) as base:

        async def generate_all(shared: Driver) -> dict[str, tuple[Path, int]]:
            runs = {}
            for site in HARMFUL:
                out = work / site
                session = await record(shared, f"{base}{site}/", out / "session", expected(site)["session"])
                options = SweepOptions(SweepSettings(max_sequences=6, bound=1), confirm="none")
                summary = await explore_session(session, out, options, driver=shared)
                reversal = summary.harmful()[0].id
                keep = Keep(pytest=python / f"test_{site.replace('-', '_')}.py",
                            playwright_test=typescript / f"{site}.spec.ts")
                await export_witness(out, reversal, keep, browser=shared.browser)
                runs[site] = out, reversal
            return runs

        runs = driver.run(generate_all)
        (python / "conftest.py").write_text(CONFTEST)
        (typescript / "playwright.config.ts").write_text(PLAYWRIGHT_CONFIG)
        yield Generated(root, base, python, typescript, runs)


@contextmanager
def fixed_twins(root: Path) -> Iterator[None]:
    """Each served site replaced by its fixed twin (its ``fixed/`` files over the racy ones), and
    put back afterwards."""
    saved = root.parent / f"{root.name}-racy"
    shutil.copytree(root, saved)
    try:
        for site in HARMFUL:
            for twin in (SITES / site / "fixed").iterdir():
                shutil.copyfile(twin, root / site / twin.name)
        yield
    finally:
        shutil.rmtree(root)
        saved.rename(root)


def _environment(tmp: Path, levers: str, expect_ms: int) -> dict[str, str]:
    from playwright.sync_api import sync_playwright

    from webr4.browser.launch import chromium_path

    with sync_playwright() as playwright:
        chromium = chromium_path(playwright)
    return {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp), "CHROMIUM": chromium,
            LEVERS_SWITCH: levers, "EXPECT_MS": str(expect_ms)}


def _pytest_outcomes(python: Path, generated: Generated, env: dict[str, str], report: Path) -> dict[str, str]:
    """Each generated pytest test's outcome (``passed``, or its failure message)."""
    subprocess.run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "--base-url",
                    generated.base.rstrip("/"), f"--junitxml={report}", "."],
                   cwd=generated.python, env=env, capture_output=True, text=True, timeout=600, check=False)
    outcomes = {}
    for case in ElementTree.parse(report).iter("testcase"):
        failure = case.find("failure")
        if failure is None:
            failure = case.find("error")
        outcomes[case.get("classname", "").rsplit(".", 1)[-1]] = \
            "passed" if failure is None else (failure.get("message") or "failed")
    return outcomes


@dataclass(frozen=True)
class Outcomes:
    """Each form's outcome per generated test, on the racy sites and on their fixed twins; the
    TypeScript form's are None, with ``no_typescript`` saying why, when it could not run."""

    pytest_racy: dict[str, str]
    pytest_fixed: dict[str, str]
    typescript_racy: dict[str, str] | None
    typescript_fixed: dict[str, str] | None
    no_typescript: str = ""


@pytest.fixture(scope="module")
def outcomes(generated: Generated, fresh_python: Path, request: pytest.FixtureRequest,
             tmp_path_factory: pytest.TempPathFactory) -> Outcomes:
    """Both forms run side by side on the racy sites, then on their fixed twins."""
    modules, no_typescript = _playwright_test(request)
    tmp = tmp_path_factory.mktemp("outcomes")
    runs: list[tuple[dict[str, str], dict[str, str] | None]] = []
    with ThreadPoolExecutor(max_workers=2) as pool:
        for state, expect_ms in (("racy", RACY_EXPECT_MS), ("fixed", FIXED_EXPECT_MS)):
            with fixed_twins(generated.root) if state == "fixed" else nullcontext():
                env = _environment(tmp, "on", expect_ms)
                python = pool.submit(_pytest_outcomes, fresh_python, generated, env, tmp / f"{state}.xml")
                typescript = pool.submit(_spec_outcomes, generated, modules, env) if modules else None
                runs.append((python.result(), typescript.result() if typescript else None))
    (pytest_racy, typescript_racy), (pytest_fixed, typescript_fixed) = runs
    return Outcomes(pytest_racy, pytest_fixed, typescript_racy, typescript_fixed, no_typescript)


def test_the_pytest_form_fails_on_the_race_and_passes_once_the_site_is_fixed(outcomes: Outcomes) -> None:
    names = {f"test_{site.replace('-', '_')}" for site in HARMFUL}
    assert set(outcomes.pytest_racy) == names
    unforced = {name: message for name, message in outcomes.pytest_racy.items() if "AssertionError" not in message}
    assert not unforced, "each must fail on an assertion of the outcome"
    assert outcomes.pytest_fixed == {name: "passed" for name in names}  # the fixed site passes in the forced order


def _playwright_test(request: pytest.FixtureRequest) -> tuple[Path | None, str]:
    """A directory whose ``node_modules`` holds ``@playwright/test`` of the Python package's
    minor version, from the npm registry (cached); else None, and why."""
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        return None, "Node is not installed: the TypeScript form is checked in the benchmark"
    package = "@playwright/test@" + ".".join(version("playwright").split(".")[:2])  # the newest patch of that minor
    directory = Path(request.config.cache.mkdir("webr4-playwright-test"))
    with installing(directory):
        marker = directory / ".webr4-installed"
        if not (marker.exists() and marker.read_text() == package):
            try:
                done = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--prefix", str(directory), package],
                                      capture_output=True, text=True, timeout=600, check=False)
            except subprocess.TimeoutExpired:
                return None, "npm install timed out: is the npm registry reachable?"
            if done.returncode != 0:
                return None, f"npm install {package} failed: {done.stderr.strip()[-300:]}"
            marker.write_text(package)
    return directory, ""


def _spec_outcomes(generated: Generated, modules: Path, env: dict[str, str]) -> dict[str, str]:
    """Each generated spec's outcome (``passed``, or its first error message)."""
    link = generated.typescript / "node_modules"
    if not link.exists():
        link.symlink_to(modules / "node_modules", target_is_directory=True)
    done = subprocess.run([str(modules / "node_modules" / ".bin" / "playwright"), "test", "--reporter=json"],
                          cwd=generated.typescript, env={**env, "BASE_URL": generated.base},
                          capture_output=True, text=True, timeout=600, check=False)
    report = json.loads(done.stdout)
    outcomes = {}
    for suite in report["suites"]:
        for spec in suite["specs"]:
            results = [result for test in spec["tests"] for result in test["results"]]
            errors = [result.get("error", {}).get("message", "failed") for result in results
                      if result["status"] != "passed"]
            outcomes[suite["file"]] = errors[0] if errors else "passed"
    return outcomes


def test_the_typescript_form_fails_on_the_race_and_passes_once_the_site_is_fixed(outcomes: Outcomes) -> None:
    if outcomes.typescript_racy is None:
        pytest.skip(outcomes.no_typescript)
    files = {f"{site}.spec.ts" for site in HARMFUL}
    assert set(outcomes.typescript_racy) == files
    unforced = {name: message for name, message in outcomes.typescript_racy.items() if "expect(" not in message}
    assert not unforced, "each must fail on an assertion of the outcome"
    assert outcomes.typescript_fixed == {name: "passed" for name in files}


def test_a_generated_test_reads_as_the_race(generated):
    """The pytest form of the click before ``cart.js``: a lever per line, the outcome asserted."""
    source = (generated.python / "test_click_during_parse.py").read_text()
    body = source[source.index("def test_click_during_parse"):]
    assert 'race.hold("/click-during-parse/cart.js")' in body
    assert "race.early(page.locator(\"#add\").click, held=[cart_js])" in body
    assert body.index("race.early(") < body.index("race.release(cart_js)")
    assert 'expect(page.locator("#cart")).to_have_text("Cart: 1 item")' in body
    assert len(source.splitlines()) <= 130
    compile(source, "test_click_during_parse.py", "exec")


def _trace_events(path: Path) -> tuple[list[dict], list[str]]:
    with zipfile.ZipFile(path) as trace:
        events = [json.loads(line) for line in trace.read("trace.trace").decode().splitlines() if line]
        return events, trace.namelist()


def test_the_offline_test_sees_the_race_in_the_recorded_responses(generated, fresh_python, tmp_path):
    run, reversal = generated.runs["two-xhr"]
    kept = tmp_path / "kept"
    exported, traces = kept / "test_shop.py", kept / "shop.zip"
    witness = CliRunner().invoke(main, ["witness", str(run), str(reversal), "--pytest", str(exported), "--offline",
                                        "--trace", str(traces)])
    assert witness.exit_code == 0, witness.output

    def run_exported() -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(fresh_python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:playwright",
                               exported.name], cwd=kept, env=_environment(tmp_path, "on", 5_000),
                              capture_output=True, text=True, timeout=300, check=False)

    racy = run_exported()
    assert racy.returncode == 1 and "dom differs" in racy.stdout, racy.stdout + racy.stderr
    with fixed_twins(generated.root):
        twin = CliRunner().invoke(main, ["record", f"{generated.base}two-xhr/", "--out", str(tmp_path / "twin")])
    assert twin.exit_code == 0, twin.output
    shutil.copyfile(tmp_path / "twin" / "network.har", exported.with_suffix(".har"))
    fixed = run_exported()
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr

    for path in (kept / "shop-parent.zip", traces):
        events, files = _trace_events(path)
        navigations = [e for e in events if e.get("type") == "before" and e.get("method") == "goto"]
        assert [e["params"]["url"] for e in navigations] == [f"{generated.base}two-xhr/"]
        assert any(name.startswith("screencast/") for name in files)
        assert any(e.get("type") == "frame-snapshot" for e in events)


@pytest.fixture(scope="module")
def fresh_python(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The Python of a new virtual environment outside the checkout holding only pytest,
    pytest-playwright and playwright (from the package index), removed once the module's tests
    are done; the test is skipped with the reason when pip cannot get them."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True)
    python = venv / "bin" / "python"
    try:  # this pip installs into it: a fifth of the time of the new environment's own
        installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                                    "--no-compile", "pytest", "pytest-playwright",
                                    f"playwright=={version('playwright')}"],
                                   capture_output=True, text=True, timeout=600, check=False)
    except subprocess.TimeoutExpired:
        pytest.skip("pip install timed out: is the package index reachable?")
    if installed.returncode != 0:
        pytest.skip(f"pip install failed (package index unreachable?): {installed.stderr.strip()[-300:]}")
    yield python
    shutil.rmtree(venv, ignore_errors=True)
