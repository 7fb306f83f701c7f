"""The real-app corpus file is well-formed, without npm or Chromium."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from benchmarks.corpora import APP_FIELDS, APPS_FILE, ensure_apps, load_apps
from benchmarks.real_apps import AppResult, table
from webr4.browser.actions import parse_actions

FRAMEWORKS = {"React", "Vue", "AngularJS", "Ember", "Backbone", "jQuery", "Knockout", "plain JS"}


def test_the_corpus_covers_every_framework_with_complete_entries() -> None:
    corpus = load_apps()
    assert {app.framework for app in corpus.apps} >= FRAMEWORKS
    for app in corpus.apps:
        assert all(getattr(app, name) for name in APP_FIELDS), app.name


def test_every_package_is_pinned_to_one_version() -> None:
    for spec in load_apps().packages:
        assert re.fullmatch(r"(@?[a-z0-9._-]+/)?[a-z0-9._-]+@\d+\.\d+\.\d+", spec), spec


def test_the_session_adds_two_todos_completes_one_and_filters() -> None:
    steps = parse_actions(json.loads(APPS_FILE.read_text())["session"])
    assert [step.kind for step in steps] == ["fill", "keydown", "keyup", "fill", "keydown", "keyup", "click", "click"]


def test_an_app_missing_a_field_is_named(tmp_path: Path) -> None:
    raw = json.loads(APPS_FILE.read_text())
    del raw["apps"][1]["framework"]
    broken = tmp_path / "corpus.json"
    broken.write_text(json.dumps(raw))
    with pytest.raises(ValueError, match=f"app '{raw['apps'][1]['name']}' lacks framework"):
        load_apps(broken)


def test_a_vendored_file_must_come_from_an_installed_package(tmp_path: Path) -> None:
    raw = json.loads(APPS_FILE.read_text())
    raw["apps"][0]["vendor"] = {"lib/x.js": "not-installed/x.js"}
    broken = tmp_path / "corpus.json"
    broken.write_text(json.dumps(raw))
    with pytest.raises(ValueError, match="not-installed/x.js"):
        load_apps(broken)


def test_a_failed_recording_shows_its_error_and_no_target_is_met() -> None:
    fine = AppResult("a", "plain JS", plain_s=1.0, record_s=1.5, seed_trace_bytes=100_000, events=10, accesses=50,
                     sweep_s=7.0, sequences=6, stop_reason="max-sequences", run_dir_bytes=3_000_000,
                     verdicts={"harmless": 5})
    broken = AppResult("b", "React", plain_s=1.0, error="record: step 1 (fill on #new-todo) never happened")
    text = table([fine, broken])
    assert "**failed** (record: step 1 (fill on #new-todo) never happened)" in text
    assert "| yes |" not in text


def test_without_npm_the_corpus_is_skipped_with_a_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert ensure_apps(load_apps(), tmp_path / "cache") is None
    assert "npm is not installed" in capsys.readouterr().err


def test_a_table_says_when_every_app_ran_to_a_summary() -> None:
    fine = AppResult("a", "plain JS", plain_s=1.0, record_s=1.5, seed_trace_bytes=100_000, events=10, accesses=50,
                     sweep_s=7.0, sequences=6, stop_reason="max-sequences", run_dir_bytes=3_000_000,
                     verdicts={"harmful": 1, "harmless": 4})
    text = table([fine])
    assert "| 1 / 4 / 0 / 0 |" in text
    assert "All 1 apps were recorded and explored to a summary." in text
    broken = AppResult("b", "React", plain_s=1.0, error="record: failed")
    assert "explored to a summary" not in table([fine, broken])
