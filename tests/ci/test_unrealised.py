"""A reversal whose planned order did not happen: said so in JUnit and SARIF, never a failure."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.ci.runs import reversal, write_run
from webr4.cli import main
from webr4.report.ci import write_junit, write_sarif

LABELS = ("parse chunk 1/1", "click on #add")
WHY = "click on #add was not enabled when its turn came and ran after parse chunk 1/1"


@pytest.fixture
def run(tmp_path: Path) -> Path:
    unrealised = reversal(1, "unrealised", ["order-not-realised"], labels=LABELS) | {"unrealised": WHY}
    realised = reversal(2, "harmless", ["commute"], labels=LABELS) | {
        "timing": "click on #add came 0.2 ms earlier, before parse chunk 1/1", "timing_ms": 0.2}
    return write_run(tmp_path / "run", [unrealised, realised])


def test_junit_skips_the_unrealised_reversal_naming_why(run: Path) -> None:
    suite = ET.parse(write_junit(run, run / "junit.xml")).getroot().find("testsuite")
    assert suite is not None and suite.get("skipped") == "1" and suite.get("failures") == "0"
    unrealised, realised = suite.findall("testcase")
    skipped = unrealised.find("skipped")
    assert skipped is not None
    assert skipped.get("message") == f"order not realised: planned click on #add before parse chunk 1/1, but {WHY}"
    assert "click on #add (planned to run first, but did not)" in (unrealised.findtext("system-out") or "")
    assert realised.find("skipped") is None
    out = realised.findtext("system-out") or ""
    assert "click on #add ran before parse chunk 1/1 (click on #add came 0.2 ms earlier, before parse chunk 1/1)" in out


def test_sarif_notes_the_unrealised_reversal(run: Path) -> None:
    (result,) = json.loads(write_sarif(run, run / "r.sarif").read_text())["runs"][0]["results"]
    assert (result["ruleId"], result["level"]) == ("order-not-realised", "note")
    assert f"but {WHY}" in result["message"]["text"] and result["properties"]["unrealised"] == WHY


def test_an_unrealised_reversal_is_not_a_harmful_race(run: Path) -> None:
    result = CliRunner().invoke(main, ["export", str(run)])
    assert result.exit_code == 0, result.output
