"""An event's accesses reduced to what race detection uses: the access summary.

A page can make 10^6 property accesses in one event, and nothing downstream needs them all.
Race detection (:mod:`webr4.engine.races`), the filters (:mod:`webr4.engine.filters`), the
conflict descriptions (:mod:`webr4.engine.describe`), object naming
(:mod:`webr4.browser.naming`) and the classifier read, for one event and one location, only
these **facts** (:class:`LocationFacts`):

* whether the event reads it and whether it writes it, and the kind of its first access;
* the site of its first read and of its first write, and the first site it read and wrote
  at (the first such access that has a site: the report quotes that code);
* the value digest of its first write, whether every write stores that same digest, and the
  digest of its last write;
* whether its accesses are read/write pairs storing numbers only (an increment, ``x += k``);

and, across locations, only the order in which the event first touched each of them.

**The summary schema.** The summary of an event's accesses is itself a list of accesses: for
each location, in order of the event's first access to it, the accesses at the following
positions of that location's own sequence, in their original order and each at most once:

1. the first access;
2. the first read and the first write, and the first read and first write that have a site;
3. the first write whose digest differs from the first write's digest;
4. the last write;

where the location is an increment the chosen writes are kept as read/write pairs (each with
the read just before it), and where it is not but those positions happen to form one, a
second copy of the first read follows the first access. Summarising keeps every fact above,
so anything computed from them is the same on a summary as on the full list; summarising a
summary returns it unchanged. ``instrument_js/runtime/access_summary.js`` builds the same summary in the page
while the event runs and ships only it.

**Unshared reads.** Across a whole trace, a location that only one step touches can take part
in no race, conflict or racing-object name: all of those need two events on one location.
:func:`without_unshared_reads` drops such a location's reads (most of what a framework's
in-page compiler or renderer reads lives in objects it built and dropped within one event) and
keeps every write, because the classifier asks what an event wrote and happens-before reads
the writes that schedule events.

**Held-back locations.** The page goes further for variables and properties
(``instrument_js/access_log/holding.js``): at an event's end it holds back the summary of each one no
earlier event touched, until a later event touches it, then hands it over to join the step that
made it, in the place this schema gives it. What is never handed over was touched by one step
only and leaves the trace, writes included; the step keeps the names it wrote there
(:attr:`webr4.trace.Step.unlisted_writes`), all that the classifier's rules ask of them. Races,
filter decisions, conflicts, racing-object names and rule outcomes stay those of the full log
(``tests/engine/test_summary.py``, ``tests/browser/test_access_summary.py``,
``python -m benchmarks.profiling.held_accesses`` on the real-app corpus).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from webr4.trace import Access, AccessKind, Trace

R, W = AccessKind.READ, AccessKind.WRITE


@dataclass(frozen=True, slots=True)
class LocationFacts:
    """What one event did to one location, as far as anything downstream looks."""

    reads: bool
    writes: bool
    first_kind: AccessKind
    read_site: str | None
    write_site: str | None
    read_at: str | None
    write_at: str | None
    first_value: str | None
    uniform: bool
    last_value: str | None
    increment: bool

    @classmethod
    def of(cls, accesses: Sequence[Access]) -> LocationFacts:
        """The facts of one location's accesses (non-empty, all to that location), in order."""
        reads = [a for a in accesses if a.kind is R]
        writes = [a for a in accesses if a.kind is W]
        values = [a.value for a in writes]
        return cls(
            reads=bool(reads),
            writes=bool(writes),
            first_kind=accesses[0].kind,
            read_site=reads[0].site if reads else None,
            write_site=writes[0].site if writes else None,
            read_at=next((a.site for a in reads if a.site), None),
            write_at=next((a.site for a in writes if a.site), None),
            first_value=values[0] if values else None,
            uniform=all(v == values[0] for v in values),
            last_value=values[-1] if values else None,
            increment=is_increment(accesses),
        )


def is_increment(accesses: Sequence[Access]) -> bool:
    """The accesses are read/write pairs (``x += k``, ``x++``) storing numbers only."""
    if not accesses or len(accesses) % 2:
        return False
    pairs = zip(accesses[::2], accesses[1::2])
    return all(r.kind is R and w.kind is W and (w.value or "").startswith("n:") for r, w in pairs)


def by_location(accesses: Iterable[Access]) -> dict[str, list[Access]]:
    """Accesses grouped by location, locations in order of first access."""
    grouped: dict[str, list[Access]] = {}
    for access in accesses:
        found = grouped.get(access.location)
        if found is None:
            grouped[access.location] = [access]
        else:
            found.append(access)
    return grouped


def summarise(accesses: Iterable[Access]) -> tuple[Access, ...]:
    """The summary of one event's accesses (see the module docstring)."""
    out: list[Access] = []
    for mine in by_location(accesses).values():
        out += _summarise_location(mine)
    return tuple(out)


def without_unshared_reads(trace: Trace) -> Trace:
    """``trace`` without the reads of locations that no other step of it touches (see the
    module docstring). Races, filter decisions, conflicts, racing-object names and every step's
    writes are those of ``trace``; only a step's own read set (the footprint sleep sets compare)
    loses them."""
    steps_touching = Counter(location for step in trace.steps for location in {a.location for a in step.accesses})
    steps = [replace(step, accesses=tuple(a for a in step.accesses if a.kind is W or steps_touching[a.location] > 1))
             for step in trace.steps]
    return replace(trace, steps=steps)


def _summarise_location(accesses: list[Access]) -> list[Access]:
    writes = [i for i, a in enumerate(accesses) if a.kind is W]
    reads = [i for i, a in enumerate(accesses) if a.kind is R]
    kept = {0}
    if reads:
        kept.add(reads[0])
        kept.add(next((i for i in reads if accesses[i].site), reads[0]))
    if writes:
        first = accesses[writes[0]].value
        differing = next((i for i in writes if accesses[i].value != first), None)
        sited = next((i for i in writes if accesses[i].site), writes[0])
        kept.update(i for i in (writes[0], sited, differing, writes[-1]) if i is not None)
    if is_increment(accesses):
        kept |= {i - 1 for i in kept if accesses[i].kind is W}
        kept |= {i + 1 for i in kept if accesses[i].kind is R}
        return [accesses[i] for i in sorted(kept)]
    out = [accesses[i] for i in sorted(kept)]
    if is_increment(out):
        out.insert(1, out[0])
    return out
