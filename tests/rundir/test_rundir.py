"""The run directory's one reader and writer: trace and state JSON, summaries, and runs written
by an earlier webr4 (``tests/sweep/old_run``: ``webr4 check`` of the two-xhr site at commit
0cdcdce, before this module existed; its report directory left out)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from webr4.cli import main
from webr4.record.session import Session
from webr4.report.write import write_report
from webr4.rundir.execution_files import (ExecutionFiles, PlanError, plan_from_json, read_state, read_trace,
                                   trace_from_text, trace_text, write_state)
from webr4.rundir.run import RunDir
from webr4.rundir.summary import RepresentedReversal, ReversalGroup, ReversalReport, Summary
from webr4.state.snapshot import StateSnapshot
from webr4.rundir.runfiles import RunFiles
from webr4.trace import Category, Event, Step, Trace

OLD_RUN = Path(__file__).parents[1] / "sweep" / "old_run"
PNG = bytes.fromhex("89504e470d0a1a0a") + b"not really an image"


@pytest.fixture
def old_run(tmp_path: Path) -> Path:
    """A copy of the old run, somewhere else (its paths are relative, so it must still read)."""
    return Path(shutil.copytree(OLD_RUN, tmp_path / "moved" / "run"))


def _trace(*ids: str) -> Trace:
    return Trace(steps=[Step(i, frozenset(ids), unlisted_writes=("items",) if i in "aeg" else ()) for i in ids],
                 events={i: Event(i, Category.TIMER, "timeout", f"timer {i}") for i in ids},
                 enabled_at_end=frozenset({"late"}), skipped=["gone"], truncated="horizon")


@given(st.lists(st.sampled_from("abcdefgh"), unique=True, max_size=8))
def test_trace_json_round_trips_and_is_a_plan(ids: list[str]) -> None:
    trace = _trace(*ids)
    text = trace_text(trace)
    assert trace_from_text(text) == trace
    assert plan_from_json(json.loads(text)) == ids  # every trace.json works as webr4 run --sequence


def test_a_plan_is_a_list_of_ids_a_sequence_or_a_trace_s_steps() -> None:
    assert plan_from_json(["a", "b"]) == plan_from_json({"sequence": ["a", "b"]}) == ["a", "b"]
    assert plan_from_json({"steps": [{"event": "a"}, {"event": "b"}]}) == ["a", "b"]
    with pytest.raises(PlanError, match="a sequence file must hold a JSON list of event ids"):
        plan_from_json({"events": ["a"]})


def test_a_trace_without_sequence_still_reads() -> None:
    trace = _trace("a", "b")
    assert trace_from_text(trace.dumps()) == trace


def test_state_json_names_its_screenshot_relative_to_itself(tmp_path: Path) -> None:
    state = StateSnapshot("<body>x</body>", exceptions=[("boom", "a.js:1:2")], pending=["timer b"], screenshot=PNG)
    ExecutionFiles(tmp_path / "here").write(_trace("a"), state)
    moved = Path(shutil.move(tmp_path / "here", tmp_path / "there"))
    back = read_state(ExecutionFiles(moved).state)
    assert back.screenshot_png() == PNG and back.exceptions == state.exceptions and back.dom == state.dom
    assert read_trace(ExecutionFiles(moved).trace) == _trace("a")


def test_a_state_without_screenshot_names_none(tmp_path: Path) -> None:
    path = write_state(tmp_path / "state.json", StateSnapshot("<body></body>"))
    assert read_state(path).screenshot is None and not (tmp_path / "state.png").exists()


def test_summary_round_trips_through_its_json() -> None:
    reversal = ReversalReport.from_json({
        "id": 3, "index": 3, "parent": 1, "depth": 2, "first": "A", "second": "B", "first_id": "a",
        "second_id": "b", "location": "#x.textContent", "location_key": "dom:#x.textContent",
        "verdict": "harmful", "reasons": ["dom-and-render-diff"], "differences": {"dom": ["#x: a → b"]},
        "skipped": 0, "sequence": ["b", "a"], "events": [{"id": "a", "label": "A", "site": "a.js:1:1"}],
        "witness": "reversals/3", "locations": ["#x.textContent", "#x.children"], "group": 3})
    summary = Summary("http://h/", 2, status="finished", stop_reason="max-sequences", sequences=4,
                      reversals=[reversal], represented=[RepresentedReversal(4, 1, 2, "A", "C", "a", "c", 3)],
                      groups=[ReversalGroup(3, "#x.textContent", ["a.js:1:1", "a.js:1:1"], [3], [4], {"harmful": 1})])
    raw = summary.to_json()
    assert raw["site"] == "http://h/" and raw["truncated"] == "max-sequences" and raw["counts"] == {"harmful": 1}
    assert Summary.from_json(json.loads(json.dumps(raw))) == summary


def test_a_group_is_one_closing_line_with_its_count() -> None:
    group = ReversalGroup(5, "globalDefQueue", ["require.js:16:3", "require.js:16:3"], [5], list(range(6, 154)),
                          {"harmless": 1})
    assert group.line() == "149 reversals on globalDefQueue through require.js:16:3, 1 explored, harmless"


def test_a_summary_of_an_older_version_fills_in_what_it_lacks() -> None:
    summary = Summary.from_json({"url": "http://h/", "bound": 1, "sequences": 2, "reversals": [
        {"id": 1, "verdict": "harmless", "first": "A", "second": "B", "first_id": "a", "second_id": "b",
         "location": "#x.textContent"}]})
    (reversal,) = summary.reversals
    assert summary.status == "finished" and summary.sequences == 2
    assert reversal.locations == ["#x.textContent"] and reversal.index == 1
    assert [e["label"] for e in reversal.events] == ["A", "B"]


def test_an_old_run_reads_reports_and_exports(old_run: Path) -> None:
    run = RunDir(old_run)
    raw = json.loads(run.summary.read_text())
    summary = run.read_summary()
    read = summary.to_json()  # everything the old file says, read back unchanged
    assert {key: read[key] for key in raw if key != "reversals"} == {k: v for k, v in raw.items() if k != "reversals"}
    assert [{key: r[key] for key in old} for r, old in zip(read["reversals"], raw["reversals"])] == raw["reversals"]
    assert Session.load(run.session(summary.session).directory).seed_trace().sequence
    with RunFiles(old_run) as files:
        for reversal in summary.reversals:
            trace, state = files.trace(reversal.id), files.state(reversal.id)
            assert trace is not None and trace.sequence == reversal.sequence
            assert state is not None and state.dom
    page = write_report(old_run)
    assert "price-member.json" in (page.parent / "reversal-1.html").read_text()
    result = CliRunner().invoke(main, ["export", str(old_run), "--sarif", str(old_run.parent / "r.sarif")])
    assert result.exit_code == 1 and "1 harmful of 1 reversals" in result.output


def test_an_old_run_gives_its_traces_as_plans(old_run: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["replay", str(old_run), "1", "--traces", str(tmp_path / "traces")])
    assert result.exit_code == 0, result.output
    (reversal,) = RunDir(old_run).read_summary().reversals
    child = json.loads((tmp_path / "traces" / "child" / "trace.json").read_text())
    assert plan_from_json(child) == reversal.sequence


@pytest.mark.browser
def test_an_old_run_replays_and_resumes(old_run: Path) -> None:
    before = RunDir(old_run).read_summary()
    replayed = CliRunner().invoke(main, ["replay", str(old_run), "1"])
    assert replayed.exit_code == 0 and "reproduced" in replayed.output, replayed.output
    resumed = CliRunner().invoke(main, ["explore", str(old_run / "session"), "--out", str(old_run), "--resume",
                                        "--progress", "quiet"])
    assert resumed.exit_code == 1, resumed.output  # its harmful race, judged again from the store
    after = RunDir(old_run).read_summary()

    def judged(summary: Summary) -> list[dict]:
        # a plain-Chromium confirmation and a reversal's group are new since the run was written
        return [{k: v for k, v in r.to_json().items() if k not in ("confirmation", "group")}
                for r in summary.reversals]

    assert judged(after) == judged(before)
    assert after.confirmations == {"confirmed": 1}  # and, new since the run was written, proven in plain Chromium


@pytest.mark.browser
def test_run_record_and_sweep_keep_one_state_schema(sites_url: str, tmp_path: Path) -> None:
    """``webr4 run`` replaying a session's seed writes the end state the recording wrote, in the
    same schema, and the sweep's store holds it in that schema too."""
    url = f"{sites_url}two-xhr/"
    runner = CliRunner()
    assert runner.invoke(main, ["check", url, "--out", str(tmp_path / "run"), "--progress", "quiet",
                                 "--confirm", "none"]).exit_code == 1
    seed = RunDir(tmp_path / "run").own_session.seed
    result = runner.invoke(main, ["run", url, "--out", str(tmp_path / "again"), "--sequence", str(seed.trace),
                                  "--network", str(RunDir(tmp_path / "run").own_session.network)])
    assert result.exit_code == 0, result.output
    again = ExecutionFiles(tmp_path / "again")
    recorded, replayed = read_state(seed.state), read_state(again.state)
    with RunFiles(tmp_path / "run") as files:
        stored = files.state(0)
    assert stored is not None
    assert replayed.dom == recorded.dom == stored.dom
    assert replayed.pending == recorded.pending == stored.pending
    assert (replayed.screenshot_png() or b"")[:4] == (recorded.screenshot_png() or b"")[:4] == b"\x89PNG"
    assert read_trace(again.trace).sequence == read_trace(seed.trace).sequence
