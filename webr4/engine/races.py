"""Races and uncovered races of one trace (R4 §4.4, after EventRacer).

A **race** is a pair of steps ``i < j`` that happens-before leaves unordered and that access one
location, at least one of them writing it. Races are found **per location**: a step that touches
many locations races on each of them separately, so a later reversal can be matched against
every location a multi-access event shares, not just the first conflict found.

A race ``(i, j)`` is **covered** when another racing pair ``(k, l) != (i, j)`` exists with
``i ≤hb k`` and ``l ≤hb j``: then ``i`` and ``j`` can never be adjacent in a linearization, so
reversing them is not a single conflict reversal. Coverage is a property of the *pair of steps*;
all the per-location races of an uncovered pair are uncovered.

Filters (:data:`RaceFilter`) run before coverage: a race a filter rejects is treated as a claim
that the two accesses commute, so it neither yields a reversal nor covers other races.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from webr4.engine.hb import HappensBefore, iter_bits
from webr4.trace import AccessKind, Step, Trace


@dataclass(frozen=True)
class Race:
    """Steps ``first < second`` race on ``location``; the sites are of the conflicting accesses."""

    first: int
    second: int
    location: str
    first_kind: AccessKind
    second_kind: AccessKind
    first_site: str | None
    second_site: str | None

    @property
    def pair(self) -> tuple[int, int]:
        return (self.first, self.second)


RaceFilter = Callable[[Race, Trace], bool]
"""Returns ``False`` to discard a race (declare the two accesses commuting)."""


class _Touch(NamedTuple):
    """What one step did to one location: whether it read and wrote it, and the first sites."""

    reads: bool
    writes: bool
    read_site: str | None
    write_site: str | None


def _touches(step: Step) -> dict[str, _Touch]:
    """Collapse a step's accesses to one record per location, in first-access order."""
    found: dict[str, list] = {}
    for access in step.accesses:
        entry = found.get(access.location)
        if entry is None:
            entry = found[access.location] = [False, False, None, None]
        if access.kind is AccessKind.READ:
            if not entry[0]:
                entry[0], entry[2] = True, access.site
        elif not entry[1]:
            entry[1], entry[3] = True, access.site
    return {location: _Touch(*entry) for location, entry in found.items()}


@dataclass(frozen=True)
class RaceAnalysis:
    """All races of a trace and the uncovered ones, both in ``(second, first, location)`` order."""

    races: tuple[Race, ...]
    uncovered: tuple[Race, ...]

    def uncovered_pairs(self) -> dict[tuple[int, int], tuple[Race, ...]]:
        """Uncovered step pairs, each with its races (one per shared location)."""
        pairs: dict[tuple[int, int], list[Race]] = {}
        for race in self.uncovered:
            pairs.setdefault(race.pair, []).append(race)
        return {pair: tuple(races) for pair, races in pairs.items()}


def find_races(
    trace: Trace,
    hb: HappensBefore | None = None,
    filters: Iterable[RaceFilter] = (),
) -> RaceAnalysis:
    """Find every race of ``trace`` and mark which are uncovered.

    Runs one sweep over the steps keeping, per location, bitsets of the earlier steps that read
    or wrote it; the candidates for step ``j`` are those bitsets minus ``j``'s ancestors, so the
    cost is proportional to the accesses plus the races found, not to all pairs of steps.
    """
    hb = hb if hb is not None else HappensBefore(trace.steps)
    filters = tuple(filters)
    races: list[Race] = []
    accessed: dict[str, int] = {}
    written: dict[str, int] = {}
    touches = [_touches(step) for step in trace.steps]
    for j, step_touches in enumerate(touches):
        unordered = ~hb.ancestors(j)
        for location, touch in step_touches.items():
            pool = accessed.get(location, 0) if touch.writes else written.get(location, 0)
            for i in iter_bits(pool & unordered):
                race = _race(i, j, location, touches[i][location], touch)
                for keep in filters:
                    if not keep(race, trace):
                        break
                else:
                    races.append(race)
            bit = 1 << j
            accessed[location] = accessed.get(location, 0) | bit
            if touch.writes:
                written[location] = written.get(location, 0) | bit
    return RaceAnalysis(tuple(races), tuple(_uncovered(races, hb, trace.steps)))


def _race(i: int, j: int, location: str, earlier: _Touch, later: _Touch) -> Race:
    if later.writes:
        first_kind = AccessKind.WRITE if earlier.writes else AccessKind.READ
        first_site = earlier.write_site if earlier.writes else earlier.read_site
        second_kind, second_site = AccessKind.WRITE, later.write_site
    else:
        first_kind, first_site = AccessKind.WRITE, earlier.write_site
        second_kind, second_site = AccessKind.READ, later.read_site
    return Race(i, j, location, first_kind, second_kind, first_site, second_site)


def _uncovered(races: Sequence[Race], hb: HappensBefore, steps: Sequence[Step]) -> list[Race]:
    """The races whose step pair no other racing pair covers.

    With ``partners[l]`` the bitset of steps ``k`` racing with a later step ``l``, and
    ``below[j]`` the union of ``partners[l]`` over all ``l ≤hb j``, a pair ``(i, j)`` is covered
    iff some ``k ≥hb i`` lies in ``below`` of a strict ancestor of ``j``, or some ``k >hb i``
    races with ``j`` itself.
    """
    n = len(steps)
    partners = [0] * n
    for race in races:
        partners[race.second] |= 1 << race.first
    below = [0] * n
    below_strict = [0] * n
    for j in range(n):
        strict = 0
        for p in hb.direct_predecessors(j):
            strict |= below[p]
        below_strict[j] = strict
        below[j] = strict | partners[j]
    verdicts: dict[tuple[int, int], bool] = {}
    kept = []
    for race in races:
        i, j = race.pair
        if (i, j) not in verdicts:
            after_i = hb.descendants(i)
            covered = bool((after_i | (1 << i)) & below_strict[j]) or bool(after_i & partners[j])
            verdicts[(i, j)] = not covered
        if verdicts[(i, j)]:
            kept.append(race)
    return kept
