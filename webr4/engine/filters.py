"""EventRacer's race filters: patterns whose racing accesses are taken to commute.

Each filter is a :class:`~webr4.engine.races.LocationFilter` with a ``name``: it judges all the
races on one location at once with bitset operations, and, called with one race and its trace,
returns ``False`` to drop it. The evidence is the trace alone (access order within steps, value
digests, event categories and types), so every filter is an approximation of the source-level
pattern it is named after; each docstring states the approximation.

Contracts shared by all filters:

* A race on an ``event:<id>`` shadow location is **never** dropped: it is an enable/disable
  conflict (creating, cancelling or running an event), not a data race.
* Filters only read the trace, through its :class:`~webr4.engine.accesses.AccessIndex`; the
  facts they derive about a location are kept with that index.

:data:`DEFAULT_FILTERS` holds the four filters about the accesses themselves (``same-value``,
``lazy-init``, ``pure-increment``, ``write-before-read``). ``late-handler-attach`` and
``unload`` judge the *events* rather than the accesses, and R4's classifier already decides
those cases after replaying them, so they are available by name only.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from webr4.engine.accesses import AccessIndex, LocationAccesses
from webr4.engine.races import Judge, Race
from webr4.errors import Webr4Error
from webr4.trace import Access, AccessKind, Category, Event, Trace
from webr4.useractions import USER_EVENTS
from webr4.vocabulary import UNLOAD_TYPES

R, W = AccessKind.READ, AccessKind.WRITE

FALSY_DIGESTS = frozenset({"n:0", "n:-0", "n:NaN", "s:", "b:false", "u", "null", "i:0"})
"""Value digests (see ``instrument_js/access_log/objects.js``) of the values JavaScript treats as false."""

JS_PREFIXES = ("global:", "scope:", "prop:")
"""Locations of JavaScript variables and properties (as opposed to DOM, storage or cookies)."""

USER_DISPATCHES: Mapping[str, frozenset[str]] = {name: event.dispatches for name, event in USER_EVENTS.items()}
"""DOM event types each user event type dispatches natively (:data:`webr4.useractions.USER_EVENTS`)."""


@dataclass(frozen=True, slots=True)
class _Facts:
    """What the filters know about one location, as bitsets of the steps that touch it."""

    lazy: int  # first access a read, then a write whose first value is truthy
    increments: int  # read/write pairs storing numbers only (see _is_increment)
    writes_back: int  # every write stores the value the last earlier write of the location stored
    sole_digest: dict[int, str]  # steps writing one known value only, without reading first
    by_digest: dict[str, int]  # the steps of sole_digest, by the value they write
    last_plain_reader: int  # the last step reading it that is not an increment of it (-1: none)
    writes_first: bool  # every step touching it writes it first, and some step reads it

    @classmethod
    def of(cls, location: LocationAccesses) -> _Facts:
        lazy = increments = writes_back = 0
        sole_digest: dict[int, str] = {}
        by_digest: dict[str, int] = {}
        last: str | None = None
        plain_reader = -1
        writes_first, read = True, False
        for step, accesses in location.by_step.items():
            bit = 1 << step
            digests = [a.value for a in accesses if a.kind is W]
            reads = len(digests) < len(accesses)
            reads_first = accesses[0].kind is R
            if digests:
                if reads_first:
                    if digests[0] is not None and digests[0] not in FALSY_DIGESTS:
                        lazy |= bit
                elif digests[0] is not None and digests.count(digests[0]) == len(digests):
                    sole_digest[step] = digests[0]
                    by_digest[digests[0]] = by_digest.get(digests[0], 0) | bit
                if last is not None and digests.count(last) == len(digests):
                    writes_back |= bit
                last = digests[-1]
            increment = reads_first and _is_increment(accesses)
            if increment:
                increments |= bit
            elif reads:
                plain_reader = step
            writes_first = writes_first and not reads_first
            read = read or reads
        return cls(lazy, increments, writes_back, sole_digest, by_digest, plain_reader, writes_first and read)


_facts_of: weakref.WeakKeyDictionary[LocationAccesses, _Facts] = weakref.WeakKeyDictionary()


def _facts(location: LocationAccesses) -> _Facts:
    """The facts about ``location``, derived once per index."""
    found = _facts_of.get(location)
    if found is None:
        found = _facts_of[location] = _Facts.of(location)
    return found


@dataclass(frozen=True)
class NamedFilter:
    """A race filter with a name: a :class:`~webr4.engine.races.LocationFilter`.

    ``pattern`` builds the judge of one location's races (``None`` when no race there can match).
    Races on ``event:`` locations are always kept.
    """

    name: str
    pattern: Callable[[LocationAccesses, Trace], Judge | None]

    @property
    def description(self) -> str:
        """The first line of the pattern's docstring."""
        return (self.pattern.__doc__ or "").strip().splitlines()[0]

    def at(self, location: LocationAccesses, trace: Trace) -> Judge | None:
        """The judge of ``location``'s races, or ``None`` when the filter keeps all of them."""
        if location.location.startswith("event:"):
            return None
        return self.pattern(location, trace)

    def __call__(self, race: Race, trace: Trace) -> bool:
        """Whether to keep ``race`` (a race of ``trace``)."""
        location = AccessIndex.of(trace).locations.get(race.location)
        judge = self.at(location, trace) if location is not None else None
        return judge is None or not judge(race.second, 1 << race.first)


def _is_increment(accesses: Sequence[Access]) -> bool:
    """The accesses are read/write pairs (``x += k``, ``x++``) storing numbers only."""
    if not accesses or len(accesses) % 2:
        return False
    pairs = zip(accesses[::2], accesses[1::2])
    return all(r.kind is R and w.kind is W and (w.value or "").startswith("n:") for r, w in pairs)


def _same_value(location: LocationAccesses, trace: Trace) -> Judge | None:
    """Both sides write the same value, or one side writes back the value already stored.

    Write/write race: every write of the location in both steps carries one non-null digest,
    and neither step reads the location before writing it (such a read would see the order).
    Read/write race: every write in the writing step stores the digest of the last write of the
    location in an earlier step of the trace, so the reader sees the same value either way.
    """
    facts = _facts(location)
    writers, writes_back, sole_digest, by_digest = (
        location.writers, facts.writes_back, facts.sole_digest, facts.by_digest)
    if not writes_back and not by_digest:
        return None

    def judge(later: int, earlier: int) -> int:
        if not writers >> later & 1:  # a read racing with earlier writes
            return earlier & writes_back
        dropped = earlier & ~writers if writes_back >> later & 1 else 0
        digest = sole_digest.get(later)
        return dropped | earlier & by_digest[digest] if digest is not None else dropped

    return judge


def _lazy_init(location: LocationAccesses, trace: Trace) -> Judge | None:
    """Both sides initialise the location on demand: ``x = x || v``, ``if (!x) x = v``.

    Approximation: in each racing step the first access to the location is a read and a write
    follows it, and the step's first write stores a truthy digest (non-null and not one of
    :data:`FALSY_DIGESTS`), so a second run of the check finds it set.
    """
    lazy = _facts(location).lazy
    if not lazy:
        return None
    return lambda later, earlier: earlier & lazy if lazy >> later & 1 else 0


def _pure_increment(location: LocationAccesses, trace: Trace) -> Judge | None:
    """Both sides add to a number nobody else reads: ``x += k`` commutes with ``x += m``.

    Approximation of "never branching on the value": in each racing step the accesses to the
    location are read/write pairs with each read immediately followed by a write (among the
    accesses to that location) that stores a numeric digest (``n:``), and every other step after
    the first racing one that reads the location is itself such an increment. A step that shows
    the total reads it without writing, so the race is kept.
    """
    facts = _facts(location)
    increments = facts.increments
    if not increments:
        return None
    after_plain_reads = increments & (-1 << max(facts.last_plain_reader, 0))
    return lambda later, earlier: earlier & after_plain_reads if increments >> later & 1 else 0


def _write_before_read(location: LocationAccesses, trace: Trace) -> Judge | None:
    """Every event uses the JavaScript variable locally: it writes it before any read.

    Matches ``global:``, ``scope:`` and ``prop:`` locations only (DOM, storage and cookie state
    outlives the event and is seen by the user). Every step of the trace that accesses the
    location starts with a write, and at least one of them reads it (a location that is only
    written is a plain last-writer-wins race and is kept).
    """
    if location.location.startswith(JS_PREFIXES) and _facts(location).writes_first:
        return lambda later, earlier: earlier
    return None


def _steps_running(location: LocationAccesses, trace: Trace, matches: Callable[[Event], bool]) -> int:
    """The bitset of the steps touching ``location`` whose event ``matches``."""
    found = 0
    for step in location.by_step:
        event = trace.events.get(trace.steps[step].event)
        if event is not None and matches(event):
            found |= 1 << step
    return found


def _late_handler_attach(location: LocationAccesses, trace: Trace) -> Judge | None:
    """A user event races with the event that registers a handler it dispatches to.

    Matches a ``handler:<key>.<type>`` race between a step that writes it (adds or removes the
    handler) and a step that only reads it (dispatches ``<type>`` to the target), when the
    reading step's event is a user event whose action kind natively dispatches ``<type>``
    (:data:`USER_DISPATCHES`). The user is assumed to wait until the page has set itself up.
    """
    if not location.location.startswith("handler:"):
        return None
    handler_type = location.location.rsplit(".", 1)[-1]
    writers = location.writers
    dispatching = ~writers & _steps_running(
        location, trace, lambda event: event.category is Category.USER
        and handler_type in USER_DISPATCHES.get(event.type, frozenset({event.type})))
    if not dispatching:
        return None

    def judge(later: int, earlier: int) -> int:
        if writers >> later & 1:
            return earlier & dispatching
        return earlier if dispatching >> later & 1 else 0

    return judge


def _unload(location: LocationAccesses, trace: Trace) -> Judge | None:
    """One racing event is an unload-type event (``unload``, ``beforeunload``, ``pagehide``): the page is
    going away."""
    leaving = _steps_running(location, trace, lambda event: event.type in UNLOAD_TYPES)
    if not leaving:
        return None
    return lambda later, earlier: earlier if leaving >> later & 1 else earlier & leaving


SAME_VALUE = NamedFilter("same-value", _same_value)
LAZY_INIT = NamedFilter("lazy-init", _lazy_init)
PURE_INCREMENT = NamedFilter("pure-increment", _pure_increment)
WRITE_BEFORE_READ = NamedFilter("write-before-read", _write_before_read)
LATE_HANDLER_ATTACH = NamedFilter("late-handler-attach", _late_handler_attach)
UNLOAD = NamedFilter("unload", _unload)

ALL_FILTERS: tuple[NamedFilter, ...] = (
    SAME_VALUE,
    LAZY_INIT,
    PURE_INCREMENT,
    WRITE_BEFORE_READ,
    LATE_HANDLER_ATTACH,
    UNLOAD,
)
DEFAULT_FILTERS: tuple[NamedFilter, ...] = (SAME_VALUE, LAZY_INIT, PURE_INCREMENT, WRITE_BEFORE_READ)


class UnknownFilter(Webr4Error, ValueError):
    """A race filter name that no filter has."""


def filters_by_name(names: Iterable[str]) -> tuple[NamedFilter, ...]:
    """The filters called ``names``, in the order given.

    Raises :class:`UnknownFilter` naming every unknown name and listing the valid ones.
    """
    known = {f.name: f for f in ALL_FILTERS}
    names = list(names)
    unknown = [name for name in names if name not in known]
    if unknown:
        raise UnknownFilter(
            f"unknown race filter{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}; "
            f"valid filters: {', '.join(known)}"
        )
    return tuple(known[name] for name in names)
