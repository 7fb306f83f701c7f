"""Ids renamed alike everywhere they are referenced are no DOM difference; a reference that
points at another element is."""

from __future__ import annotations

from webr4.state import StateSnapshot
from webr4.state.categories.dom import DOM as DOM_CATEGORY
from webr4.state.categories.dom import diff_dom
from webr4.state.noise import NoiseMask


def form(field: str, label_for: str, hint: str, described_by: str, link: str, fill: str) -> str:
    """A serialised form whose ids and references are given."""
    return f"""<html>
  <body>
    <label for="{label_for}">
      Name
    </label>
    <input aria-describedby="{described_by} shared" id="{field}" type="text" (value)="">
    <p id="{hint}">
      Your name
    </p>
    <p id="shared">
      Required
    </p>
    <a href="#{link}">
      to the field
    </a>
    <svg>
      <rect fill="url(#{fill})" style="stroke: url(&quot;#{fill}&quot;)">
      </rect>
      <linearGradient id="{fill}">
      </linearGradient>
    </svg>
  </body>
</html>"""


PARENT = form("f-k3x9", "f-k3x9", "h-k3x9", "h-k3x9", "f-k3x9", "g-77")


def test_ids_renamed_alike_everywhere_are_no_difference_and_are_listed() -> None:
    child = form("f-q0pz", "f-q0pz", "h-q0pz", "h-q0pz", "f-q0pz", "g-12")
    diff = diff_dom(PARENT, child)
    assert not diff
    assert diff.renamed == {"f-k3x9": "f-q0pz", "h-k3x9": "h-q0pz", "g-77": "g-12"}


def test_a_reference_to_another_element_is_a_difference() -> None:
    # The input is renamed, but the label now names the hint, not the input.
    child = form("f-q0pz", "h-q0pz", "h-q0pz", "h-q0pz", "f-q0pz", "g-77")
    diff = diff_dom(PARENT, child)
    assert '<label for="h-q0pz">' in [line.strip() for hunk in diff.hunks for line in hunk.after]
    assert diff.renamed == {}


def test_a_reference_left_behind_by_a_renaming_is_a_difference() -> None:
    child = form("f-q0pz", "f-k3x9", "h-k3x9", "h-k3x9", "f-q0pz", "g-77")
    diff = diff_dom(PARENT, child)
    assert diff
    assert diff.renamed == {}


def test_a_link_to_another_existing_element_is_no_renaming() -> None:
    child = form("f-k3x9", "f-k3x9", "h-k3x9", "h-k3x9", "h-k3x9", "g-77")
    diff = diff_dom(PARENT, child)
    assert [line.strip() for hunk in diff.hunks for line in hunk.after] == ['<a href="#h-k3x9">']
    assert diff.renamed == {}


def test_the_items_say_a_renaming_was_ignored_beside_a_real_difference() -> None:
    child = form("f-q0pz", "f-q0pz", "h-q0pz", "h-q0pz", "f-q0pz", "g-77").replace("Required", "Optional")
    items = DOM_CATEGORY.items(diff_dom(PARENT, child))
    assert items == ['#shared: "Required" → "Optional"',
                     "ignored, renamed alike wherever referenced: #f-k3x9 → #f-q0pz, #h-k3x9 → #h-q0pz"]


def test_a_replay_that_renames_its_ids_masks_nothing() -> None:
    child = form("f-q0pz", "f-q0pz", "h-q0pz", "h-q0pz", "f-q0pz", "g-12")
    mask = NoiseMask.from_baselines(StateSnapshot(PARENT), StateSnapshot(child))
    assert mask.dom_keys == frozenset()
