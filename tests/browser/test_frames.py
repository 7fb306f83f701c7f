"""Frames, in Chromium: a same-origin frame's document is part of the final DOM as plain Chromium
leaves it, a difference inside it names the frame, and every frame is listed as uncontrolled.

Frames run natively (the runtime controls the top frame only): their requests, scripts included,
are answered at once and as recorded, and their own timers and responses are not events of the
trace. What the top page does to a frame's document is, and a race between two of its events
there is found and judged by the frame's DOM.
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
<script>
document.getElementById('child').addEventListener('load', function () {
  var doc = this.contentDocument;
  doc.getElementById('out').textContent += ' +parent';
  document.getElementById('log').textContent += ' saw:' + doc.title;
});
</script>"""
CHILD = """<!DOCTYPE html><title>child</title><p id="out">child</p>
<script src="child.js"></script>"""
CHILD_SCRIPT = "document.getElementById('out').textContent += ' script';"
# Once the frame has loaded, the parent's timer and its response both write into the frame.
RACE = """<!DOCTYPE html><iframe id="child" src="child.html"></iframe><script>
document.getElementById('child').addEventListener('load', function () {
  var out = this.contentDocument.getElementById('out');
  setTimeout(function () { out.textContent = 'timer'; }, 0);
  fetch('data.txt').then(function (r) { return r.text(); }).then(function (t) { out.textContent = t; });
});
</script>"""


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    files: dict[str, tuple[str, bytes]] = {
        "/child.html": ("text/html", CHILD.encode()), "/child.js": ("text/javascript", CHILD_SCRIPT.encode()),
        "/race.html": ("text/html", RACE.encode()), "/data.txt": ("text/plain", b"response")}
    with route_server(lambda path: files.get(path)) as base:
        # another origin of the same server: localhost is not 127.0.0.1
        files["/"] = ("text/html", PARENT.replace("{other}", base.replace("127.0.0.1", "localhost")).encode())
        yield base


def test_a_same_origin_frame_s_document_is_in_the_final_dom_as_in_plain_chromium(driver, base_url) -> None:
    plain = driver.plain(base_url + "/", javascript("capture_dom.js"))
    execution = driver.execute(base_url + "/", capture=Capture())
    assert execution.dom == plain
    assert "child script +parent" in plain and "saw:child" in plain
    # the cross-origin frame shows its element only: the page cannot read its document either
    assert plain.count("#document") == 1


def test_frames_are_listed_as_uncontrolled(driver, base_url) -> None:
    execution = driver.execute(base_url + "/", capture=Capture())
    other = base_url.replace("127.0.0.1", "localhost")
    assert execution.trace.uncontrolled == ["frame iframe#child /child.html",
                                            f"frame iframe#other {other}/child.html"]


def test_a_race_inside_a_frame_is_harmful_and_named_with_the_frame(base_url, tmp_path: Path) -> None:
    reversals = asyncio.run(check(base_url + "/race.html", tmp_path / "run")).summary.reversals
    in_frame = [r for r in reversals if any("#child >> #out" in item for item in r.differences.get("dom", ()))]
    assert in_frame, reversals
    assert in_frame[0].verdict == "harmful"
    assert in_frame[0].differences["dom"] == ['#child >> #out: "response" → "timer"']
    # plain Chromium, holding the response until after the timer, ends the same way
    assert in_frame[0].confirmation["status"] == "confirmed"
