"""Python refuses a runtime message that does not follow the schema, naming the field."""

from __future__ import annotations

import json
import re
from typing import get_args, get_type_hints

import pytest

from webr4.browser.records import (ActuationRequest, RecordError, ScriptRelease, StepReport, StretchReport, parse,
                                   parse_reply)
from webr4.browser.runtime import runtime_source


def _record(**changes):
    record = {
        "created": [{"id": "t1", "category": "timer", "type": "setTimeout", "label": "setTimeout 5ms", "creator": None,
                     "params": {"delay": 5}, "due": 5, "prio": 0, "seq": 1, "preds": []}],
        "gone": [], "errors": [], "accesses": json.dumps([["w", "event:t1", None, None]]), "promoted": "[]",
        "unlisted_writes": [], "uncontrolled": [], "now": 0, "leaving": None,
    }
    record.update(changes)
    return record


def test_a_record_that_follows_the_schema_is_read_with_its_types():
    promoted = json.dumps([["t0", 1, 3, [["w", "prop:3.x", "a.js:1:1", "n:1"]]]])
    record = parse(StepReport, _record(leaving={"event": "t1"}, promoted=promoted, unlisted_writes=["y"]),
                   "step report")
    assert record.created[0].due == 5.0 and record.created[0].preds == ()
    assert record.accesses == (("w", "event:t1", None, None),)
    assert record.promoted == (("t0", 1, 3, (("w", "prop:3.x", "a.js:1:1", "n:1"),)),)
    assert record.unlisted_writes == ("y",)
    assert record.leaving is not None and record.leaving.event == "t1"


@pytest.mark.parametrize(("raw", "says"), [
    (_record(now="soon"), "step report.now: expected a number, got 'soon'"),
    ({k: v for k, v in _record().items() if k != "gone"}, "step report: missing field 'gone'"),
    (_record(navigating="t1"), "step report: unexpected field 'navigating'"),
    (_record(created=[{**_record()["created"][0], "category": "user"}]),
     "step report.created[0].category: expected one of"),
    (_record(accesses=json.dumps([["x", "event:t1", None, None]])),
     "step report.accesses[0][0]: expected one of 'r', 'w'"),
    (_record(accesses=[]), "step report.accesses: expected JSON text"),
    (_record(promoted=json.dumps([["t0", "1", 3, []]])), "step report.promoted[0][1]: expected an integer"),
    (_record(leaving={"event": 3}), "step report.leaving.event: expected a string, got 3"),
])
def test_a_record_that_does_not_follow_the_schema_is_one_line_naming_the_field(raw, says):
    with pytest.raises(RecordError) as refused:
        parse(StepReport, raw, "step report")
    message = str(refused.value)
    assert says in message and "\n" not in message


def test_begin_and_finish_answer_a_step_record_or_an_actuation_request():
    assert isinstance(parse_reply(_record()), StepReport)
    request = parse_reply({"actuate": {"kind": "script", "url": "http://a/b.js", "worker": False}, "now": 3})
    assert isinstance(request, ActuationRequest) and request.actuate == ScriptRelease("script", "http://a/b.js", False)
    with pytest.raises(RecordError, match=r"actuation\.actuate\.index: expected an integer"):
        parse_reply({"actuate": {"kind": "chunk", "index": "2"}, "now": 3})


def test_the_runtime_stops_a_stretch_only_with_words_of_the_schema():
    runtime = runtime_source()
    sent = set(re.findall(r'\bstop\("([\w-]+)"', runtime)) | set(re.findall(r'\bstop: "([\w-]+)"', runtime))
    assert sent == set(get_args(get_type_hints(StretchReport)["stop"]))


def test_a_bad_access_entry_among_many_good_ones_is_named_by_its_index():
    entries = [["r", f"global:v{i}", "x1:3", None] for i in range(40)]
    entries[12] = ["x", "global:v12", "x1:3", None]
    with pytest.raises(RecordError) as refused:
        parse(StepReport, _record(accesses=json.dumps(entries)), "step report")
    assert str(refused.value).endswith("step report.accesses[12][0]: expected one of 'r', 'w', got 'x'")
