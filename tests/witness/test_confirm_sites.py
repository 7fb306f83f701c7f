"""Bundled sites' verdicts checked in plain Chromium: every harmful one is confirmed there, and
no harmless one ever is.

One recording and sweep per site, with every reversal confirmed (``confirm="all"``), shared by
the tests of this module. The sites cover each lever: a held parser-blocking script and a click
acting early (``click-during-parse``), held responses against an async script
(``fetch-async-script``, whose unhandled rejection a plain page reports as an uncaught error),
Playwright's paused clock against a held response (``ticking-clock``), and the window's load held
back by its image (``late-handler-load``, harmless although the DOM differs).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from webr4.browser.driver import Driver
from webr4.checking import SweepOptions, explore_session
from webr4.sweep.settings import SweepSettings
from webr4.cli import main
from webr4.record.session import record
from webr4.rundir.run import RunDir
from webr4.rundir.summary import Summary
from webr4.report.write import write_report

from ..conftest import expected

pytestmark = pytest.mark.browser

SITES = ("click-during-parse", "fetch-async-script", "ticking-clock", "late-handler-load")


@pytest.fixture(scope="module")
def confirmed(driver, sites_url: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Summary]]:
    """Site → its run directory and summary, every reversal confirmed in plain Chromium (each
    recorded and swept in the test session's shared browser)."""

    async def sweep_all(shared: Driver) -> dict[str, tuple[Path, Summary]]:
        runs = {}
        for site in SITES:
            out = tmp_path_factory.mktemp(site)
            session = await record(shared, f"{sites_url}{site}/", out / "session", expected(site)["session"])
            options = SweepOptions(SweepSettings(max_sequences=6), confirm="all")
            runs[site] = out, await explore_session(session, out, options, driver=shared)
        return runs

    return driver.run(sweep_all)


@pytest.mark.parametrize("site", [s for s in SITES if expected(s)["harmful"]])
def test_every_harmful_verdict_is_confirmed_in_plain_chromium(confirmed, site):
    out, summary = confirmed[site]
    harmful = summary.harmful()
    assert harmful
    for reversal in harmful:
        assert reversal.confirmation_status == "confirmed", reversal.confirmation
        assert reversal.confirmation and reversal.confirmation["matched"]
        assert RunDir(out).witness(reversal.id).plain_child_screenshot.is_file()
    assert RunDir(out).read_summary().confirmations == summary.confirmations


def test_a_harmless_reversal_is_never_confirmed(confirmed):
    checked = [r for _out, summary in confirmed.values() for r in summary.reversals if r.verdict != "harmful"]
    assert checked and all(r.confirmation_status not in (None, "confirmed") for r in checked)
    _out, late_handler = confirmed["late-handler-load"]
    # The click before load does nothing in plain Chromium either: the order was forced there.
    assert [r.confirmation_status for r in late_handler.reversals] == ["reproduced"]


def test_fail_on_confirmed_exits_1_only_on_a_race_plain_chromium_confirmed(confirmed, tmp_path):
    out, _summary = confirmed["click-during-parse"]
    session = str(out / "session")
    gated = CliRunner().invoke(main, ["explore", session, "--out", str(tmp_path / "a"), "--fail-on", "confirmed",
                                      "--workers", "1"])
    assert gated.exit_code == 1, gated.output
    assert "1 confirmed" in gated.output
    unchecked = CliRunner().invoke(main, ["explore", session, "--out", str(tmp_path / "b"), "--fail-on", "confirmed",
                                          "--confirm", "none", "--workers", "1"])
    assert unchecked.exit_code == 0, unchecked.output


def test_a_confirmed_race_comes_with_its_test_in_the_report(confirmed):
    out, summary = confirmed["click-during-parse"]
    reversal = summary.harmful()[0]
    witness = RunDir(out).witness(reversal.id)
    assert witness.regression_test("python").is_file() and witness.regression_test("typescript").is_file()
    story = witness.story.read_text()
    assert story.startswith("The click on #add before cart.js: ")
    write_report(out)
    page = (out / "report" / f"reversal-{reversal.id}.html").read_text()
    assert 'id="test-python"' in page and "race.early(page.locator(&#34;#add&#34;).click" in page
    assert "The click on #add before cart.js" in (out / "report" / "index.html").read_text()
