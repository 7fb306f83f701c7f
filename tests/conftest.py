"""Shared fixtures: the bundled sites on loopback and one Chromium for the whole run."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Coroutine, Iterator

import pytest
from hypothesis import HealthCheck, settings

from webr4.resources import resource_dir
from webr4.serve import serve

if TYPE_CHECKING:
    from playwright.async_api import Page

    from webr4.browser.driver import Driver

SITES = resource_dir("sites")

# Speed is measured by the benchmarks, never asserted by tests: machines running the suite are
# shared, so Hypothesis gets no per-example deadline and no "too slow" health check.
settings.register_profile("webr4", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("webr4")

QUICK_EXAMPLES = 10
"""The most examples a property test tries under ``--quick`` (``make test-fast``)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--quick", action="store_true",
                     help=f"property tests try at most {QUICK_EXAMPLES} examples each (make test-fast)")


LONGEST_FIRST = ("deflake/test_deflake.py", "witness/test_export.py", "cli/test_interrupts.py",
                 "cli/test_signals.py", "browser/test_step_wait.py", "sweep/test_scale.py",
                 "browser/test_fidelity.py", "packaging/test_wheel.py", "sweep/test_verdicts.py",
                 "ci/test_pytest_plugin.py", "witness/test_confirm_sites.py", "sweep/test_cli.py",
                 "campaign/test_campaign.py")
"""The test files that take longest (``pytest --durations=0``, summed per file), longest first:
they run first, so that two workers end together rather than one finishing a long file alone.
The order only places files; a file missing here runs after these, in its usual place."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The longest test files first (:data:`LONGEST_FIRST`). Under ``--quick``, every property
    test tries at most :data:`QUICK_EXAMPLES` examples; its own settings hold otherwise.
    Hypothesis keeps a test's settings on the test function, where its runner reads them when
    the test is called."""
    tests = Path(__file__).parent

    def rank(item: pytest.Item) -> int:
        relative = Path(str(item.path)).relative_to(tests).as_posix() if tests in Path(str(item.path)).parents \
            else ""
        return LONGEST_FIRST.index(relative) if relative in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # stable: within a file, and among the others, the collection's order
    if not config.getoption("--quick"):
        return
    for item in items:
        test = getattr(item, "obj", None)
        chosen = getattr(test, "_hypothesis_internal_use_settings", None)
        if test is not None and isinstance(chosen, settings) and chosen.max_examples > QUICK_EXAMPLES:
            test._hypothesis_internal_use_settings = settings(chosen, max_examples=QUICK_EXAMPLES)


def pytest_configure(config: pytest.Config) -> None:
    """Rewrites are cached on disk inside the pytest cache, never in the user's cache directory."""
    cache = getattr(config, "cache", None)  # absent under ``-p no:cacheprovider``
    directory = cache.mkdir("webr4-cache") if cache is not None else tempfile.mkdtemp(prefix="webr4-")
    os.environ.setdefault("WEBR4_CACHE_DIR", str(directory))


STAND_IN = """#!/bin/sh
echo "$*" >> "$WEBR4_STARTED_CHROMIUM"
echo "this test is not marked browser: it may not start Chromium" >&2
exit 1
"""


@pytest.fixture(scope="session")
def refusing_chromium(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A stand-in for Chromium that notes each start in ``$WEBR4_STARTED_CHROMIUM`` and exits."""
    path = tmp_path_factory.mktemp("refusing-chromium") / "chromium"
    path.write_text(STAND_IN)
    path.chmod(0o755)
    return path


@pytest.fixture(autouse=True)
def no_chromium_unless_marked(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch,
                              tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A test not marked ``browser`` (what ``make test-fast`` runs) that starts Chromium, in this
    process or in one it starts, fails: every launch of webr4 and of the suite goes through
    ``WEBR4_CHROMIUM``, which points it to a stand-in that notes the start and refuses it."""
    if request.node.get_closest_marker("browser"):
        yield
        return
    started = tmp_path_factory.mktemp("chromium-starts") / "started"
    monkeypatch.setenv("WEBR4_CHROMIUM", str(request.getfixturevalue("refusing_chromium")))
    monkeypatch.setenv("WEBR4_STARTED_CHROMIUM", str(started))
    yield
    if started.exists():
        pytest.fail(f"{request.node.nodeid} started Chromium but is not marked browser: "
                    "mark it @pytest.mark.browser (or its module pytestmark)", pytrace=False)


def site_names() -> list[str]:
    return sorted(p.name for p in SITES.iterdir() if (p / "expected.json").is_file())


def expected(name: str) -> dict[str, Any]:
    return json.loads((SITES / name / "expected.json").read_text())


@pytest.fixture(scope="session")
def sites_url() -> Iterator[str]:
    with serve(SITES) as base:
        yield base


@pytest.fixture(scope="session")
def output_dir() -> Path:
    """Where tests leave files for people to look at (screenshots, reports)."""
    path = Path(__file__).resolve().parent.parent / "test-output"
    path.mkdir(exist_ok=True)
    return path


PLAIN_PATIENCE_MS = 30_000
"""How long a plain-Chromium oracle waits for the page to show what it waits for: only how
soon a test whose page never gets there fails."""


class SyncDriver:
    """The asynchronous driver, run on one event loop for the whole test session."""

    def __init__(self) -> None:
        from webr4.browser.driver import Driver

        self._runner = asyncio.Runner()
        self._driver = self._runner.run(Driver().__aenter__())

    def execute(self, url: str, plan: list[str] | tuple[str, ...] = (), **options: Any):
        return self._runner.run(self._driver.execute(url, plan, **options))

    def run(self, work: Callable[[Driver], Coroutine[Any, Any, Any]]) -> Any:
        """What ``work`` returns given the session's driver: a record and sweep in the shared
        browser cost no Chromium start of their own (every execution has a fresh context)."""
        return self._runner.run(work(self._driver))

    def in_plain_chromium(self, work: Callable[[Page], Awaitable[Any]]) -> Any:
        """What ``work`` returns for a page in a fresh context of the same browser, without webr4."""

        async def run() -> Any:
            context = await self._driver.browser.new_context()
            try:
                return await work(await context.new_page())
            finally:
                await context.close()

        return self._runner.run(run())

    def plain(self, url: str, expression: str, settle_ms: int = 500, until: str | None = None) -> Any:
        """Load ``url`` in plain Chromium and evaluate ``expression`` once the page has loaded
        and, given ``until`` (a JavaScript expression), once it is true, else once ``settle_ms``
        have passed. A page whose end can be told should give ``until``: a fixed settle is a
        margin a busy machine may overrun."""

        async def load(page: Page) -> Any:
            await page.goto(url, wait_until="load")
            if until is None:
                await page.wait_for_timeout(settle_ms)
            else:
                await page.wait_for_function(until, timeout=PLAIN_PATIENCE_MS)
            return await page.evaluate(expression)

        return self.in_plain_chromium(load)

    def close(self) -> None:
        self._runner.run(self._driver.__aexit__(None, None, None))
        self._runner.close()


@pytest.fixture(scope="session")
def driver() -> Iterator[SyncDriver]:
    d = SyncDriver()
    yield d
    d.close()


@contextmanager
def installing(directory: Path) -> Iterator[None]:
    """Hold ``directory`` for oneself while checking and filling it: the suite's worker processes
    (``pytest -n``) share the pytest cache, and the first to need a download makes it while the
    others wait for it."""
    with open(directory / ".webr4-lock", "w") as lock:  # closing it lets the next one in
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


NPM_PACKAGES = ["jquery@3", "react@18", "react-dom@18", "vue@3", "jsdom@24", "prettier@3"]


@pytest.fixture(scope="session")
def npm_dir(request: pytest.FixtureRequest) -> Path:
    """A directory whose ``node_modules`` holds real libraries from the npm registry (installed
    once into the pytest cache); the test is skipped with the reason when npm cannot get them."""
    directory = Path(request.config.cache.mkdir("webr4-instrument-npm"))
    with installing(directory):
        _npm_install(directory)
    return directory


def _npm_install(directory: Path) -> None:
    marker = directory / ".webr4-installed"
    if marker.exists() and marker.read_text() == " ".join(NPM_PACKAGES):
        return
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: cannot fetch jQuery, React and Vue from the npm registry")
    try:
        completed = subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--prefix", str(directory), *NPM_PACKAGES],
            capture_output=True, text=True, timeout=600, check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.skip("npm install timed out: is the npm registry reachable?")
    if completed.returncode != 0:
        pytest.skip(f"npm install failed (registry unreachable?): {completed.stderr.strip()[-500:]}")
    marker.write_text(" ".join(NPM_PACKAGES))
