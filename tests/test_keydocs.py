"""Every key webr4 writes into ``summary.json`` and ``session.json`` is described where it is
defined: a field without a description cannot be written, and the files real runs wrote hold no
key that is not described."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pytest

from webr4.browser.limits import LIMITS_KEYS, Limits
from webr4.keydocs import UNWRITTEN, Derived, KeyTable, doc, json_type
from webr4.record.session import SESSION_KEYS, Session
from webr4.rundir.run import RunDir
from webr4.rundir.summary import (GROUP_KEYS, REPRESENTED_KEYS, REVERSAL_KEYS, SUMMARY_KEYS, RepresentedReversal,
                                  ReversalGroup, ReversalReport, Summary)

OLD_RUN = Path(__file__).resolve().parent / "sweep" / "old_run"  # written by a real sweep of an earlier version


@dataclass
class _Sample:
    kept: int = field(default=1, metadata=doc("a kept number"))
    hidden: str = field(default="x", metadata=UNWRITTEN)

    @property
    def twice(self) -> int:
        return 2 * self.kept


def test_a_field_without_a_description_cannot_be_written() -> None:
    @dataclass
    class Undescribed:
        described: int = field(default=0, metadata=doc("a number"))
        forgotten: int = 0

    with pytest.raises(TypeError, match=r"Undescribed\.forgotten is written without a description"):
        KeyTable.of(Undescribed)


def test_the_writer_writes_the_described_keys_only_and_derived_ones_where_placed() -> None:
    table = KeyTable.of(_Sample, Derived("double", "twice the number", source="twice", after="kept"))
    assert table.to_json(_Sample(kept=4)) == {"kept": 4, "double": 8}
    assert [(key.name, key.type) for key in table.keys] == [("kept", "integer"), ("double", "integer")]


def test_types_are_named_as_json_names_them() -> None:
    assert json_type(str | None) == "string or null"
    assert json_type(dict[str, list[str]]) == "object of lists of strings"
    assert json_type(dict[str, int] | None) == "object of integers, or null"
    assert json_type(list[dict[str, Any]]) == "list of objects"
    assert json_type(Literal["block", "allow"]) == '`"block"` or `"allow"`'


def _full_summary() -> Summary:
    """A summary with every key holding something: a reversal, a represented one and a group."""
    reversal = ReversalReport(
        id=3, index=3, parent=1, depth=2, first="A", second="B", first_id="a", second_id="b",
        location="#x.textContent", location_key="dom:#x.textContent", verdict="harmful",
        reasons=["dom-and-render-diff"], differences={"dom": ["#x: a → b"]}, skipped=0, sequence=["b", "a"],
        events=[{"id": "a", "label": "A", "site": "a.js:1:1", "waits_for": None}], witness="reversals/3",
        locations=["#x.textContent"], confirmation={"status": "confirmed", "line": "shown"}, group=3)
    return Summary("http://h/", 2, status="finished", stop_reason="max-sequences", sequences=4,
                   reversals=[reversal], represented=[RepresentedReversal(4, 1, 2, "A", "C", "a", "c", 3)],
                   groups=[ReversalGroup(3, "#x.textContent", ["a.js:1:1", "a.js:1:1"], [3], [4], {"harmful": 1})])


def test_the_summary_a_run_holds_has_exactly_the_described_keys(tmp_path: Path) -> None:
    run = RunDir(tmp_path)
    run.write_summary(_full_summary())
    written = json.loads(run.summary.read_text(encoding="utf-8"))
    assert list(written) == SUMMARY_KEYS.names
    assert list(written["reversals"][0]) == REVERSAL_KEYS.names
    assert list(written["represented"][0]) == REPRESENTED_KEYS.names
    assert list(written["groups"][0]) == GROUP_KEYS.names
    assert run.read_summary() == _full_summary()


def test_a_stored_runs_summary_and_session_hold_no_key_that_is_not_described() -> None:
    summary = json.loads((OLD_RUN / "summary.json").read_text(encoding="utf-8"))
    assert set(summary) <= set(SUMMARY_KEYS.names)
    assert summary["reversals"] and all(set(r) <= set(REVERSAL_KEYS.names) for r in summary["reversals"])
    session = json.loads((OLD_RUN / "session" / "session.json").read_text(encoding="utf-8"))
    assert set(session) <= set(SESSION_KEYS.names)
    assert set(session["limits"]) <= set(LIMITS_KEYS.names)


def test_a_session_manifest_has_exactly_the_described_keys() -> None:
    session = Session("http://h/", [{"click": "#add"}], 3, Limits(chunk_kb=8).to_json(), directory=Path("/s"))
    manifest = session.to_json()
    assert list(manifest) == SESSION_KEYS.names and "directory" not in manifest
    assert list(manifest["limits"]) == LIMITS_KEYS.names and manifest["limits"]["chunk_kb"] == 8
