"""The check-cost benchmark's pure parts: a check's phases cut at its progress lines, and the
cold plain script it is measured against."""

from __future__ import annotations

import ast
from typing import Any

from benchmarks.check_cost import PHASES, phase_seconds
from benchmarks.plain import cold_script


def test_each_phase_runs_from_its_progress_line_to_the_next_and_the_report_to_the_exit() -> None:
    lines: list[tuple[float, dict[str, Any]]] = [(1.0, {"event": "phase", "phase": "recording"}),
             (4.0, {"event": "phase", "phase": "replaying the seed"}),
             (6.0, {"event": "start", "planned": 3}),
             (7.0, {"event": "confirmation", "id": 1, "status": "confirmed"}),  # overlapping the sweep
             (9.0, {"event": "finish", "status": "finished"}),
             (9.0, {"event": "phase", "phase": "confirming in plain Chromium", "total": 1}),
             (11.0, {"event": "confirmation", "id": 2, "status": "confirmed"})]
    seconds = phase_seconds(lines, started=0.0, ended=12.5)
    assert list(seconds) == list(PHASES)
    assert seconds == {"start-up": 1.0, "recording": 3.0, "seed replays": 2.0, "exploring": 3.0,
                       "confirming": 2.0, "report": 1.5}


def test_the_cold_plain_script_is_python_that_performs_every_step_with_playwright_alone() -> None:
    steps: list[dict[str, Any]] = [{"fill": "#new-todo", "value": "Buy 'milk'"}, {"press": "#new-todo", "key": "Enter"},
                                   {"wait": 50}, {"click": "#filters a[href='#/completed']"}]
    source = cold_script("http://127.0.0.1:1/app/", steps, "/usr/bin/chromium")
    tree = ast.parse(source)
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported == {"playwright.sync_api"}
    assert """.fill("Buy 'milk'", timeout=""" in source
    assert ".press('Enter', timeout=" in source and "wait_for_timeout(50.0)" in source
    assert source.index(".fill(") < source.index(".press(") < source.index(".click(")

