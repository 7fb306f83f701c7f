"""The run store gives back exactly the outcome it was given, keeping its JSON compressed."""

from __future__ import annotations

from webr4.state.snapshot import StateSnapshot
from webr4.rundir.outcome import Outcome
from webr4.rundir.store import RunStore, execution_key
from webr4.trace import Access, AccessKind, Category, Event, Step, Trace


def test_an_outcome_comes_back_as_it_was_stored_and_smaller_than_its_json(tmp_path):
    accesses = tuple(Access(AccessKind.WRITE, f"prop:{i % 50}.n", f"app.js:{i}:1", f"n:{i}") for i in range(20_000))
    trace = Trace([Step("e1", frozenset({"e1"}), (), accesses)], {"e1": Event("e1", Category.TIMER, "timeout", "t")})
    outcome = Outcome(trace, StateSnapshot(dom="<body>" + "<p>row</p>" * 500, exceptions=[], screenshot=b"\x89PNG"))
    store = RunStore.create(tmp_path, {})
    key = execution_key(["e1"])
    store.started(key, ["e1"])
    store.finished(key, outcome, 1.0)
    store.close()

    store = RunStore.open(tmp_path)
    back = store.outcome(key)
    assert back is not None and back.trace == trace and back.state == outcome.state
    assert store.trace(key) == trace
    store.close()
    assert (tmp_path / "webr4.sqlite").stat().st_size < len(trace.dumps()) / 4


def test_a_screenshot_moved_to_a_file_of_the_run_is_kept_once_and_read_back_from_it(tmp_path):
    trace = Trace([Step("e1", frozenset({"e1"}))], {"e1": Event("e1", Category.TIMER, "timeout", "t")})
    png = b"\x89PNG" + bytes(range(256)) * 64
    store = RunStore.create(tmp_path, {})
    key = execution_key(["e1"])
    store.started(key, ["e1"])
    store.finished(key, Outcome(trace, StateSnapshot(dom="<body>", exceptions=[], screenshot=png)), 1.0)
    (tmp_path / "shot.png").write_bytes(png)
    store.screenshot_moved(key, "shot.png")
    store.close()

    moved = tmp_path.parent / "moved"
    tmp_path.rename(moved)
    store = RunStore.open(moved)
    back = store.outcome(key)
    store.close()
    assert back is not None and back.state.screenshot_png() == png
    assert png not in (moved / "webr4.sqlite").read_bytes()


def test_a_report_belongs_to_the_execution_it_judged(tmp_path):
    store = RunStore(tmp_path / "webr4.sqlite")
    store.represented(2, {"id": 2, "representative": 1})
    store.explored(2, "first")
    store.judged(2, "first", {"id": 2, "verdict": "harmless"})
    store.explored(2, "first")  # a resumed sweep running it as before keeps its report
    assert store.report(2) == {"id": 2, "verdict": "harmless"}
    store.explored(2, "other")  # a continuation that plans it otherwise judges it again
    assert store.report(2) is None
