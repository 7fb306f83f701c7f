"""Noise masks from two baseline replays, and user masks."""

from __future__ import annotations

import pytest

from webr4.state import NoiseMask, StateSnapshot, diff_states
from webr4.state.heappaths import format_path, parse_path

from tests.state.helpers import DOM, png


def clock(dom: str, time: str) -> str:
    return dom.replace("12:00:01", time)


def test_clock_line_from_baselines_is_masked_later() -> None:
    mask = NoiseMask.from_baselines(StateSnapshot(DOM), StateSnapshot(clock(DOM, "12:00:02")))
    assert mask.dom_keys == {"html > body > span#clock/text1"}
    parent, child = StateSnapshot(clock(DOM, "12:00:05")), StateSnapshot(clock(DOM, "12:00:09"))
    assert "dom" in diff_states(parent, child).categories
    assert mask.diff(parent, child).categories == set()
    # a real change elsewhere is still seen
    real = StateSnapshot(clock(DOM, "12:00:09").replace("Cart: 1 item", "Cart: 0 items"))
    assert mask.diff(parent, real).dom.paths == ["html > body > p#cart"]


def test_heap_noise_masks_changed_paths_and_grown_arrays() -> None:
    first = {"now": 1, "log": [1], "cart": {"n": 1}}
    second = {"now": 2, "log": [1, 2], "cart": {"n": 1}}
    mask = NoiseMask.from_baselines(StateSnapshot(DOM, heap=first), StateSnapshot(DOM, heap=second))
    assert mask.heap_paths == {("now",), ("log",)}
    later = StateSnapshot(DOM, heap={"now": 7, "log": [1, 2, 3], "cart": {"n": 2}})
    assert [c.path for c in mask.diff(StateSnapshot(DOM, heap=first), later).heap.changes] == ["window.cart.n"]


def test_screenshot_noise_boxes_hide_the_changing_region() -> None:
    first, second = png(block=(10, 10, 20, 20)), png(block=(10, 10, 20, 20), block_color=(200, 0, 0))
    mask = NoiseMask.from_baselines(StateSnapshot(DOM, screenshot=first), StateSnapshot(DOM, screenshot=second))
    assert mask.boxes == ((0, 0, 32, 16), (0, 16, 32, 32))
    later = png(block=(12, 12, 24, 24), block_color=(0, 200, 0))
    assert not mask.diff(StateSnapshot(DOM, screenshot=first), StateSnapshot(DOM, screenshot=later)).screenshot.differs
    elsewhere = png(block=(100, 60, 130, 90))
    assert mask.diff(StateSnapshot(DOM, screenshot=first), StateSnapshot(DOM, screenshot=elsewhere)).screenshot.differs


def test_user_selectors_hide_subtrees() -> None:
    changed = clock(DOM, "13:14:15").replace("two", "three").replace('<li class="x">', '<li class="x" title="t">')
    for selector in ("#clock", "span#clock", "span"):
        mask = NoiseMask.from_options(selectors=[selector])
        assert mask.diff(StateSnapshot(DOM), StateSnapshot(clock(DOM, "13:14:15"))).categories == set()
    mask = NoiseMask.from_options(selectors=["#clock", ".x"])
    assert mask.diff(StateSnapshot(DOM), StateSnapshot(changed)).categories == set()
    assert NoiseMask.from_options(selectors=["ul"]).diff(StateSnapshot(DOM), StateSnapshot(changed)).dom.paths == \
        ["html > body > span#clock"]


def test_user_selector_validation() -> None:
    with pytest.raises(ValueError, match="unsupported selector"):
        NoiseMask.from_options(selectors=["div > p"])


def test_user_heap_prefixes() -> None:
    mask = NoiseMask.from_options(heap_prefixes=["window.stats", "cart.items[1]"])
    a = StateSnapshot(DOM, heap={"stats": {"hits": 1}, "cart": {"items": [1, 2]}})
    b = StateSnapshot(DOM, heap={"stats": {"hits": 9}, "cart": {"items": [1, 5]}})
    assert mask.diff(a, b).categories == set()


def test_heap_path_format_and_parse_are_inverse() -> None:
    for keys in [(), ("cart", "items", 0), ("odd key", 3, "$x"), ("a.b",)]:
        assert parse_path(format_path(keys)) == keys
    assert parse_path("cart.items[2]") == ("cart", "items", 2)
    with pytest.raises(ValueError):
        parse_path("window..x")


def test_masks_combine_and_round_trip_json() -> None:
    mask = NoiseMask.from_baselines(StateSnapshot(DOM, heap={"t": 1}, screenshot=png()),
                                    StateSnapshot(clock(DOM, "1"), heap={"t": 2}, screenshot=png(block=(0, 0, 5, 5))))
    combined = mask | NoiseMask.from_options(["#cart"], ["stats"])
    assert NoiseMask.from_json(combined.to_json()) == combined
    assert combined.selectors == ("#cart",) and ("stats",) in combined.heap_paths
