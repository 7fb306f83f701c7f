"""JUnit XML and SARIF from a run's summary, and ``webr4 export``'s exit status."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.ci.runs import reversal, write_run
from webr4.cli import main
from webr4.report.ci import write_junit, write_sarif

VERDICTS = ("harmful", "harmless", "heap-only", "error")


def junit(run: Path) -> ET.Element:
    return ET.parse(write_junit(run, run / "junit.xml")).getroot()


def sarif(run: Path) -> dict[str, Any]:
    return json.loads(write_sarif(run, run / "webr4.sarif").read_text(encoding="utf-8"))


def test_junit_has_one_testcase_per_reversal_and_fails_the_harmful_one(mixed_run):
    root = junit(mixed_run)
    suite = root.find("testsuite")
    assert suite is not None
    assert {k: suite.get(k) for k in ("tests", "failures", "errors", "skipped", "time")} == \
        {"tests": "4", "failures": "1", "errors": "1", "skipped": "0", "time": "3.5"}
    assert root.get("failures") == "1" and root.get("tests") == "4"
    cases = suite.findall("testcase")
    assert [c.get("name", "").split(":")[0] for c in cases] == ["reversal 1", "reversal 2", "reversal 3", "reversal 4"]
    failure = cases[0].find("failure")
    assert failure is not None and failure.get("type") == "harmful"
    assert failure.get("message") == 'harmful: initialization-race, exception-diff; dom: #price: "$39.00" → "$49.00"'
    text = failure.text or ""
    assert "XHR GET /a.json load" in text and "cart.js:4:10" in text and "#price.textContent" in text
    assert '  dom: #price: "$39.00" → "$49.00"\n' in text
    assert f"webr4 replay {mixed_run} 1" in text and str(mixed_run / "report" / "reversal-1.html") in text
    error = cases[3].find("error")
    assert error is not None and error.get("message") == "error: child-failed"
    for passing in cases[1:3]:
        assert passing.find("failure") is None and passing.find("error") is None


def test_junit_states_the_run_as_properties(mixed_run):
    properties = {p.get("name"): p.get("value") for p in junit(mixed_run).iter("property")}
    assert properties["bound"] == "1" and properties["strategy"] == "r4" and properties["truncated"] == ""


text = st.text(st.characters(codec="utf-8"), max_size=40)  # any character, control characters and all


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(verdicts=st.lists(st.sampled_from(VERDICTS), max_size=6), labels=st.tuples(text, text), location=text)
def test_junit_parses_and_counts_whatever_the_site_names(tmp_path_factory, verdicts, labels, location):
    run = write_run(tmp_path_factory.mktemp("run"), [reversal(i + 1, v, [v], labels=labels, location=location)
                                                     for i, v in enumerate(verdicts)])
    suite = junit(run).find("testsuite")
    assert suite is not None
    assert len(suite.findall("testcase")) == len(verdicts)
    assert len(suite.findall("testcase/failure")) == int(suite.get("failures", "")) == verdicts.count("harmful")
    assert len(suite.findall("testcase/error")) == int(suite.get("errors", "")) == verdicts.count("error")


def test_sarif_has_the_required_properties(mixed_run):
    log = sarif(mixed_run)
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "webr4" and driver["version"]
    rules = driver["rules"]
    assert sorted(r["id"] for r in rules) == ["exception-diff", "heap-only", "initialization-race"]
    for rule in rules:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        assert rule["defaultConfiguration"]["level"] in {"error", "warning"}
    for result in run["results"]:
        assert result["message"]["text"]
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in {"error", "warning"}


def test_sarif_reports_harmful_as_errors_and_heap_only_as_warnings(mixed_run):
    results = sarif(mixed_run)["runs"][0]["results"]
    assert [(r["properties"]["reversal"], r["ruleId"], r["level"]) for r in results] == \
        [(1, "initialization-race", "error"), (3, "heap-only", "warning")]
    assert results[0]["properties"]["reasons"] == ["initialization-race", "exception-diff"]
    assert results[0]["properties"]["report"] == "report/reversal-1.html"
    assert "webr4 replay" in results[0]["message"]["text"]


def test_sarif_locates_the_racing_accesses(mixed_run):
    harmful, heap_only = sarif(mixed_run)["runs"][0]["results"]
    (first,) = harmful["locations"]
    assert first["physicalLocation"] == {"artifactLocation": {"uri": "http://127.0.0.1:8765/two-xhr/cart.js"},
                                         "region": {"startLine": 4, "startColumn": 10}}
    assert first["logicalLocations"][0]["name"] == "#price.textContent"
    (second,) = harmful["relatedLocations"]
    assert second["physicalLocation"]["artifactLocation"]["uri"] == "http://127.0.0.1:8765/two-xhr/"
    assert second["physicalLocation"]["region"] == {"startLine": 17, "startColumn": 30}
    assert "XHR GET /b.json load" in second["message"]["text"]
    assert heap_only["locations"] == [{"logicalLocations": first["logicalLocations"]}]
    assert heap_only["relatedLocations"] == []


def test_sarif_fingerprints_a_race_the_same_in_every_run(tmp_path):
    one = write_run(tmp_path / "one", [reversal(1, "harmful", ["dom-and-render-diff"])])
    two = write_run(tmp_path / "two", [reversal(1, "harmful", ["dom-and-render-diff"])])
    other = write_run(tmp_path / "other", [reversal(1, "harmful", ["dom-and-render-diff"], location="#total")])
    prints = [sarif(run)["runs"][0]["results"][0]["partialFingerprints"] for run in (one, two, other)]
    assert prints[0] == prints[1] != prints[2]


def test_sarif_validates_against_the_published_schema(mixed_run, sarif_schema):
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(sarif(mixed_run), sarif_schema)


def test_export_exits_1_on_a_harmful_race_and_writes_both_files(mixed_run, tmp_path):
    result = CliRunner().invoke(main, ["export", str(mixed_run), "--junit", str(tmp_path / "out" / "j.xml"),
                                       "--sarif", str(tmp_path / "out" / "r.sarif")])
    assert result.exit_code == 1, result.output
    assert "1 harmful of 4 reversals" in result.output and f"webr4 replay {mixed_run} 1" in result.output
    assert (tmp_path / "out" / "j.xml").is_file() and (tmp_path / "out" / "r.sarif").is_file()


def test_export_exits_0_without_a_harmful_race(tmp_path):
    run = write_run(tmp_path / "run", [reversal(1, "harmless", ["commute"]), reversal(2, "heap-only", ["heap-only"])])
    result = CliRunner().invoke(main, ["export", str(run), "--junit", str(tmp_path / "j.xml")])
    assert result.exit_code == 0, result.output
    assert "0 harmful of 2 reversals" in result.output


@pytest.mark.parametrize("content, message", [
    (None, "holds no summary.json: not a run directory"),
    ("{", "is not valid JSON"),
    ('{"reversals": [{"id": 1}]}', "is not a webr4 run summary"),
])
def test_export_exits_2_on_a_directory_that_is_not_a_run(tmp_path, content, message):
    if content is not None:
        (tmp_path / "summary.json").write_text(content)
    result = CliRunner().invoke(main, ["export", str(tmp_path)])
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output


def test_export_exits_2_when_it_cannot_write(mixed_run, tmp_path):
    (tmp_path / "file").write_text("")
    result = CliRunner().invoke(main, ["export", str(mixed_run), "--sarif", str(tmp_path / "file" / "r.sarif")])
    assert result.exit_code == 2 and "Invalid value for --sarif: cannot write" in result.output


def _one_error_line(result) -> str:
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    (line,) = [text for text in result.output.splitlines() if text.startswith("Error")]
    return line


def test_export_never_writes_over_a_file_of_the_run(mixed_run):
    summary = (mixed_run / "summary.json").read_bytes()
    result = CliRunner().invoke(main, ["export", str(mixed_run), "--junit", str(mixed_run / "summary.json")])
    assert "is a file of the run or its session" in _one_error_line(result)
    assert (mixed_run / "summary.json").read_bytes() == summary


def test_two_outputs_on_one_path_are_refused_before_either_is_written(mixed_run, tmp_path):
    both = tmp_path / "verdicts"
    result = CliRunner().invoke(main, ["export", str(mixed_run), "--junit", str(both), "--sarif", str(both)])
    assert "--junit and --sarif both write" in _one_error_line(result)
    assert not both.exists()


def test_a_file_of_the_users_is_replaced_only_with_force_and_a_report_of_webr4s_always(mixed_run, tmp_path):
    mine = tmp_path / "notes.xml"
    mine.write_text("<notes>mine</notes>")
    refused = CliRunner().invoke(main, ["export", str(mixed_run), "--junit", str(mine)])
    assert "exists and is not a junit file webr4 wrote" in _one_error_line(refused)
    assert mine.read_text() == "<notes>mine</notes>"
    assert CliRunner().invoke(main, ["export", str(mixed_run), "--junit", str(mine), "--force"]).exit_code == 1
    assert CliRunner().invoke(main, ["export", str(mixed_run), "--junit", str(mine)]).exit_code == 1  # webr4's now
    assert ET.parse(mine).getroot().get("name") == "webr4"


def test_a_witness_refuses_outputs_that_clash_before_running_anything(mixed_run, tmp_path):
    same = tmp_path / "test_race.py"
    clash = CliRunner().invoke(main, ["witness", str(mixed_run), "1", "--pytest", str(same), "--trace", str(same)])
    assert "--pytest and --trace both write" in _one_error_line(clash)
    not_python = CliRunner().invoke(main, ["witness", str(mixed_run), "1", "--pytest", str(mixed_run / "summary.json")])
    assert "must end in .py" in _one_error_line(not_python)
    (tmp_path / "test_race.har").write_text("{}")  # the user's own HAR, where the offline test's would go
    beside = CliRunner().invoke(main, ["witness", str(mixed_run), "1", "--pytest", str(same), "--offline"])
    assert "test_race.har exists and is not a har file webr4 wrote" in _one_error_line(beside)
    assert (tmp_path / "test_race.har").read_text() == "{}" and not same.exists()


@pytest.mark.parametrize("command", ["report", "export"])
def test_report_and_export_import_no_browser(mixed_run, command):
    """Writing a run's report or its CI files starts no browser, and loads none of Playwright."""
    probe = (f"import sys\nfrom webr4.cli import main\ntry:\n    main([{command!r}, {str(mixed_run)!r}])\n"
             "except SystemExit:\n    pass\n"
             "print(sorted(m for m in sys.modules if m.startswith(('playwright', 'webr4.browser', 'webr4.sweep'))))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert done.stdout.splitlines()[-1] == "[]", done.stdout + done.stderr
