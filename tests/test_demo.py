"""``make demo`` works end to end and finds the bundled two-XHR race."""

from __future__ import annotations

import json

import pytest

from webr4.demo import main


@pytest.mark.browser
def test_demo_finds_the_two_xhr_race_and_writes_a_report(tmp_path, capsys):
    out = tmp_path / "demo"
    assert main(["--site", "two-xhr", "--out", str(out)]) == 0
    printed = capsys.readouterr().out.strip().splitlines()
    assert printed[0].startswith("2 sequences in ") and printed[1].startswith("in plain Chromium")
    assert printed[2].startswith("race: price-member.json before price-list.json: #price shows")
    report = printed[-1].removeprefix("report: ")
    assert report == str((out / "report" / "index.html").resolve())
    summary = json.loads((out / "summary.json").read_text())
    [reversal] = summary["reversals"]
    assert {"price-list.json", "price-member.json"} <= {
        part for label in (reversal["first"], reversal["second"]) for part in label.split("/")[-1].split()
    }
    assert reversal["verdict"] == "harmful"


def test_demo_rejects_an_unknown_site_in_one_line(tmp_path, capsys):
    assert main(["--site", "no-such-site", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
