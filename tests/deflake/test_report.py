"""The deflake run's report page, written from the tests' entries as each is judged."""

from __future__ import annotations

from pathlib import Path

from tests.deflake.test_ci import FLAKY
from webr4.deflake.results import gather, write_entry


def test_an_app_race_without_a_live_test_says_why_on_the_page(tmp_path: Path) -> None:
    why = "no live test of reversal 3: the order could not be forced in plain Chromium"
    app_order = {**FLAKY["flaky"][2], "regression": {"why": why}}
    write_entry(tmp_path, {**FLAKY, "flaky": [*FLAKY["flaky"][:2], app_order]})
    gather(tmp_path, [FLAKY["test"]])
    page = (tmp_path / "report" / "index.html").read_text()
    assert f"No test of the race: {why}." in page
