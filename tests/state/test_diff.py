"""State differences, one category at a time, on synthetic snapshots."""

from __future__ import annotations

import io
import json
from pathlib import Path

from PIL import Image

from webr4.classify.differences import describe_differences
from webr4.state import StateSnapshot, diff_states
from webr4.state.categories.dom import diff_dom
from webr4.state.categories.heap import diff_heap
from webr4.state.categories.screenshot import diff_screenshots
from webr4.state.dom_lines import parse_dom
from webr4.state.pixels import Tolerance
from webr4.trace import Category, ErrorRecord, Event, Trace

from tests.state.helpers import DOM, png


def test_equal_snapshots_have_no_categories() -> None:
    s = StateSnapshot(DOM, heap={"a": 1}, exceptions=[("boom", "a.js:1:1")], requests=["GET /x"], screenshot=png())
    assert diff_states(s, s).categories == set()


def test_dom_hunk_names_element_path_and_text() -> None:
    changed = DOM.replace("Cart: 1 item", "Cart: 0 items")
    diff = diff_dom(DOM, changed)
    assert len(diff.hunks) == 1
    hunk = diff.hunks[0]
    assert [x.strip() for x in hunk.before] == ["Cart: 1 item"]
    assert [x.strip() for x in hunk.after] == ["Cart: 0 items"]
    assert diff.paths == ["html > body > p#cart"]


def test_dom_paths_distinguish_siblings_and_attributes() -> None:
    changed = DOM.replace('<li class="x">', '<li class="y">')
    assert diff_dom(DOM, changed).paths == ["html > body > ul > li:nth-of-type(2)"]


SHADOW_DOM = """<html>
  <body>
    <user-card id="card">
      <span slot="title">
      </span>
      #shadow-root
        <h2 id="name">
          Ada
        </h2>
        <x-badge>
          #shadow-root
            <b>
              new
            </b>
        </x-badge>
    </user-card>
    <p>
      after
    </p>
  </body>
</html>"""


def test_nodes_of_shadow_roots_are_named_through_their_hosts() -> None:
    lines = {line.text.strip(): line for line in parse_dom(SHADOW_DOM)}
    assert lines["Ada"].path == "html > body > user-card#card > #shadow-root > h2#name"
    assert lines["new"].path == "html > body > user-card#card > #shadow-root > x-badge > #shadow-root > b"
    assert lines["after"].path == "html > body > p"  # the host's closing tag ends its root
    changed = diff_states(StateSnapshot(SHADOW_DOM), StateSnapshot(SHADOW_DOM.replace("new", "seen")))
    assert describe_differences(changed)["dom"] == [
        'user-card#card > #shadow-root > x-badge > #shadow-root > b: "new" → "seen"']
    renamed = diff_states(StateSnapshot(SHADOW_DOM), StateSnapshot(SHADOW_DOM.replace("Ada", "Grace")))
    assert describe_differences(renamed)["dom"] == ['user-card#card > #shadow-root > #name: "Ada" → "Grace"']


def test_dom_keys_are_stable_when_text_changes() -> None:
    a, b = parse_dom(DOM), parse_dom(DOM.replace("12:00:01", "12:00:07"))
    assert [x.key for x in a] == [x.key for x in b]
    assert a[8].key == "html > body > span#clock/text1"


def test_heap_paths_are_window_paths() -> None:
    diff = diff_heap({"cart": {"items": [1, 2]}, "n": 1}, {"cart": {"items": [1, 3]}, "n": 1, "extra": True})
    assert {(c.path, c.change) for c in diff.changes} == {
        ("window.cart.items[1]", "values_changed"), ("window.extra", "dictionary_item_added")}
    assert diff_heap(None, {"a": 1}).total == 0


def test_screenshot_identical_is_no_diff() -> None:
    result = diff_screenshots(png(), png())
    assert result.compared and not result.differs and result.changed_pixels == 0


def test_screenshot_block_change_is_red_in_diff_image() -> None:
    result = diff_screenshots(png(), png(block=(50, 40, 70, 60)))
    assert result.differs and result.changed_pixels == 400 and result.bbox == (50, 40, 70, 60)
    assert result.image is not None
    image = Image.open(io.BytesIO(result.image)).convert("RGB")
    assert image.getpixel((60, 50)) == (255, 0, 0)
    dimmed = image.getpixel((5, 5))
    assert isinstance(dimmed, tuple) and dimmed[0] < 120  # the rest is dimmed


def test_screenshot_sub_tolerance_noise_is_no_diff() -> None:
    noisy = png(color=(240, 240, 240), block=(0, 0, 200, 60), block_color=(236, 243, 240))
    assert not diff_screenshots(png(), noisy, Tolerance(channel_tolerance=8)).differs


def test_screenshot_few_pixels_below_min_pixels_is_no_diff() -> None:
    assert not diff_screenshots(png(), png(block=(0, 0, 2, 2))).differs


def test_screenshot_a_small_change_on_a_tall_page_differs() -> None:
    assert diff_screenshots(png((1024, 4000)), png((1024, 4000), block=(10, 10, 14, 14))).differs


def test_screenshot_size_change_differs() -> None:
    assert diff_screenshots(png((200, 120)), png((200, 160))).differs


def test_screenshot_missing_is_not_compared() -> None:
    assert not diff_states(StateSnapshot(DOM, screenshot=png()), StateSnapshot(DOM)).screenshot.compared


def test_exceptions_console_network_pending() -> None:
    a = StateSnapshot(DOM, exceptions=[("x", "a.js:1:1")], console=["c1"], requests=["GET /a", "GET /a", "GET /b"],
                      pending=["t1"])
    b = StateSnapshot(DOM, exceptions=[("y", "a.js:2:1"), ("x", "a.js:1:1")], console=[],
                      requests=["GET /a", "POST /c"], pending=["t1", "t2"])
    diff = diff_states(a, b)
    assert diff.categories == {"exceptions", "console", "network", "pending"}
    assert diff.exceptions.new == [("y", "a.js:2:1")] and diff.exceptions.lost == []
    assert diff.console.lost == ["c1"]
    assert diff.network.lost == ["GET /a", "GET /b"] and diff.network.new == ["POST /c"]
    assert diff.pending.new == ["t2"]
    json.dumps(diff.to_json())


def test_snapshot_from_execution_and_round_trip(tmp_path: Path) -> None:
    from webr4.execution import Execution

    events = {
        "n1": Event("n1", Category.NETWORK, "xhr", "XHR GET /p load", params={"method": "GET", "url": "http://h/p"}),
        "n2": Event("n2", Category.NETWORK, "load", "load of img", params={"tag": "img", "src": "http://h/i.png"}),
        "t1": Event("t1", Category.TIMER, "setTimeout", "setTimeout 5ms"),
    }
    trace = Trace(steps=[], events=events, enabled_at_end=frozenset({"t1"}), errors=[
        ErrorRecord("exception", "ReferenceError: f is not defined", "a.js:3:1", 0),
        ErrorRecord("console", "oops", None, 0), ErrorRecord("harness", "ignored")])
    snap = StateSnapshot.from_execution(Execution(trace, DOM, png()), heap={"a": [1]})
    assert snap.requests == ["GET http://h/i.png", "GET http://h/p"]
    assert snap.pending == ["setTimeout 5ms"]
    assert snap.exceptions == [("ReferenceError: f is not defined", "a.js:3:1")] and snap.console == ["oops"]
    loaded = StateSnapshot.load(snap.save(tmp_path / "run"))
    assert isinstance(loaded.screenshot, Path) and loaded.screenshot_png() == snap.screenshot
    assert diff_states(snap, loaded).categories == set()
    assert loaded.to_json()["heap"] == {"a": [1]}


def test_diff_save_writes_image(tmp_path: Path) -> None:
    diff = diff_states(StateSnapshot(DOM, screenshot=png()), StateSnapshot(DOM, screenshot=png(block=(0, 0, 30, 30))))
    saved = json.loads(diff.save(tmp_path).read_text())
    assert saved["categories"] == ["screenshot"] and (tmp_path / saved["screenshot"]["image"]).is_file()


def test_leaving_the_page_is_a_category_of_its_own() -> None:
    stays = StateSnapshot(DOM)
    leaves = StateSnapshot(DOM, navigation="http://h/nutrition.html")
    assert diff_states(stays, leaves).categories == {"navigation"}
    assert diff_states(stays, leaves).navigation.new == ["http://h/nutrition.html"]
    assert diff_states(leaves, leaves).categories == set()
    elsewhere = StateSnapshot(DOM, navigation="new window http://h/nutrition.html")
    assert diff_states(leaves, elsewhere).categories == {"navigation"}
    assert StateSnapshot.from_json(json.loads(json.dumps(leaves.to_json()))) == leaves


def test_a_summary_says_which_side_leaves_and_for_where() -> None:
    from webr4.classify.differences import describe_differences

    stays, leaves = StateSnapshot(DOM), StateSnapshot(DOM, navigation="http://h/nutrition.html")
    elsewhere = StateSnapshot(DOM, navigation="http://h/print.html")
    assert describe_differences(diff_states(stays, leaves)) == {"navigation": ["leaves for /nutrition.html"]}
    assert describe_differences(diff_states(leaves, stays)) == {
        "navigation": ["stays instead of leaving for /nutrition.html"]}
    assert describe_differences(diff_states(leaves, elsewhere)) == {
        "navigation": ["leaves for /print.html instead of /nutrition.html"]}
