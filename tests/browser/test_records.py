"""What the runtime sends Python is exactly the schema of webr4/browser/records.py, for every kind of event."""

from __future__ import annotations

import dataclasses
import time
from typing import Any, get_args, get_origin, get_type_hints

import pytest

from webr4.browser import pagechannel, records
from webr4.browser.actions import parse_actions
from webr4.browser.records import (ActuationRequest, ChunkRelease, EventDescriptor, Opening, PageError, ScriptRelease,
                                   StepReport, StretchReport)
from webr4.execution import Capture

from ..route_server import route_server

pytestmark = pytest.mark.browser  # every test here drives Chromium

PAGE = b"""<!doctype html><html><head><title>every kind of event</title>
<script>
  setTimeout(() => { throw new Error("from a timer"); }, 5);
  setInterval(function tick() {}, 50);
  requestAnimationFrame(() => {});
  requestIdleCallback(() => {});
  Promise.reject(new Error("nobody catches this"));
  console.error("said in the head");
  window.addEventListener("message", () => {});
  document.addEventListener("selectionchange", () => {});
  window.postMessage("hello", "*");
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {};
  channel.port2.postMessage("over the port");
  const xhr = new XMLHttpRequest();
  xhr.open("GET", "/data?x=1");
  xhr.send();
  fetch("/data?y=2").then((r) => r.text());
  const worker = new Worker("/worker.js");
  worker.onmessage = () => {};
  worker.postMessage("ping");
  // Late enough for the click to happen first: the 50 ms interval keeps the page from going
  // quiet, so the click waits the longest a step waits for quiet (1 s of virtual time).
  setTimeout(() => { location.href = "/elsewhere"; }, 3000);
</script>
<script async src="/async.js"></script>
</head><body>
<input id="t" value="some text">
<button id="b" onclick="document.title = 'clicked';
  const t = document.getElementById('t'); t.focus(); t.select();">b</button>
<script src="/blocking.js"></script>
<img src="/missing.png">
<p>after the blocking script</p>
</body></html>"""

FILES: dict[str, tuple[str, bytes]] = {
    "/": ("text/html", PAGE),
    "/data?x=1": ("application/json", b"{}"),
    "/data?y=2": ("application/json", b"{}"),
    "/async.js": ("text/javascript", b"window.asyncRan = true;"),
    "/blocking.js": ("text/javascript", b"window.blockingRan = true;"),
    "/worker.js": ("text/javascript", b"onmessage = (e) => postMessage(e.data + ' pong');"),
    "/elsewhere": ("text/html", b"<p>away</p>"),
}


def _respond(path: str) -> tuple[str, bytes] | None:
    if path.startswith("/async.js"):
        time.sleep(0.05)
    return FILES.get(path)


def _exact(kind: Any, raw: Any, where: str) -> None:
    """``raw`` has exactly the keys of ``kind`` (or of one class of a union), all the way down
    through fields that are classes themselves."""
    if get_origin(kind) is tuple and isinstance(raw, list):
        args = get_args(kind)
        for i, item in enumerate(raw):
            _exact(args[0] if args[-1] is Ellipsis else args[i], item, f"{where}[{i}]")
        return
    options = [option for option in (kind, *get_args(kind))
               if isinstance(option, type) and dataclasses.is_dataclass(option)]
    if not options or raw is None:
        return
    fitting = [option for option in options if isinstance(raw, dict) and set(raw) == records.field_names(option)]
    assert fitting, f"{where}: {sorted(raw)} are the fields of none of {[option.__name__ for option in options]}"
    for name, field_kind in get_type_hints(fitting[0]).items():
        _exact(field_kind, raw[name], f"{where}.{name}")


def test_every_message_the_runtime_builds_has_exactly_the_fields_of_the_schema(driver, monkeypatch):
    seen: list[tuple[type, Any]] = []
    real_parse, real_reply = records.parse, records.parse_reply

    def spy_parse(cls, raw, what):
        seen.append((cls, raw))
        return real_parse(cls, raw, what)

    def spy_reply(raw):
        reply = real_reply(raw)
        seen.append((type(reply), raw))
        return reply

    monkeypatch.setattr(pagechannel, "parse", spy_parse)
    monkeypatch.setattr(pagechannel, "parse_reply", spy_reply)
    with route_server(_respond) as base:
        result = driver.execute(base + "/", actions=parse_actions([{"click": "#b"}]), capture=Capture())
    assert result.trace.navigation is not None, "the timer that leaves the page ran"

    step_records: list[Any] = []
    requests: list[Any] = []
    for cls, raw in seen:
        _exact(cls, raw, cls.__name__)
        if cls is Opening:
            step_records.append(raw["record"])
        elif cls is StepReport:
            step_records.append(raw)
        elif cls is ActuationRequest:
            requests.append(raw["actuate"])
        elif cls is StretchReport:
            step_records.extend(step[2] for step in raw["steps"])
            step_records.extend([raw["before"]] if raw["before"] else [])
    kinds = {cls for cls, _ in seen}
    assert {Opening, StepReport, ActuationRequest, StretchReport} <= kinds

    created = [descriptor for record in step_records for descriptor in record["created"]]
    for descriptor in created:
        _exact(EventDescriptor, descriptor, "EventDescriptor")
    categories = get_args(get_type_hints(EventDescriptor)["category"])
    assert {d["category"] for d in created} == set(categories)

    errors = [error for record in step_records for error in record["errors"]]
    for error in errors:
        _exact(PageError, error, "PageError")
    assert {"exception", "unhandledrejection", "console"} <= {e["kind"] for e in errors}

    assert {"chunk", "script"} == {r["kind"] for r in requests}
    assert {True, False} == {r["worker"] for r in requests if r["kind"] == "script"}
    for request in requests:
        _exact(ChunkRelease if request["kind"] == "chunk" else ScriptRelease, request, "actuate")
    assert any(record["leaving"] is not None for record in step_records)

