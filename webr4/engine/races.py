"""Races and uncovered races of one trace (R4 §4.4, after EventRacer).

A **race** is a pair of steps ``i < j`` that happens-before leaves unordered and that access one
location, at least one of them writing it. Races are found **per location**: a step that touches
many locations races on each of them separately, so a later reversal can be matched against
every location a multi-access event shares, not just the first conflict found.

A race ``(i, j)`` is **covered** when another racing pair ``(k, l) != (i, j)`` exists with
``i ≤hb k`` and ``l ≤hb j``: then ``i`` and ``j`` can never be adjacent in a linearization, so
reversing them is not a single conflict reversal. Coverage is a property of the *pair of steps*;
all the per-location races of an uncovered pair are uncovered.

Filters run before coverage: a race a filter rejects is treated as a claim that the two accesses
commute, so it neither yields a reversal nor covers other races. A filter is either a plain
:data:`RaceFilter`, asked about one race at a time, or a :class:`LocationFilter`, which judges
every race on a location with a few bitset operations; the built-in filters are the latter.

The work is done on bitsets of steps, per location and per later step, so its cost is
proportional to the accesses and to the racing pairs of steps, with no Python call per race
until the races are handed out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol, runtime_checkable

from webr4.engine.accesses import AccessIndex, LocationAccesses, Touch
from webr4.engine.hb import HappensBefore, iter_bits
from webr4.trace import AccessKind, Trace


@dataclass(frozen=True, slots=True)
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

Judge = Callable[[int, int], int]
"""Given a later step ``j`` and the bitset of the earlier steps racing with ``j`` on one location,
returns the subset whose races with ``j`` there are to be discarded."""


@runtime_checkable
class LocationFilter(Protocol):
    """A race filter that can judge all the races on one location at once.

    Calling it on a single race must agree with :meth:`at`: the race is kept iff the judge for its
    location does not return the race's earlier step.
    """

    def __call__(self, race: Race, trace: Trace) -> bool: ...

    def at(self, location: LocationAccesses, trace: Trace) -> Judge | None:
        """The judge of ``location``'s races, or ``None`` when the filter keeps all of them."""
        ...


@dataclass(frozen=True)
class RaceAnalysis:
    """The races of a trace that the filters kept, and the uncovered ones.

    ``uncovered`` is computed with the analysis; the list of all races is built on first use of
    :attr:`races` (a sweep only ever plans from the uncovered ones). Both are ordered by
    ``(second, first)``; the races of one pair of steps are in order of their locations' first
    access in the trace.
    """

    uncovered: tuple[Race, ...]
    race_count: int
    _kept: tuple[tuple[LocationAccesses, int, int], ...] = field(repr=False, compare=False)

    @cached_property
    def races(self) -> tuple[Race, ...]:
        """Every race the filters kept."""
        return _ordered(_races(self._kept))

    def uncovered_pairs(self) -> dict[tuple[int, int], tuple[Race, ...]]:
        """Uncovered step pairs, each with its races (one per shared location)."""
        pairs: dict[tuple[int, int], list[Race]] = {}
        for race in self.uncovered:
            pairs.setdefault(race.pair, []).append(race)
        return {pair: tuple(races) for pair, races in pairs.items()}


def find_races(
    trace: Trace,
    hb: HappensBefore | None = None,
    filters: Iterable[RaceFilter | LocationFilter] = (),
) -> RaceAnalysis:
    """Find every race of ``trace`` that the filters keep, and the uncovered ones among them."""
    hb = hb if hb is not None else HappensBefore(trace.steps)
    filters = tuple(filters)
    partners = [0] * len(trace.steps)
    kept: list[tuple[LocationAccesses, int, int]] = []
    count = 0
    for location in AccessIndex.of(trace).locations.values():
        candidates = _candidates(location, hb)
        if not candidates:
            continue
        judges = [judge for f in filters if (judge := _judge(f, location, trace)) is not None]
        for later, earlier in candidates:
            for judge in judges:
                earlier &= ~judge(later, earlier)
                if not earlier:
                    break
            else:
                kept.append((location, later, earlier))
                partners[later] |= earlier
                count += earlier.bit_count()
    uncovered = _uncovered(partners, hb)
    uncovered_kept = [(location, later, earlier & uncovered[later]) for location, later, earlier in kept]
    return RaceAnalysis(_ordered(_races(uncovered_kept)), count, tuple(kept))


def _candidates(location: LocationAccesses, hb: HappensBefore) -> list[tuple[int, int]]:
    """Each step ``j`` touching ``location`` with the bitset of the earlier steps racing with it
    there (those unordered with ``j`` that write it, or that access it when ``j`` writes)."""
    found = []
    accessed = written = 0
    writers = location.writers
    for later in location.by_step:
        bit = 1 << later
        writes = writers & bit
        pool = accessed if writes else written
        if pool:
            racing = pool & ~hb.ancestors(later)
            if racing:
                found.append((later, racing))
        accessed |= bit
        if writes:
            written |= bit
    return found


def _judge(race_filter: RaceFilter | LocationFilter, location: LocationAccesses, trace: Trace) -> Judge | None:
    if isinstance(race_filter, LocationFilter):
        return race_filter.at(location, trace)

    def judge(later: int, earlier: int) -> int:
        return sum(1 << i for i in iter_bits(earlier) if not race_filter(_race(location, i, later), trace))

    return judge


def _ordered(races: Iterable[Race]) -> tuple[Race, ...]:
    return tuple(sorted(races, key=lambda race: (race.second, race.first)))


def _races(kept: Iterable[tuple[LocationAccesses, int, int]]) -> Iterator[Race]:
    """The races of ``(location, later step, bitset of earlier steps)`` triples.

    The earlier side's access is its write, except that a step that only reads races (as a
    read) with a later write.
    """
    touches: dict[tuple[int, int], Touch] = {}
    for location, later, earlier in kept:
        if not earlier:
            continue
        name = location.location
        second = location.touch(later)
        second_kind = AccessKind.WRITE if second.writes else AccessKind.READ
        second_site = second.write_site if second.writes else second.read_site
        for i in iter_bits(earlier):
            first = touches.get((id(location), i))
            if first is None:
                first = touches[(id(location), i)] = location.touch(i)
            if first.writes:
                yield Race(i, later, name, AccessKind.WRITE, second_kind, first.write_site, second_site)
            else:
                yield Race(i, later, name, AccessKind.READ, second_kind, first.read_site, second_site)


def _race(location: LocationAccesses, first: int, second: int) -> Race:
    (race,) = _races([(location, second, 1 << first)])
    return race


def _uncovered(partners: list[int], hb: HappensBefore) -> list[int]:
    """Per step ``j``, the bitset of the steps ``i`` such that the race ``(i, j)`` is uncovered.

    ``partners[j]`` is the bitset of the steps racing with ``j`` (as the earlier step). The pair
    ``(i, j)`` is covered iff some racing pair ``(k, l)`` has ``l`` a strict ancestor of ``j``
    and ``i ≤hb k``, or ``l = j`` and ``i <hb k``. So with ``reach[l]`` the steps at or before
    (in happens-before) some partner of some ``l' ≤hb l``, the covered partners of ``j`` are
    those in ``reach`` of a direct predecessor of ``j`` or strictly before another partner of
    ``j``. One pass in trace order computes ``reach`` from the direct predecessors.
    """
    reach = [0] * len(partners)
    uncovered = [0] * len(partners)
    for j, mine in enumerate(partners):
        before = 0
        for p in hb.direct_predecessors(j):
            before |= reach[p]
        if mine:
            below_mine = _strict_ancestors_of_any(mine, hb)
            uncovered[j] = mine & ~(before | below_mine)
            before |= mine | below_mine
        reach[j] = before
    return uncovered


def _strict_ancestors_of_any(steps: int, hb: HappensBefore) -> int:
    """The steps that strictly happen before at least one of ``steps``.

    Visits ``steps`` from the latest down and skips those already known to be ancestors: their
    own ancestors are included in the ancestors of the step that has them as ancestor.
    """
    found = 0
    while steps:
        latest = steps.bit_length() - 1
        ancestors = hb.ancestors(latest)
        found |= ancestors
        steps &= ~ancestors
        steps ^= 1 << latest
    return found
