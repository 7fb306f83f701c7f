"""Side-by-side alignment of a parent's event sequence with its child's."""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

from webr4.trace import Trace


@dataclass(frozen=True)
class Row:
    """One line of the alignment. ``status`` is ``same`` (both ran it here), ``moved`` (both ran
    it, at different places), ``lost`` (only the parent ran it), ``new`` (only the child ran it)."""

    parent: str | None
    child: str | None
    parent_status: str | None
    child_status: str | None
    racing: bool  # one of the two reversed events is on this row
    first_difference: bool


def _label(trace: Trace, event_id: str) -> str:
    event = trace.events.get(trace.matched.get(event_id, event_id))
    return event.label if event else event_id


def align(parent: Trace, child: Trace, racing: frozenset[str]) -> list[Row]:
    """Rows pairing ``parent``'s steps with ``child``'s; the first differing row is marked."""
    a, b = parent.sequence, child.planned_sequence
    in_a, in_b = set(a), set(b)
    rows: list[Row] = []
    marked = False
    matcher = SequenceMatcher(a=a, b=b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            rows.extend(Row(_label(parent, e), _label(child, e), "same", "same", e in racing, False) for e in a[i1:i2])
            continue
        left, right = a[i1:i2], b[j1:j2]
        for k in range(max(len(left), len(right))):
            x = left[k] if k < len(left) else None
            y = right[k] if k < len(right) else None
            rows.append(Row(
                _label(parent, x) if x else None, _label(child, y) if y else None,
                None if x is None else ("moved" if x in in_b else "lost"),
                None if y is None else ("moved" if y in in_a else "new"),
                x in racing or y in racing, not marked))
            marked = True
    return rows
