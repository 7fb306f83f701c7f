"""Frames, in Chromium: a same-origin frame's timers and responses are events under the one
scheduler, its document is part of the final DOM as plain Chromium leaves it, a race between the
frame's response and the parent's timer is found, judged by the frame's DOM and confirmed in
plain Chromium; a cross-origin or sandboxed frame runs natively and is listed as uncontrolled.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from webr4.checking import check
from webr4.execution import Capture
from webr4.resources import javascript

from ..route_server import route_server

pytestmark = pytest.mark.browser

PARENT = """<!DOCTYPE html><title>parent</title><p id="log">parent</p>
<iframe id="child" src="child.html"></iframe>
<iframe id="other" src="{other}/child.html"></iframe>
<iframe id="boxed" src="child.html" sandbox="allow-scripts"></iframe>
<p id="from-other"></p><p id="from-boxed"></p>
<script>
window.addEventListener('message', function (e) {
  var boxed = e.source === document.getElementById('boxed').contentWindow;
  document.getElementById(boxed ? 'from-boxed' : 'from-other').textContent = e.data;
});
document.getElementById('child').addEventListener('load', function () {
  var doc = this.contentDocument;
  doc.getElementById('out').textContent += ' +parent';
  document.getElementById('log').textContent += ' saw:' + doc.title;
});
</script>"""
CHILD = """<!DOCTYPE html><title>child</title><p id="out">child</p><p id="timer"></p><p id="data"></p><p id="xhr"></p>
<script src="child.js"></script>
<script>
// a frame the parent cannot read tells it what its scripts did
if (!window.frameElement) parent.postMessage(document.getElementById('out').textContent, '*');
setTimeout(function () { document.getElementById('timer').textContent = 'timer'; }, 10);
fetch('data.txt').then(function (r) { return r.text(); }).then(function (t) {
  document.getElementById('data').textContent = t;
});
var request = new XMLHttpRequest();
request.onload = function () { document.getElementById('xhr').textContent = request.responseText; };
request.open('GET', 'data.txt');
request.send();
</script>"""
CHILD_SCRIPT = "document.getElementById('out').textContent += ' script';"
# The frame's response and the parent's timer, set once the frame has loaded, both write the
# frame's #out.
RACE = """<!DOCTYPE html><iframe id="child" src="racing-child.html"></iframe><script>
document.getElementById('child').addEventListener('load', function () {
  var out = this.contentDocument.getElementById('out');
  setTimeout(function () { out.textContent = out.textContent + ' +parent'; }, 30);
});
</script>"""
RACING_CHILD = """<!DOCTYPE html><p id="out">child</p><script>
fetch('data.txt').then(function (r) { return r.text(); }).then(function (t) {
  document.getElementById('out').textContent = t;
});
</script>"""
SETTLED = """(() => {
  const child = document.getElementById('child').contentDocument;
  return ['timer', 'data', 'xhr'].every((id) => child.getElementById(id).textContent)
    && ['from-other', 'from-boxed'].every((id) => document.getElementById(id).textContent);
})()"""
"""The parent page's end in plain Chromium: the frame's timer and responses have shown, and the
other frames have posted what their scripts did."""


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    files: dict[str, tuple[str, bytes]] = {
        "/child.html": ("text/html", CHILD.encode()), "/child.js": ("text/javascript", CHILD_SCRIPT.encode()),
        "/race.html": ("text/html", RACE.encode()), "/racing-child.html": ("text/html", RACING_CHILD.encode()),
        "/data.txt": ("text/plain", b"response")}
    with route_server(lambda path: files.get(path)) as base:
        # another origin of the same server: localhost is not 127.0.0.1
        files["/"] = ("text/html", PARENT.replace("{other}", base.replace("127.0.0.1", "localhost")).encode())
        yield base


def test_a_same_origin_frame_s_events_are_controlled_and_its_document_is_in_the_final_dom(driver, base_url) -> None:
    plain = driver.plain(base_url + "/", javascript("capture_dom.js"), until=SETTLED)
    execution = driver.execute(base_url + "/", capture=Capture())
    assert execution.dom == plain
    assert "child script +parent" in plain and "saw:child" in plain and "response" in plain
    # the cross-origin and the sandboxed frames show their elements only (the page cannot read
    # their documents either), and their scripts ran
    assert plain.count("#document") == 1 and plain.count("child script") == 3
    labels = {event.label for event in execution.trace.events.values()}
    assert {"setTimeout 10ms at /child.html:6:1", "fetch GET /data.txt response", "XHR GET /data.txt load"} <= labels
    # the frame's events are known again in a replay
    assert driver.execute(base_url + "/", capture=Capture()).trace.events.keys() == execution.trace.events.keys()


def test_only_a_cross_origin_or_sandboxed_frame_is_listed_as_uncontrolled(driver, base_url) -> None:
    execution = driver.execute(base_url + "/", capture=Capture())
    other = base_url.replace("127.0.0.1", "localhost")
    assert execution.trace.uncontrolled == ["frame iframe#boxed /child.html", f"frame iframe#other {other}/child.html"]


def test_a_frame_s_response_racing_the_parent_s_timer_is_harmful_and_confirmed(base_url, tmp_path: Path) -> None:
    reversals = asyncio.run(check(base_url + "/race.html", tmp_path / "run")).summary.reversals
    assert [(r.first, r.second) for r in reversals] == [("fetch GET /data.txt response",
                                                         "setTimeout 30ms at /race.html:4:3")]
    reversal = reversals[0]
    assert reversal.verdict == "harmful"
    assert reversal.differences["dom"] == ['#child >> #out: "response +parent" → "response"']
    # plain Chromium, holding the frame's response until after the parent's timer, ends the same way
    assert reversal.confirmation is not None and reversal.confirmation["status"] == "confirmed"
