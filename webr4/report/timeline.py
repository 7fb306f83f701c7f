"""Geometry of the timeline: the seed's events over virtual time, one lane per category, with
the happens-before edges into the racing events and an arc for every reversed pair."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from webr4.trace import Category, Trace

LEFT, TOP, LANE, GAP, SPAN = 110, 30, 48, 22, 900


@dataclass(frozen=True)
class Node:
    step: int
    x: float
    y: float
    label: str
    category: str
    time: float
    racing: bool


@dataclass(frozen=True)
class Edge:
    """A line from ``(x1, y1)`` to ``(x2, y2)``; ``kind`` is ``hb`` or ``race``; ``reversal`` is
    the reversal index an arc belongs to (``None`` for happens-before edges)."""

    x1: float
    y1: float
    x2: float
    y2: float
    kind: str
    reversal: int | None = None


@dataclass(frozen=True)
class Lane:
    name: str
    y: float


@dataclass(frozen=True)
class Timeline:
    width: float
    height: float
    lanes: list[Lane]
    nodes: list[Node]
    edges: list[Edge]
    end_time: float


def layout(seed: Trace, pairs: Iterable[tuple[int, str, str]]) -> Timeline:
    """Lay out ``seed``; ``pairs`` are ``(reversal index, first id, second id)``."""
    pairs = list(pairs)
    racing = {e for _, a, b in pairs for e in (a, b)}
    categories = [c.value for c in Category
                  if any(seed.events[s.event].category is c for s in seed.steps if s.event in seed.events)]
    lanes = [Lane(name, TOP + LANE * i + LANE / 2) for i, name in enumerate(categories)]
    lane_y = {lane.name: lane.y for lane in lanes}
    end = max((s.time for s in seed.steps), default=0.0)
    scale = SPAN / end if end > 0 else 0.0
    nodes: list[Node] = []
    x: float = LEFT - GAP
    for index, step in enumerate(seed.steps):
        event = seed.events.get(step.event)
        category = event.category.value if event else Category.OTHER.value
        x = max(LEFT + step.time * scale, x + GAP)
        nodes.append(Node(index, x, lane_y.get(category, TOP), event.label if event else step.event,
                          category, step.time, step.event in racing))
    position = {seed.steps[n.step].event: n for n in nodes}
    edges = [Edge(nodes[p].x, nodes[p].y, n.x, n.y, "hb")
             for n in nodes if n.racing for p in seed.steps[n.step].predecessors if 0 <= p < len(nodes)]
    for reversal, first, second in pairs:
        if first in position and second in position:
            a, b = position[first], position[second]
            edges.append(Edge(a.x, a.y, b.x, b.y, "race", reversal))
    return Timeline(x + GAP + 40, TOP + LANE * max(len(lanes), 1) + 30, lanes, nodes, edges, end)
