"""The report's parts without a browser: source excerpts, sequence alignment, an empty run."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from webr4.report.align import align
from webr4.report.run_view import Run
from webr4.report.source import SourceStore, split_site
from webr4.report.write import write_report
from webr4.rundir.summary import ReversalReport
from webr4.state.snapshot import StateSnapshot
from webr4.rundir.outcome import Outcome
from webr4.rundir.store import RunStore, execution_key
from webr4.trace import Access, AccessKind, Category, Event, Step, Trace


def _trace(*ids: str) -> Trace:
    return Trace(steps=[Step(e, frozenset({e})) for e in ids],
                 events={e: Event(e, Category.OTHER, "x", f"event {e}") for e in "abcdef"})


def _store_seed(run: Path, trace: Trace) -> None:
    """Keep ``trace`` as the run's sequence 0, the way a sweep stores it."""
    run.mkdir(parents=True, exist_ok=True)
    store = RunStore.create(run, {})
    key = execution_key(trace.sequence)
    store.started(key, trace.sequence)
    store.finished(key, Outcome(trace, StateSnapshot(dom="", exceptions=[])), 0.0)
    store.explored(0, key)
    store.close()


def test_split_site_keeps_the_colons_of_the_url() -> None:
    assert split_site("http://h:8000/app.js:12:5") == ("http://h:8000/app.js", 12, 5)
    assert split_site("app.js") is None


def test_excerpt_reads_base64_har_text_and_marks_the_line(tmp_path: Path) -> None:
    text = "\n".join(f"line {n}" for n in range(1, 11))
    har = {"log": {"entries": [{"request": {"url": "http://h/app.js"}, "response": {"content": {
        "text": base64.b64encode(text.encode()).decode(), "encoding": "base64"}}}]}}
    (tmp_path / "network.har").write_text(json.dumps(har))
    excerpt = SourceStore.from_har(tmp_path / "network.har").excerpt("w", "http://h/app.js:2:1")
    assert excerpt is not None
    assert [(line.number, line.hit) for line in excerpt.lines] == [(1, False), (2, True), (3, False), (4, False),
                                                                   (5, False)]
    missing = SourceStore.from_har(tmp_path / "missing.har").excerpt("r", "http://h/app.js:2:1")
    assert missing is not None and missing.lines == []


def test_a_minified_line_is_shown_around_the_sites_column(tmp_path: Path) -> None:
    text = "".join(f"var v{n}=1;" for n in range(5000)) + "\nshort line"
    har = {"log": {"entries": [{"request": {"url": "http://h/app.min.js"}, "response": {"content": {"text": text}}}]}}
    (tmp_path / "network.har").write_text(json.dumps(har))
    column = text.index("var v4000=") + 1
    excerpt = SourceStore.from_har(tmp_path / "network.har").excerpt("w", f"http://h/app.min.js:1:{column}")
    assert excerpt is not None
    hit, short = excerpt.lines
    assert "var v4000=" in hit.text and len(hit.text) <= 162 and hit.text.startswith("…") and hit.text.endswith("…")
    assert short.text == "short line"


def test_alignment_marks_moved_lost_new_and_the_first_difference() -> None:
    rows = align(_trace("a", "b", "c", "d"), _trace("a", "c", "b", "e"), frozenset({"b", "c"}))
    assert [(r.parent, r.child) for r in rows][0] == ("event a", "event a")
    assert {r.parent_status for r in rows} >= {"same", "moved", "lost"}
    assert {r.child_status for r in rows} >= {"same", "moved", "new"}
    assert sum(r.first_difference for r in rows) == 1 and rows[1].first_difference
    assert all(r.racing for r in rows if "moved" in (r.parent_status, r.child_status))


def test_a_run_without_reversals_still_gets_a_report(tmp_path: Path) -> None:
    summary = {"url": "http://h/", "bound": 1, "sequences": 1, "stop_reason": "exhausted", "seconds": 1.0,
               "noise": [], "reversals": [], "counts": {}}
    (tmp_path / "summary.json").write_text(json.dumps(summary))
    _store_seed(tmp_path, _trace("a", "b"))
    index = write_report(tmp_path)
    assert "No reversal was explored" in index.read_text()
    assert (tmp_path / "report" / "timeline.html").is_file()


def test_a_race_first_located_by_a_browser_api_still_shows_the_source_of_its_access(tmp_path: Path) -> None:
    """The first racing location has no source site (a DOM write seen by the DOM log); the
    excerpt is the event's access summary.json located it by, read from the session next to
    the run."""
    session = tmp_path / "session-elsewhere"
    session.mkdir()
    har = {"log": {"entries": [{"request": {"url": "http://h/app.js"}, "response": {"content": {
        "text": "let x;\nlog.textContent = 'a';\n"}}}]}}
    (session / "network.har").write_text(json.dumps(har))
    (session / "session.json").write_text("{}")
    run = tmp_path / "run"
    writes = (Access(AccessKind.WRITE, "dom:#log.textContent"),
              Access(AccessKind.WRITE, "prop:4.textContent", "http://h/app.js:2:1"))
    trace = Trace(steps=[Step("a", frozenset({"a"}), (), writes), Step("b", frozenset({"b"}))],
                  events={e: Event(e, Category.NETWORK, "load", f"event {e}") for e in "ab"})
    _store_seed(run, trace)
    reversal = {"id": 1, "index": 1, "parent": 0, "depth": 1, "first": "event a", "second": "event b",
                "first_id": "a", "second_id": "b", "location": "#log.textContent",
                "location_key": "dom:#log.textContent", "verdict": "harmful", "reasons": [], "differences": {},
                "skipped": 0, "sequence": [], "witness": "reversals/1",
                "events": [{"id": "a", "label": "event a", "site": "http://h/app.js:2:1"},
                           {"id": "b", "label": "event b", "site": None}]}
    summary = {"url": "http://h/", "bound": 1, "sequences": 2, "stop_reason": "exhausted", "seconds": 1.0,
               "noise": [], "counts": {"harmful": 1}, "session": "../session-elsewhere", "reversals": [reversal]}
    (run / "summary.json").write_text(json.dumps(summary))
    write_report(run)
    page = (run / "report" / "reversal-1.html").read_text()
    assert '<span class="line hit"><span class="no">2</span>log.textContent = &#39;a&#39;;</span>' in page


def test_the_report_shows_the_apps_access_before_the_librarys(tmp_path: Path) -> None:
    writes = (Access(AccessKind.WRITE, "global:cart", "http://shop.test/vendor/store.min.js:1:80"),
              Access(AccessKind.WRITE, "global:cart", "http://shop.test/cart/app.js:12:3"))
    trace = Trace(steps=[Step("a", frozenset({"a"}), (), writes), Step("b", frozenset({"b"}))],
                  events={e: Event(e, Category.NETWORK, "load", f"event {e}") for e in "ab"})
    _store_seed(tmp_path, trace)
    reversal = {"id": 1, "index": 1, "parent": 0, "first": "event a", "second": "event b", "first_id": "a",
                "second_id": "b", "verdict": "harmful", "location_key": "global:cart", "events": []}
    (tmp_path / "summary.json").write_text(json.dumps({"url": "http://shop.test/cart/", "reversals": [reversal]}))
    excerpts = Run(tmp_path).racing_event(ReversalReport.from_json(reversal), "first").excerpts
    assert [e.site for e in excerpts] == ["http://shop.test/cart/app.js:12:3", "http://shop.test/vendor/store.min.js:1:80"]
