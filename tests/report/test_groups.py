"""Near-identical reversals grouped for the overview, likeliest race first."""

from __future__ import annotations

from typing import Any

from webr4.report.groups import group_key, groups
from webr4.rundir.summary import ReversalReport

CLICK_VS_CHUNK = ("user click", "parse parse")


def reversal(index: int, verdict: str = "harmful", differences: dict[str, Any] | None = None,
             **extra: Any) -> ReversalReport:
    return ReversalReport.from_json({"id": index, "verdict": verdict, "differences": differences or {}, **extra})


def test_the_same_kinds_and_differences_modulo_numbers_are_one_group() -> None:
    a = reversal(1, differences={"dom": ['#row-3: "2 left" → "1 left"'], "screenshot": ["96 pixels changed"]})
    b = reversal(2, differences={"screenshot": ["40 pixels changed"], "dom": ['#row-7: "5 left" → "4 left"']})
    assert group_key(a, CLICK_VS_CHUNK) == group_key(b, tuple(reversed(CLICK_VS_CHUNK)))  # type: ignore[arg-type]


def test_another_verdict_kind_or_difference_is_another_group() -> None:
    base = reversal(1, differences={"dom": ['#log: "a" → "b"']})
    assert group_key(base, CLICK_VS_CHUNK) != group_key(reversal(2, "harmless", base.differences), CLICK_VS_CHUNK)
    assert group_key(base, CLICK_VS_CHUNK) != group_key(base, ("network xhr", "timer setTimeout"))
    assert group_key(base, CLICK_VS_CHUNK) != group_key(reversal(3, differences={"dom": ['#log: "a" → "c"']}),
                                                        CLICK_VS_CHUNK)


def test_groups_lead_with_the_smallest_timing_distance_and_keep_their_order() -> None:
    same = {"dom": ['#status: "done" → "item 1"']}
    listed = [reversal(1, differences=same, timing_ms=3000.0), reversal(2, "harmless"),
              reversal(3, differences=same, timing_ms=0.2), reversal(4, differences=same, unrealised="x never ran"),
              reversal(5, differences=same)]
    grouped = groups(listed, lambda r: CLICK_VS_CHUNK)
    assert [[r.index for r in group] for group in grouped] == [[3, 1, 5, 4], [2]]
