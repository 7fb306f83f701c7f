"""The webr4 pytest plugin: an existing Playwright test becomes the seed session of a sweep.

Mark a test that takes the Playwright ``page`` fixture; its body stays as it is::

    @pytest.mark.webr4(url="http://127.0.0.1:8000/shop/", bound=1)
    def test_add_to_cart(page):
        page.click("#add")
        expect(page.locator("#cart")).to_have_text("Cart: 1 item")

The test runs as usual against the live site, on a page opened at ``url`` (without ``url``: at
wherever the test's own ``page.goto`` went before its first action), and its user actions are
written down (see :mod:`webr4.record.scripted`). Then webr4 records that session under control,
explores its conflict reversals with bound ``bound`` and writes the report into the run
directory ``<--webr4-out>/<module>.<test name>``. The test fails, naming every harmful reversal
and the report, when one is found; ``webr4_report`` among the test's user properties (and so in
pytest's own ``--junitxml``) is the report's path.

Options: ``--webr4-bound K`` (for markers without ``bound``; default 1, and 2 under
``--webr4-deflake``), ``--webr4-out DIR`` (default ``test-output/webr4`` under the root
directory) and ``--webr4-off`` (marked tests run as plain Playwright tests). Masks and rules
come from ``webr4.toml`` in the root directory.

The ``page`` fixture is pytest-playwright's when that plugin is installed; otherwise this plugin
provides one to marked tests only. Unmarked tests are untouched, and importing this module loads
nothing but pytest: the browser machinery is imported when a marked test runs.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

import pytest

from webr4.errors import Webr4Error

if TYPE_CHECKING:
    from webr4.record.testpage import SeedPage
    from webr4.rundir.summary import Summary

MARKER = "webr4"
DEFLAKE_BOUND = 2
"""deflake's conflict-reversal bound unless told otherwise: a test's step that beat the page's
script often races only the load event that follows the script at one reversal (covering the
race with the script), and the script itself at the second."""
_UNSAFE = re.compile(r"[^\w.-]+")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("webr4", "webr4: harmful event races in tests marked webr4")
    group.addoption("--webr4-bound", type=int, default=None, metavar="K",
                    help="conflict-reversal bound for marked tests that set none (default 1), and of "
                         f"--webr4-deflake (default {DEFLAKE_BOUND})")
    group.addoption("--webr4-out", type=Path, metavar="DIR",
                    help="directory for the run directories, one per test (default test-output/webr4)")
    group.addoption("--webr4-off", action="store_true", help="run tests marked webr4 as plain Playwright tests")
    group.addoption("--webr4-budget", type=float, metavar="SECONDS",
                    help="with --webr4-deflake: explore each test anytime for this long, up to --webr4-bound")
    group.addoption("--webr4-deflake", type=Path, metavar="RUN",
                    help="find the event orders that fail each Playwright test (no marker needed), propose a "
                         "verified fix, and write them into the run directory RUN (see webr4 deflake)")
    group.addoption("--webr4-resume", action="store_true",
                    help="with --webr4-deflake: keep each test RUN has judged already, and deflake the others")
    group.addoption("--webr4-part", action="store_true",
                    help="with --webr4-deflake: write each test's entry and leave RUN's summary to whoever runs "
                         "the other tests beside these (webr4 deflake --cluster)")
    group.addoption("--webr4-workers", type=int, default=1, metavar="N",
                    help="with --webr4-deflake: run each test's executions N at a time, each process with a browser")
    group.addoption("--webr4-cluster", metavar="ADDRESS",
                    help="with --webr4-deflake: run each test's executions on the Dask cluster at ADDRESS "
                         "(tcp://HOST:PORT, or local:N)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{MARKER}(url=None, bound=None): explore the test's Playwright flow for "
                                       "harmful event races and fail when there is one")
    if not config.pluginmanager.hasplugin("playwright"):
        config.pluginmanager.register(_PageFixture(), "webr4-page")
    else:
        from webr4 import pytest_chromium

        config.pluginmanager.register(pytest_chromium, "webr4-chromium")


class _PageFixture:
    """``page`` for marked tests when pytest-playwright (which owns that fixture) is not installed."""

    @pytest.fixture
    def page(self, request: pytest.FixtureRequest) -> Iterator[Any]:
        if request.node.get_closest_marker(MARKER) is None:
            pytest.fail("the 'page' fixture comes from pytest-playwright, which is not installed; webr4 "
                        "provides it only to tests marked webr4", pytrace=False)
        from webr4.record.scripted import plain_page

        with plain_page("about:blank") as page:
            yield page


class SweepFailed(Webr4Error):
    """The session could not be recorded or explored (one line, for the test's failure)."""


def sweep(url: str, steps: list[dict[str, Any]], run_dir: Path, bound: int,
          root: Path) -> tuple[Summary, Path]:
    """Record ``url`` with ``steps`` into ``run_dir/session``, explore it with ``bound`` and write
    the report; return the run's summary and the report's index page.

    The sweep runs on a thread of its own: the test's synchronous Playwright may still hold an
    event loop on this one.
    """
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from webr4.checking import SweepOptions, check
    from webr4.config import load_settings
    from webr4.sweep.settings import SweepSettings

    try:
        settings = load_settings(root)
        # the marker's bound, the file's mask and rules; the file's other [explore] limits are the CLI's
        sweep_settings = SweepSettings.from_settings(settings, bound=bound, strategy="r4", max_sequences=None,
                                                     time_limit=None, budget=None)
    except Webr4Error as error:
        raise SweepFailed(str(error)) from None
    options = SweepOptions(sweep_settings, confirm=settings.explore.get("confirm", "harmful"))
    try:
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="webr4-sweep") as pool:
            checked = pool.submit(lambda: asyncio.run(check(url, run_dir, steps, options=options))).result()
    except Webr4Error as error:
        raise SweepFailed(str(error)) from None
    return checked.summary, checked.report


@dataclass(frozen=True)
class Check:
    """What a marked test asks for."""

    url: str | None
    bound: int
    run_dir: Path


def _check(item: pytest.Function, marker: pytest.Mark) -> Check:
    """The marker's arguments, with the options' defaults; a bad marker fails in one line."""
    unknown = sorted(set(marker.kwargs) - {"url", "bound"})
    if marker.args or unknown:
        got = ", ".join(unknown) or "positional arguments"
        pytest.fail(f"@pytest.mark.webr4 takes only url= and bound= (got {got})",
                    pytrace=False)
    given = item.config.getoption("webr4_bound")
    bound = marker.kwargs.get("bound", 1 if given is None else given)
    if not isinstance(bound, int) or isinstance(bound, bool) or bound < 0:
        pytest.fail(f"webr4 bound must be a whole number of at least 0, not {bound!r}", pytrace=False)
    base = item.config.getoption("webr4_out") or item.config.rootpath / "test-output" / "webr4"
    name = _UNSAFE.sub("-", f"{item.path.stem}.{item.name}").strip("-")
    return Check(marker.kwargs.get("url"), bound, Path(base).resolve() / name)


_CHECK = pytest.StashKey[Check]()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Read a marked test's marker before its fixtures start a browser: a bad one fails at once."""
    marker = item.get_closest_marker(MARKER)
    if marker is not None and isinstance(item, pytest.Function):
        item.stash[_CHECK] = _check(item, marker)


@pytest.hookimpl(tryfirst=True, specname="pytest_pyfunc_call")
def pytest_pyfunc_call_deflake(pyfuncitem: pytest.Function) -> bool | None:
    """Under ``--webr4-deflake``, deflake the test instead of calling it once."""
    run = pyfuncitem.config.getoption("webr4_deflake")
    if run is None:
        return None
    from webr4.deflake.testrun import DeflakeOptions, deflake_item

    option = pyfuncitem.config.getoption
    bound = option("webr4_bound")
    deflake_item(pyfuncitem, Path(run).resolve(),
                 DeflakeOptions(DEFLAKE_BOUND if bound is None else bound, option("webr4_budget"),
                                option("webr4_workers"), option("webr4_cluster"), option("webr4_resume")))
    return True


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """Under ``--webr4-deflake``, write the run's summary and fix from the tests' entries (first:
    tearing down a browser an interrupt took down may raise out of pytest)."""
    run = session.config.getoption("webr4_deflake")
    if run is None or not session.items or session.config.getoption("webr4_part"):
        return
    from webr4.deflake.results import gather

    gather(Path(run).resolve(), [item.nodeid for item in session.items])


@pytest.hookimpl(wrapper=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> Iterator[None]:
    """Run a marked test on a recording page, then sweep the session it performed."""
    check = pyfuncitem.stash.get(_CHECK, None)
    if check is None:
        return (yield)
    page: Any = pyfuncitem.funcargs.get("page")
    if page is None:
        pytest.fail(f"{pyfuncitem.name} is marked webr4 but takes no Playwright 'page' fixture", pytrace=False)
    if pyfuncitem.config.getoption("webr4_off"):
        if check.url is not None:
            page.goto(check.url)
        return (yield)
    from webr4.record.testpage import SeedPage

    seed = SeedPage.open(page, check.url)
    pyfuncitem.funcargs["page"] = seed
    try:
        outcome = yield
    finally:
        pyfuncitem.funcargs["page"] = page
    _sweep_and_judge(pyfuncitem, check, seed)
    return outcome


def _sweep_and_judge(item: pytest.Function, check: Check, seed: SeedPage) -> None:
    from webr4.report.ci import in_words, unfinished_reason

    if seed.seed_url is None:
        pytest.fail(f"{item.name} never opened a page: give @pytest.mark.webr4(url=...) or call page.goto",
                    pytrace=False)
    _clear(check.run_dir)
    try:
        summary, report = sweep(seed.seed_url, seed.steps, check.run_dir, check.bound, item.config.rootpath)
    except SweepFailed as error:
        pytest.fail(f"webr4 could not explore {item.name}: {error}", pytrace=False)
    item.user_properties.append(("webr4_report", str(report)))
    unfinished = unfinished_reason(check.run_dir, summary)
    if unfinished:  # partial verdicts must not pass a test
        pytest.fail(f"webr4 could not explore {item.name}: {unfinished}", pytrace=False)
    found = summary.harmful()
    if found:
        lines = [f"webr4: {len(found)} harmful event race(s) in {seed.seed_url} with the actions of {item.name} "
                 f"(bound {check.bound}, {summary.sequences} sequences)"]
        lines += [in_words(check.run_dir, reversal) for reversal in found]
        lines.append(f"report: {report}")
        pytest.fail("\n".join(lines), pytrace=False)


def _clear(run_dir: Path) -> None:
    """Remove the run directory of an earlier run of the test; anything else in the way fails it."""
    from webr4.rundir.run import RunDir

    if not run_dir.exists():
        return
    run = RunDir(run_dir)
    if not (run.summary.is_file() or run.own_session.directory.is_dir()):
        pytest.fail(f"{run_dir} is in the way and is not a webr4 run directory; remove it or use --webr4-out",
                    pytrace=False)
    shutil.rmtree(run_dir)
