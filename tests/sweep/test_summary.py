"""summary.json's documented schema, reason codes, determinism, replay and session checks."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from webr4.browser.driver import Driver
from webr4.cli import main
from webr4.report.ci import headline
from webr4.sweep.explore import explore
from webr4.sweep.replay import replay_reversal
from webr4.rundir.runfiles import RunFiles
from webr4.rundir.summary import REVERSAL_KEYS, SUMMARY_KEYS
from webr4.record.session import Session, SessionError, record

from ..conftest import expected

pytestmark = pytest.mark.browser  # every test here drives Chromium


@pytest.fixture(scope="module")
def click_race(driver, sites_url, tmp_path_factory):
    """The click race recorded once and explored twice in the shared browser, and its first reversal replayed."""
    directory = tmp_path_factory.mktemp("click-race")
    site = "click-during-parse"

    async def record_and_explore_twice(shared: Driver):
        session = await record(shared, sites_url + site + "/", directory / "session", expected(site)["session"])
        first = await explore(shared, session, directory / "run1")
        second = await explore(shared, session, directory / "run2")
        reproduction = await replay_reversal(shared, directory / "run1", first.reversals[0].id)
        return first, second, reproduction

    return directory, *driver.run(record_and_explore_twice)


def test_summary_has_the_documented_keys_and_a_complete_witness(click_race):
    directory, *_ = click_race
    summary = json.loads((directory / "run1" / "summary.json").read_text())
    assert list(summary) == SUMMARY_KEYS.names  # each described on the documentation's run-directory page
    assert summary["parse_chunks"].startswith("yield")
    [reversal] = summary["reversals"]
    assert list(reversal) == REVERSAL_KEYS.names
    assert [e["label"] for e in reversal["events"]] == ["parse chunk 1/1", "click on #add"]
    assert reversal["events"][0]["site"].endswith("cart.js:4:10")
    witness = directory / "run1" / reversal["witness"]
    for name in ("parent/state.png", "child/state.png", "diff.json", "diff.png"):
        assert (witness / name).is_file(), name
    with RunFiles(directory / "run1") as files:
        parent, child = files.trace(reversal["parent"]), files.trace(reversal["id"])
    assert parent is not None and child is not None and child.sequence == reversal["sequence"]


def test_the_run_directory_keeps_each_trace_once_in_its_store(click_race):
    directory, first, *_ = click_race
    run = directory / "run1"
    with RunFiles(run) as files:
        assert all(files.trace(index) is not None for index in range(first.sequences))
    outside_session = [path for path in run.rglob("*.json") if (run / "session") not in path.parents]
    traces_on_disk = [path for path in outside_session if "steps" in json.loads(path.read_text())]
    assert outside_session and traces_on_disk == []


def test_replay_writes_a_reversals_traces_as_plain_files_on_demand(click_race, tmp_path):
    directory, first, *_ = click_race
    reversal = first.reversals[0]
    result = CliRunner().invoke(main, ["replay", str(directory / "run1"), str(reversal.id), "--traces", str(tmp_path)])
    assert result.exit_code == 0, result.output
    child = json.loads((tmp_path / "child" / "trace.json").read_text())
    assert child["sequence"] == reversal.sequence and (tmp_path / "parent" / "trace.json").is_file()


def test_an_initialization_race_is_named_so(click_race):
    _, first, _, _ = click_race
    assert "initialization-race" in first.reversals[0].reasons


def test_the_chunk_a_click_beats_is_named_by_the_script_it_waits_for(click_race):
    _, first, _, _ = click_race
    assert headline(first.reversals[0]).startswith(
        "click on #add ran before parse chunk 1/1, which waits for script /click-during-parse/cart.js")


def test_exploring_twice_gives_the_same_summary(click_race):
    _, first, second, _ = click_race
    timing_free = lambda s: {**s.to_json(), "seconds": 0}  # noqa: E731 - one-off projection
    assert timing_free(first) == timing_free(second)


def test_a_reported_difference_reproduces_on_replay(click_race):
    *_, reproduction = click_race
    assert reproduction.reproduced and "exceptions" in reproduction.now


def test_the_papers_running_example_is_ad_hoc_synchronisation(driver, sites_url, tmp_path):
    async def go(shared: Driver):
        session = await record(shared, sites_url + "slideshow/", tmp_path / "s", expected("slideshow")["session"])
        return await explore(shared, session, tmp_path / "run")

    summary = driver.run(go)
    assert summary.reversals and all(r.verdict == "harmless" for r in summary.reversals)
    assert any(r.reasons == ["polling-timer"] for r in summary.reversals)


def test_a_session_of_another_minor_version_is_refused(click_race, tmp_path):
    directory, *_ = click_race
    copy = tmp_path / "old"
    copy.mkdir()
    for name in ("network.har", "session.json"):
        (copy / name).write_bytes((directory / "session" / name).read_bytes())
    (copy / "seed").mkdir()
    (copy / "seed" / "trace.json").write_bytes((directory / "session" / "seed" / "trace.json").read_bytes())
    manifest = json.loads((copy / "session.json").read_text())
    (copy / "session.json").write_text(json.dumps({**manifest, "version": "0.0.9"}))
    with pytest.raises(SessionError, match="recorded by webr4 0.0.9"):
        Session.load(copy)


def test_an_output_directory_that_cannot_be_written_is_one_clear_error(click_race, tmp_path):
    directory, *_ = click_race
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("not a directory")
    result = CliRunner().invoke(main, ["explore", str(directory / "session"), "--out", str(in_the_way / "run")])
    assert result.exit_code == 2 and "cannot write" in result.output and result.output.count("\n") == 1
