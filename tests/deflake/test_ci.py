"""A deflake run for CI: a testcase per test, a SARIF result per race, and a run cut short said so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from webr4.deflake import ci
from webr4.deflake.results import gather, write_entry


def _order(line: int, url: str, fault: str = "test", message: str = "AssertionError: assert 0 == 2") -> dict[str, Any]:
    return {"line": line, "message": message, "fault": fault, "reversal": 3, "parent": 0,
            "confirmation": {"status": "confirmed", "url": url, "delay_ms": 2500, "original": None},
            "racing": {"words": f"inner_text on #count raced XHR GET {url} load", "url": url}}


FLAKY: dict[str, Any] = {
    "test": "tests/test_cart.py::test_count[chromium]", "status": "flaky", "run": "tests/cart", "sequences": 9,
    "flaky": [_order(12, "/cart.json"), _order(12, "/cart.json", message="AssertionError: assert 1 == 2"),
              _order(20, "/buy.js", fault="app")],
    "fix": {"summary": "wait for the count", "verified": True, "diff": "…"}}
STABLE: dict[str, Any] = {
    "test": "tests/test_home.py::test_title", "status": "stable", "run": "tests/home", "sequences": 2, "flaky": []}
ALONE: dict[str, Any] = {
    "test": "tests/test_home.py::test_menu", "status": "fails-alone", "message": "fails without any slow response",
    "flaky": []}


def test_each_test_is_a_testcase_that_fails_as_deflake_judged_it() -> None:
    root = ci.junit_tree({"tests": [FLAKY, STABLE, ALONE]}).getroot()
    assert root is not None
    outcomes = {case.get("name"): [child.tag for child in case] for case in root.iter("testcase")}
    assert outcomes == {"test_count[chromium]": ["failure"], "test_title": ["system-out"], "test_menu": ["error"]}
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("3", "1", "1")


def test_orders_of_one_race_are_one_sarif_result_at_the_failing_line_under_its_faults_rule() -> None:
    results = ci.sarif_log({"tests": [FLAKY, STABLE]})["runs"][0]["results"]
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results] == [
        ("deflake-test-order", 12), ("deflake-app-race", 20)]
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results} == {"tests/test_cart.py"}


def test_a_run_with_tests_not_judged_is_interrupted_and_partial(tmp_path: Path) -> None:
    write_entry(tmp_path, STABLE)
    summary = gather(tmp_path, [STABLE["test"], FLAKY["test"]])
    assert summary["status"] == "interrupted" and summary["pending"] == [FLAKY["test"]]
    assert ci.is_deflake_run(tmp_path)
    assert "--resume" in (ci.unfinished_reason(tmp_path, ci.read_summary(tmp_path)) or "")
    write_entry(tmp_path, FLAKY)
    assert ci.unfinished_reason(tmp_path, gather(tmp_path, [STABLE["test"], FLAKY["test"]])) is None
