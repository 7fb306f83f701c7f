"""Every registered state category keeps the contract that snapshots, diffs, masks and every
output rely on: a difference in it alone is that category alone, worded, saved and maskable."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from webr4.classify.differences import describe_differences
from webr4.state import NoiseMask, StateSnapshot, diff_states
from webr4.state.categories import CATEGORIES, StateCategory

from tests.state.helpers import DOM, png

# category key -> two different values of it (the first is also every other test's baseline)
SAMPLES: dict[str, tuple[Any, Any]] = {
    "navigation": (None, "http://h/next.html"),
    "exceptions": ([], [("TypeError: x is null", "http://h/a.js:1:1")]),
    "dom": (DOM, DOM.replace("Cart: 1 item", "Cart: 2 items")),
    "screenshot": (png(), png(block=(0, 0, 30, 30))),
    "console": (["failed"], []),
    "requests": (["GET http://h/a"], ["GET http://h/a", "GET http://h/b"]),
    "pending": ([], ["setTimeout 5ms"]),
    "heap": ({"n": 1}, {"n": 2}),
    "storage": ({"localStorage.theme": "dark"}, {"localStorage.theme": "light", "sessionStorage.step": "2"}),
    "focus": ("#email", "form > input:nth-of-type(2)"),
}


def _pair(category: StateCategory[Any, Any]) -> tuple[StateSnapshot, StateSnapshot]:
    parent = StateSnapshot(**{key: values[0] for key, values in SAMPLES.items()})
    return parent, parent.replace(**{category.key: SAMPLES[category.key][1]})


def test_every_category_has_samples() -> None:
    assert sorted(c.key for c in CATEGORIES) == sorted(SAMPLES)


@pytest.mark.parametrize("category", CATEGORIES, ids=lambda c: c.name)
def test_a_difference_in_one_category_is_that_category_alone(category: StateCategory[Any, Any], tmp_path: Path) -> None:
    parent, child = _pair(category)
    assert diff_states(parent, parent).categories == set()
    diff = diff_states(parent, child)
    assert diff.categories == {category.name}
    described = describe_differences(diff)
    assert list(described) == [category.name] and all(isinstance(i, str) and i for i in described[category.name])
    assert json.loads(json.dumps(diff.to_json()))["categories"] == [category.name]
    loaded = StateSnapshot.load(child.save(tmp_path))
    assert diff_states(child, loaded).categories == set()


@pytest.mark.parametrize("category", CATEGORIES, ids=lambda c: c.name)
def test_a_category_with_mask_fields_masks_what_two_replays_disagree_on(category: StateCategory[Any, Any]) -> None:
    parent, child = _pair(category)
    mask = NoiseMask.from_baselines(parent, child)
    if not category.mask_fields:
        assert mask == NoiseMask()
        return
    assert mask.categories == [category.name]
    assert mask.diff(parent, child).categories == set()
    assert NoiseMask.from_json(json.loads(json.dumps(mask.to_json()))) == mask


def test_a_snapshot_from_before_a_category_existed_reads_it_as_empty() -> None:
    assert StateSnapshot.from_json({"dom": DOM}) == StateSnapshot(DOM)
    with pytest.raises(TypeError, match="no part colour"):
        StateSnapshot(DOM, colour="red")
