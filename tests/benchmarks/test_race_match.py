"""Matching harmful verdicts to the races named in expected.json."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from benchmarks.race_match import ExpectedRace, expected_races, race_of, side_tokens
from webr4.resources import resource_dir

TWO_XHR = ExpectedRace(frozenset({"price-list.json"}), frozenset({"price-member.json"}), "#price.textContent")
LABELS = {"a": "XHR GET /two-xhr/price-list.json load", "b": "XHR GET /two-xhr/price-member.json load",
          "c": "parse chunk 1/2", "d": "window load"}


def test_side_tokens_keep_files_selectors_and_event_words() -> None:
    assert side_tokens("parse of the body end (execution of cart.js)") == {"parse", "cart.js"}
    assert side_tokens("user click on #add") == {"#add"}
    assert side_tokens("setTimeout 1500ms watchdog") == {"setTimeout"}
    assert side_tokens("the user waits") == frozenset()


def test_pair_matches_in_either_order_but_not_one_side_twice() -> None:
    assert TWO_XHR.matches_pair(LABELS["a"], LABELS["b"])
    assert TWO_XHR.matches_pair(LABELS["b"], LABELS["a"])
    assert not TWO_XHR.matches_pair(LABELS["a"], LABELS["a"])
    assert not TWO_XHR.matches_pair(LABELS["a"], LABELS["c"])


def test_race_of_falls_back_to_the_order_of_the_racing_events() -> None:
    parent, child = ["c", "a", "d", "b"], ["c", "b", "d", "a"]
    assert race_of((LABELS["c"], LABELS["d"]), parent, child, LABELS, [TWO_XHR]) == 0
    assert race_of((LABELS["c"], LABELS["d"]), parent, ["c", "a", "b", "d"], LABELS, [TWO_XHR]) is None
    assert race_of((LABELS["c"], LABELS["d"]), parent, ["c", "b", "d"], LABELS, [TWO_XHR]) is None  # a never ran


@given(st.permutations(list(LABELS)))
def test_a_run_is_never_reordered_against_itself(run: list[str]) -> None:
    assert not TWO_XHR.reordered(run, run, LABELS)


@given(st.permutations(list(LABELS)))
def test_reversing_a_run_reorders_every_pair(run: list[str]) -> None:
    assert TWO_XHR.reordered(run, run[::-1], LABELS)


def test_every_bundled_harmful_site_names_a_matchable_race() -> None:
    for expected_json in resource_dir("sites").glob("*/expected.json"):
        expected = json.loads(expected_json.read_text())
        assert bool(expected_races(expected)) == expected["harmful"], expected_json.parent.name
