"""The pytest plugin, run by pytester on the example tests and the bundled sites."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from webr4.report.ci import sarif_log
from webr4.rundir.run import RunDir

pytest_plugins = ["pytester"]

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "pytest" / "test_shop.py"
pytestmark = pytest.mark.browser


@pytest.fixture
def shop(pytester: pytest.Pytester, sites_url: str, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A pytester directory holding the example tests, pointed at the bundled sites."""
    monkeypatch.setenv("WEBR4_SITES", sites_url)
    pytester.makepyfile(test_shop=EXAMPLE.read_text(encoding="utf-8"))
    return pytester


def test_the_example_fails_on_the_harmful_race_and_passes_the_commutative_one(shop: pytest.Pytester):
    result = shop.runpytest("--junitxml=junit.xml")
    result.assert_outcomes(passed=1, failed=1)
    out = shop.path / "test-output" / "webr4"
    # pytest-playwright runs each test once per browser: its name carries the browser
    harmful_run = out / "test_shop.test_add_to_cart-chromium"
    commuting_run = out / "test_shop.test_unread_count-chromium"
    result.stdout.fnmatch_lines([
        "*webr4: 1 harmful event race(s) in *click-during-parse/ with the actions of test_add_to_cart*",
        "reversal 1: * click on #add on global addToCart [[]harmful: initialization-race*",
        f"  report: {harmful_run}/report/reversal-1.html",
        f"  replay: webr4 replay {harmful_run} 1",
        f"report: {harmful_run}/report/index.html",
    ])
    assert (harmful_run / "report" / "index.html").is_file()
    session = json.loads((harmful_run / "session" / "session.json").read_text())
    assert session["url"].endswith("/click-during-parse/") and session["actions"] == [{"click": "#add"}]
    (result,) = sarif_log(harmful_run, RunDir(harmful_run).read_summary())["runs"][0]["results"]
    uris = [loc["physicalLocation"]["artifactLocation"]["uri"]
            for loc in result["locations"] + result["relatedLocations"]]
    # cart.js defines, the page's onclick reads
    assert [uri.removeprefix(session["url"]) for uri in uris] == ["cart.js", ""]
    summary = json.loads((commuting_run / "summary.json").read_text())
    assert summary["site"].endswith("/commutative-counter/") and "harmful" not in summary["counts"]
    assert json.loads((commuting_run / "session" / "session.json").read_text())["actions"] == []
    reports = {case.get("name"): prop.get("value") for case in ET.parse(shop.path / "junit.xml").iter("testcase")
               for prop in case.iter("property") if prop.get("name") == "webr4_report"}
    assert reports == {"test_add_to_cart[chromium]": str(harmful_run / "report" / "index.html"),
                       "test_unread_count[chromium]": str(commuting_run / "report" / "index.html")}


def test_off_runs_marked_tests_as_plain_playwright_tests(shop: pytest.Pytester):
    shop.runpytest("--webr4-off").assert_outcomes(passed=2)
    assert not (shop.path / "test-output").exists()


def test_unmarked_tests_are_untouched(pytester: pytest.Pytester):
    pytester.makepyfile("""
        def test_plain():
            assert 1 + 1 == 2

        def test_wants_a_page(page):
            pass
    """)
    result = pytester.runpytest("-p", "no:playwright")  # webr4's own page fixture, for marked tests only
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*'page' fixture comes from pytest-playwright*only to tests marked webr4*"])
    assert not (pytester.path / "test-output").exists()


def test_a_flow_that_navigates_after_acting_is_refused(pytester: pytest.Pytester, sites_url: str):
    pytester.makepyfile(f"""
        import pytest

        @pytest.mark.webr4(url="{sites_url}click-during-parse/")
        def test_two_pages(page):
            page.click("#add")
            page.goto("{sites_url}two-xhr/")
    """)
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*webr4 explores one page load, but the test navigates to *two-xhr/ after its first*"])


@pytest.mark.parametrize("marker, message", [
    ('webr4(url="http://127.0.0.1:9/", depth=2)', "*@pytest.mark.webr4 takes only url= and bound= (got depth)*"),
    ('webr4(url="http://127.0.0.1:9/", bound=-1)', "*webr4 bound must be a whole number of at least 0, not -1*"),
])
def test_a_bad_marker_is_an_error_before_any_browser_starts(pytester: pytest.Pytester, marker: str, message: str):
    pytester.makepyfile(f"""
        import pytest

        @pytest.mark.{marker}
        def test_flow(page):
            pass
    """)
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([message])
    assert "Traceback" not in result.stdout.str()


def test_a_flow_that_opens_no_page_fails(pytester: pytest.Pytester):
    pytester.makepyfile("""
        import pytest

        @pytest.mark.webr4
        def test_flow(page):
            pass
    """)
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*test_flow[[]chromium[]] never opened a page: give @pytest.mark.webr4(url=...) or "
                                 "call page.goto*"])
