"""A trace's accesses grouped by location: the view that race detection and the filters share.

Races are decided one location at a time (two steps race on a location or they do not), so both
the detector and the filters read the trace through :class:`AccessIndex`: per location, the
steps that touch it in trace order, each with its accesses to that location in program order.
Sets of steps are Python ints used as bitsets (bit ``i`` stands for step ``i``), the same
representation :class:`~webr4.engine.hb.HappensBefore` answers in.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import NamedTuple

from webr4.trace import Access, AccessKind, Trace


class Touch(NamedTuple):
    """What one step did to one location: whether it read and wrote it, and the first sites."""

    reads: bool
    writes: bool
    read_site: str | None
    write_site: str | None


@dataclass(eq=False)
class LocationAccesses:
    """Every access to ``location``, grouped by step.

    ``by_step`` maps each step that touches the location, in increasing order, to its accesses to
    it in the order they happened; ``writers`` is the bitset of the steps among them that write it.
    Instances compare by identity, so analyses may memoise facts about one per trace.
    """

    location: str
    by_step: dict[int, list[Access]] = field(default_factory=dict)
    writers: int = 0

    def touch(self, step: int) -> Touch:
        """What ``step`` (one of ``by_step``) did to the location."""
        read_site = write_site = None
        reads = writes = False
        for access in self.by_step[step]:
            if access.kind is AccessKind.WRITE:
                if not writes:
                    writes, write_site = True, access.site
            elif not reads:
                reads, read_site = True, access.site
        return Touch(reads, writes, read_site, write_site)


class AccessIndex:
    """The accesses of one trace by location, in order of each location's first access.

    Contract: the index describes the trace's steps as they were when it was built; use
    :meth:`of` to get an index that is rebuilt when the step list changes. It keeps no reference
    to the trace itself, so a cached index never keeps its trace alive.
    """

    def __init__(self, trace: Trace) -> None:
        self._steps = trace.steps
        self._size = len(trace.steps)
        locations: dict[str, LocationAccesses] = {}
        for index, step in enumerate(trace.steps):
            mine: dict[str, list[Access]] = {}
            for access in step.accesses:
                accesses = mine.get(access.location)
                if accesses is None:
                    mine[access.location] = [access]
                else:
                    accesses.append(access)
            for name, accesses in mine.items():
                found = locations.get(name)
                if found is None:
                    found = locations[name] = LocationAccesses(name)
                found.by_step[index] = accesses
                for access in accesses:
                    if access.kind is AccessKind.WRITE:
                        found.writers |= 1 << index
                        break
        self.locations = locations

    @classmethod
    def of(cls, trace: Trace) -> AccessIndex:
        """The index of ``trace``, built on first use, kept while the trace lives and its step
        list is unchanged."""
        found = _indexes.get(id(trace))
        if found is None or found._steps is not trace.steps or found._size != len(trace.steps):
            if found is None:
                weakref.finalize(trace, _indexes.pop, id(trace), None)
            found = _indexes[id(trace)] = cls(trace)
        return found


_indexes: dict[int, AccessIndex] = {}
