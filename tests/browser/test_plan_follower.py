"""Following a plan approximately: the Python follower against brute facts and against the page's.

``webr4/browser/replay.py`` and ``instrument_js/runtime/replay.js`` make the same choices on the
same state (random plans and random pending sets, ids with and without creator-free parts), and
a few cases state what approximate replay promises: a planned event that is not pending yet is
not given up, a new creator does not lose an event its identity, and an event the plan does not
name runs when a browser would run it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from webr4.browser.replay import Choice, Order, PlanFollower

RUNNER = Path(__file__).with_name("plan_follower_runner.js")
NODE = shutil.which("node") or "/usr/bin/node"

# Ids as the runtime makes them: EXACT~LOOSE, a few sharing a loose part, user steps without one,
# and an earlier version's id (an exact part alone).
IDS = ("a~1", "b~2", "c~3", "x~1", "y~2", "z~9", "u0:click:#go", "u1:fill:#name", "b")
orders = st.tuples(st.sampled_from((0.0, 4.0, 100.0)), st.sampled_from((0, 2)), st.integers(0, 5))


def in_page(cases: list[tuple[list[str], list[dict[str, Order]]]]) -> list[dict]:
    payload = [{"state": {"plan": plan, "waiting": [], "diverged": False},
                "calls": [[[event, *order] for event, order in enabled.items()] for enabled in calls]}
               for plan, calls in cases]
    done = subprocess.run([NODE, str(RUNNER)], input=json.dumps(payload), capture_output=True, text=True,
                          timeout=60, check=True)
    return json.loads(done.stdout)


def in_python(plan: list[str], calls: list[dict[str, Order]]) -> dict:
    follower = PlanFollower(plan)
    choices = []
    for enabled in calls:
        choice = follower.choose(enabled)
        choices.append(None if choice is None else [choice.event, choice.planned])
    return {"choices": choices, "cursor": follower.cursor, "waiting": follower.waiting, "skipped": follower.skipped,
            "diverged": follower.diverged, "matched": [list(pair) for pair in follower.matched.items()]}


case = st.tuples(st.lists(st.sampled_from(IDS), max_size=8, unique=True),
                 st.lists(st.dictionaries(st.sampled_from(IDS), orders, max_size=5), min_size=1, max_size=8))


@settings(max_examples=10, deadline=None)
@given(st.lists(case, min_size=1, max_size=40))
def test_the_page_follows_a_plan_as_python_does(cases) -> None:
    # One Node process per example: it runs a batch of cases.
    assert in_page(cases) == [in_python(plan, calls) for plan, calls in cases]


def test_a_planned_event_not_pending_yet_runs_when_it_appears() -> None:
    follower = PlanFollower(["a~1", "b~2", "c~3"])
    assert follower.choose({"b~2": (0.0, 0, 1)}) == Choice("b~2", "b~2")  # a~1 waits
    assert follower.choose({"a~1": (5.0, 0, 2), "c~3": (0.0, 0, 3)}) == Choice("a~1", "a~1")
    assert follower.choose({"c~3": (0.0, 0, 3)}) == Choice("c~3", "c~3")
    assert follower.waiting == [] and follower.skipped == ["a~1"]


def test_an_event_whose_creator_changed_keeps_its_place_in_the_plan() -> None:
    follower = PlanFollower(["m1~1", "m2~2", "t9~3", "x9~4"])
    assert follower.choose({"m1~1": (0.0, 0, 1), "m2~2": (0.0, 0, 2)}) == Choice("m1~1", "m1~1")
    assert follower.choose({"m2~2": (0.0, 0, 2)}) == Choice("m2~2", "m2~2")
    # The timer was recorded as m2's child (t9); this time m1 created it (t7), with the same loose part.
    assert follower.choose({"t7~3": (4.0, 0, 3)}) == Choice("t7~3", "t9~3")
    assert follower.matched == {"t9~3": "t7~3"}


def test_an_unnamed_event_due_first_runs_first_once_the_run_has_left_the_plan() -> None:
    follower = PlanFollower(["a~1", "u0:click:#go"])
    new_timer = {"n~7": (4.0, 0, 2)}
    # Before anything waited, the plan decides alone.
    assert follower.choose({"a~1": (10.0, 0, 1), **new_timer}) == Choice("a~1", "a~1")
    follower = PlanFollower(["a~1", "u0:click:#go"])
    assert follower.choose({"u0:click:#go": (1000.0, 2, 0), **new_timer}) == Choice("n~7", None)
    assert follower.choose({"u0:click:#go": (1000.0, 2, 0)}) == Choice("u0:click:#go", "u0:click:#go")
    assert follower.waiting == follower.skipped == ["a~1"]


def test_a_plan_of_ids_without_a_loose_part_names_the_same_events() -> None:
    # A run stored by an earlier version: its ids are the exact parts of today's.
    follower = PlanFollower(["p1", "t5", "n8"])
    assert follower.choose({"p1~a": (0.0, 0, 1), "n8~c": (0.0, 0, 3)}) == Choice("p1~a", "p1")
    assert follower.choose({"n8~c": (0.0, 0, 3), "t5~b": (4.0, 0, 2)}) == Choice("t5~b", "t5")
    assert follower.skipped == [] and follower.matched == {"p1": "p1~a", "t5": "t5~b"}
