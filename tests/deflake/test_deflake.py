"""``webr4 deflake`` on a small Playwright project of flaky tests, in a real Chromium.

Each test of ``project/`` passes on a fast server and fails when one response is slow: a read after
a fixed wait (``test_cart``, which opens its page from pytest-playwright's ``context``), a count
after a fixed wait for a debounced search (``test_search``), a click before a deferred script
attached its handler (``test_shop``), an item typed before the saved list arrived and replaced it
(``test_list``, whose fix waits for the status the list's handler writes). Deflake (two runs side
by side) must find each one's failing order, name the racing response, confirm it in plain
Chromium and offer a fix proven to remove it; ``--apply`` then writes the fixes, and the fixed
tests pass in plain Chromium under the slow response that fails the originals. ``test_badge``'s
app overwrites the added item with a late saved count: the test's stopgap waits for the saved
count's response before adding. ``test_prices``'s two prices, asked for at once, race: no wait of
the test orders them, so its proposed fix is refused.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from xml.etree import ElementTree

import pytest

pytestmark = pytest.mark.browser

PROJECT = Path(__file__).parent / "project"
SLOW = {"test_cart.py": "cart.json", "test_search.py": "results.json", "test_shop.py": "buy.js",
        "test_list.py": "saved.json", "test_badge.py": "added.json"}


FIXED_EXPECT_MS = 20_000
"""How long a fixed test's web-first assertion waits in :func:`_plain`: the slow response's 2.5 s
and whatever a loaded machine adds."""

HALVES = {"run": ["test_list.py", "test_prices.py", "test_cart.py"],
          "run-2": ["test_search.py", "test_shop.py", "test_badge.py", "--cluster", "local:2"]}
"""The project's tests in two deflake runs side by side (each mostly waits on its browser), into
``run`` and ``run-2`` beside the project; the second's tests run two at a time, each in a process
of its own, their executions on one local Dask cluster of two workers."""


@pytest.fixture(scope="module")
def deflaked(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[subprocess.CompletedProcess[str]], dict]:
    """The project copied, each half deflaked with ``--apply``; both runs' outcomes, and one
    summary holding every test's entry."""
    root = tmp_path_factory.mktemp("deflake")
    project = root / "project"
    shutil.copytree(PROJECT, project)
    with ThreadPoolExecutor(max_workers=len(HALVES)) as pool:
        runs = [pool.submit(subprocess.run, [sys.executable, "-m", "webr4", "deflake", *tests, "--out", str(root / run),
                                             "--apply"], cwd=project, capture_output=True, text=True, timeout=900)
                for run, tests in HALVES.items()]
        done = [run.result() for run in runs]
    summaries = [json.loads((root / run / "summary.json").read_text()) for run in HALVES]
    summary = {"tests": [entry for each in summaries for entry in each["tests"]]}
    return project, done, summary


def _entry(summary: dict, name: str) -> dict:
    return next(entry for entry in summary["tests"] if f"{name}::" in entry["test"])


def _plain(project: Path, name: str, slow: str | None) -> bool:
    """Whether the project's test ``name`` passes in plain Chromium with the response to ``slow``
    late; its assertions wait as long as a busy machine needs (deflake's runs wait the default)."""
    env = {**os.environ, "SLOW": slow or "", "EXPECT_MS": str(FIXED_EXPECT_MS)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", name], cwd=project,
                          env=env, capture_output=True, text=True, timeout=300)
    return done.returncode == 0


def test_a_test_that_can_fail_exits_1(deflaked) -> None:
    _project, done, summary = deflaked
    assert [run.returncode for run in done] == [1, 1], [run.stderr[-2000:] for run in done]
    assert {Path(e["test"].split("::")[0]).name for e in summary["tests"] if e["status"] == "flaky"} == {
        *SLOW, "test_prices.py"}


@pytest.mark.parametrize("name", sorted(SLOW))
def test_each_failing_order_names_its_response_and_is_confirmed(deflaked, name: str) -> None:
    _project, _done, summary = deflaked
    orders = _entry(summary, name)["flaky"]
    assert orders, f"no failing order found for {name}"
    assert any((order["racing"]["url"] or "").endswith(SLOW[name]) and order["confirmation"]["status"] == "confirmed"
               for order in orders)


def test_a_read_after_a_fixed_wait_is_the_tests_fault_and_waits_for_the_text(deflaked) -> None:
    _project, _done, summary = deflaked
    entry = _entry(summary, "test_cart.py")
    assert entry["flaky"][0]["fault"] == "test"
    assert entry["flaky"][0]["racing"]["step"].startswith("inner_text on #count")
    diff = entry["fix"]["diff"]
    assert entry["fix"]["verified"]
    assert '+    expect(page.locator("#count")).to_have_text("1", use_inner_text=True)' in diff
    assert "-    page.wait_for_timeout(200)" in diff


def test_typing_before_the_response_the_page_needs_waits_for_what_the_page_shows_of_it(deflaked) -> None:
    project, _done, summary = deflaked
    entry = _entry(summary, "test_list.py")
    assert entry["flaky"][0]["fault"] == "app" and entry["fix"]["verified"]
    # the saved list's handler ends by writing its status: what the test waits for before typing
    assert '+    expect(page.locator("#status")).to_have_text("2 saved")\n     page.fill("#new", "Milk")' \
        in entry["fix"]["diff"]
    # the app is at fault: the race also comes as a test against the live app, which fails until it is fixed
    regression = entry["flaky"][0]["regression"]
    test = (project.parent / "run" / regression["pytest"]).read_text()
    assert 'race.hold("/list/saved.json")' in test and "expect(page.locator(" in test
    assert (project.parent / "run" / regression["playwright_test"]).is_file()


def test_a_click_before_its_handler_is_the_apps_fault_too(deflaked) -> None:
    _project, _done, summary = deflaked
    entry = _entry(summary, "test_shop.py")
    assert entry["flaky"][0]["fault"] == "app"
    assert entry["fix"]["verified"]
    diff = entry["fix"]["diff"]
    # buy.js is deferred: the page has run it by DOMContentLoaded; checking the box counts as acting
    assert diff.index('+    page.wait_for_load_state("domcontentloaded")') < diff.index('page.click("#buy")')


@pytest.mark.parametrize("name", sorted(SLOW))
def test_applied_fixes_pass_in_plain_chromium_under_the_slow_response(deflaked, name: str) -> None:
    project, _done, _summary = deflaked
    assert (project / name).read_text() != (PROJECT / name).read_text(), "--apply did not write the fix"
    assert _plain(project, name, SLOW[name])


def test_two_page_responses_racing_get_the_tests_stopgap_when_one_starts_before_the_other(deflaked) -> None:
    _project, _done, summary = deflaked
    entry = _entry(summary, "test_badge.py")
    app_orders = [order for order in entry["flaky"] if order["fault"] == "app"]
    assert app_orders and app_orders[0]["racing"]["url"].endswith("saved.json")
    # plain Chromium's check of two responses' order rests on a few hundred milliseconds of real
    # time, so only the delay it was given is asserted here
    assert 0 < app_orders[0]["confirmation"]["delay_ms"] < 2500
    assert entry["fix"]["verified"]
    awaited = '+    with page.expect_response("**/badge/saved.json"):\n+        page.goto("/badge/")'
    assert awaited in entry["fix"]["diff"]


def test_a_fix_that_leaves_a_failing_order_is_refused(deflaked) -> None:
    project, _done, summary = deflaked
    entry = _entry(summary, "test_prices.py")
    # refused as the app's to order, or, when the race shows by itself (a loaded machine), as failing unslowed
    why = entry["fix"]["why"]
    assert not entry["fix"]["verified"] and ("the app must order them" in why or "without any slow response" in why)
    assert "test_prices.py" not in (project.parent / "run" / "fix.diff").read_text()
    assert (project / "test_prices.py").read_text() == (PROJECT / "test_prices.py").read_text()


def test_the_run_exports_a_testcase_per_test_and_a_sarif_result_at_each_failing_line(deflaked) -> None:
    project, _done, _summary = deflaked
    run = project.parent / "run"
    done = subprocess.run([sys.executable, "-m", "webr4", "export", str(run), "--junit", str(run.parent / "run.xml"),
                           "--sarif", str(run.parent / "run.sarif")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    cases = ElementTree.parse(run.parent / "run.xml").getroot().iter("testcase")
    failed = {case.get("classname") for case in cases if case.find("failure") is not None}
    assert failed == set(HALVES["run"])  # each test of the run can fail: test_prices too, with no fix
    entries = json.loads((run / "summary.json").read_text())["tests"]
    lines = {(e["test"].split("::")[0], order["line"]) for e in entries for order in e["flaky"]}
    results = json.loads((run.parent / "run.sarif").read_text())["runs"][0]["results"]
    located = {(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results}
    assert located == lines


def test_a_run_goes_on_only_when_asked_and_keeps_what_it_judged(deflaked) -> None:
    project, _done, _summary = deflaked
    run = project.parent / "run"
    entries = {path: path.read_text() for path in (run / "tests").glob("*/deflake.json")}
    again = [sys.executable, "-m", "webr4", "deflake", *HALVES["run"], "--out", str(run)]
    refused = subprocess.run(again, cwd=project, capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "--resume" in refused.stderr.strip().splitlines()[-1]
    resumed = subprocess.run([*again, "--resume"], cwd=project, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 1, resumed.stderr[-2000:]
    assert {path: path.read_text() for path in (run / "tests").glob("*/deflake.json")} == entries
    assert json.loads((run / "summary.json").read_text())["status"] == "finished"


@pytest.mark.parametrize("side_by_side", [[], ["--cluster", "local:2"]], ids=["one-by-one", "side-by-side"])
def test_an_interrupt_to_the_whole_process_group_stops_the_run_and_says_how_to_go_on(
        tmp_path: Path, side_by_side: list[str]) -> None:
    """As Ctrl-C in a terminal: SIGINT to webr4, pytest's browser and webr4's own (side by side:
    every test's process, and the cluster's workers), once the first test's sweep has begun."""
    project = tmp_path / "project"
    shutil.copytree(PROJECT, project)
    run = tmp_path / "run"
    deflaking = subprocess.Popen([sys.executable, "-m", "webr4", "deflake", "test_cart.py", "test_list.py",
                                  "--out", str(run), *side_by_side], cwd=project, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        while not any(run.glob("tests/*/webr4.sqlite")) and deflaking.poll() is None:
            time.sleep(0.1)
        os.killpg(deflaking.pid, signal.SIGINT)
        _out, err = deflaking.communicate(timeout=300)
    finally:
        if deflaking.poll() is None:
            os.killpg(deflaking.pid, signal.SIGKILL)
    assert deflaking.returncode == 130, err[-2000:]
    last = err.strip().splitlines()[-1]
    assert last.startswith("interrupted;") and last.endswith(shlex.join(["--out", str(run), *side_by_side,
                                                                          "--resume"])), err[-3000:]
    assert "Traceback" not in err, err[-3000:]
    summary = json.loads((run / "summary.json").read_text())
    assert summary["status"] == "interrupted" and len(summary["pending"]) == 2 - len(summary["tests"]) >= 1
