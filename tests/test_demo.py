"""``make demo`` works end to end and finds the bundled two-XHR race."""

from __future__ import annotations

import json

from webr4.demo import main


def test_demo_sweeps_the_two_xhr_site_and_writes_a_report(tmp_path, capsys):
    assert main(["--site", "two-xhr", "--out", str(tmp_path)]) == 0
    report = capsys.readouterr().out.strip().removeprefix("report: ")
    assert report.endswith("report/index.html") and "$39.00" not in open(report).read()
    outcomes = json.loads((tmp_path / "outcomes.json").read_text())
    reversed_xhrs = [o for o in outcomes if "price-list" in o["first"] + o["second"]
                     and "price-member" in o["first"] + o["second"]]
    assert reversed_xhrs and reversed_xhrs[0]["dom_differs"]


def test_demo_rejects_an_unknown_site_in_one_line(tmp_path, capsys):
    assert main(["--site", "no-such-site", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
