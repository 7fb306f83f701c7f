"""The record / explore / check commands: results on success, one line on bad input."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from webr4.cli import main


@pytest.mark.browser
def test_check_writes_session_summary_and_report(tmp_path, sites_url):
    actions = tmp_path / "actions.json"
    actions.write_text(json.dumps([{"click": "#add"}]))
    run = tmp_path / "run"
    result = CliRunner().invoke(main, ["check", sites_url + "click-during-parse/", "--actions", str(actions),
                                       "--out", str(run), "--junit", str(tmp_path / "junit.xml"), "--workers", "1",
                                       "--confirm", "none"])  # confirmation and workers have tests of their own
    assert result.exit_code == 1, result.output  # a harmful race was found
    summary = json.loads((run / "summary.json").read_text())
    assert summary["counts"].get("harmful") == 1
    assert 'failures="1"' in (tmp_path / "junit.xml").read_text()
    assert (run / "session" / "session.json").is_file()
    assert "addToCart" in (run / "report" / "index.html").read_text()
    # the recorded session can be explored again, offline, into another run
    again = CliRunner().invoke(main, ["explore", str(run / "session"), "--out", str(tmp_path / "again"),
                                        "--workers", "1", "--confirm", "none"])
    assert again.exit_code == 1, again.output
    assert json.loads((tmp_path / "again" / "summary.json").read_text())["counts"] == summary["counts"]


@pytest.mark.browser
def test_a_selector_that_never_appears_leaves_no_session(tmp_path, sites_url):
    actions = tmp_path / "actions.json"
    actions.write_text(json.dumps([{"click": "#no-such-button"}]))
    result = CliRunner().invoke(main, ["record", sites_url + "two-xhr/", "--actions", str(actions),
                                       "--out", str(tmp_path / "s")])
    assert result.exit_code == 2
    assert "never happened" in result.output and result.output.count("\n") == 1
    assert list(tmp_path.iterdir()) == [actions]


def test_explore_rejects_a_directory_that_is_not_a_session(tmp_path):
    result = CliRunner().invoke(main, ["explore", str(tmp_path), "--out", str(tmp_path / "run")])
    assert result.exit_code == 2 and "not a webr4 session" in result.output


@pytest.mark.browser
def test_explore_rejects_an_unknown_rule_before_running(tmp_path, sites_url):
    session = tmp_path / "s"
    assert CliRunner().invoke(main, ["record", sites_url + "two-xhr/", "--out", str(session)]).exit_code == 0
    result = CliRunner().invoke(main, ["explore", str(session), "--out", str(tmp_path / "run"), "--rules", "bogus"])
    assert result.exit_code == 2 and "unknown rule(s) bogus" in result.output


@pytest.mark.browser
def test_rival_strategies_run_through_the_same_pipeline(tmp_path, sites_url):
    session = tmp_path / "s"
    assert CliRunner().invoke(main, ["record", sites_url + "two-xhr/", "--out", str(session)]).exit_code == 0
    result = CliRunner().invoke(main, ["explore", str(session), "--out", str(tmp_path / "run"),
                                       "--strategy", "wave", "--max-sequences", "3", "--workers", "1",
                                       "--confirm", "none"])
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert result.exit_code == (1 if summary["counts"].get("harmful") else 0), result.output
    assert summary["strategy"] == "wave" and summary["sequences"] == 3
    assert all(r["parent"] == 0 and r["verdict"] in {"harmful", "harmless"} for r in summary["reversals"])


@pytest.mark.browser
def test_a_budget_explores_bound_by_bound_and_says_how_far_it_got(tmp_path, sites_url):
    run = tmp_path / "run"
    result = CliRunner().invoke(main, ["check", sites_url + "two-xhr/", "--budget", "2m", "--confirm", "none",
                                       "--workers", "1", "--progress", "quiet", "--out", str(run)])
    assert result.exit_code == 1, result.output  # the harmful race, found within the budget
    summary = json.loads((run / "summary.json").read_text())
    assert (summary["budget"], summary["bound"], summary["counts"]) == (120.0, None, {"harmful": 1})
    # no cap: bound 2 ran too, and added nothing, so there is nothing left to explore
    assert (summary["completed_bound"], summary["next_bound"], summary["stop_reason"]) == (2, None, "exhausted")
    assert "(exhausted; bound 2 complete)" in result.output
    assert "likely harm first: bound 2 complete" in (run / "report" / "index.html").read_text()
