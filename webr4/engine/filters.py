"""EventRacer's race filters: patterns whose racing accesses are taken to commute.

Each filter is a :data:`~webr4.engine.races.RaceFilter` with a ``name``: called with a race and
its trace, it returns ``False`` to drop the race. The evidence is the trace alone (access order
within steps, value digests, event categories and types), so every filter is an approximation of
the source-level pattern it is named after; each docstring states the approximation.

Contracts shared by all filters:

* A race on an ``event:<id>`` shadow location is **never** dropped: it is an enable/disable
  conflict (creating, cancelling or running an event), not a data race.
* Filters only read the trace; the per-location index they share is built once per trace object
  and reused while its step list is unchanged.

:data:`DEFAULT_FILTERS` holds the four filters about the accesses themselves (``same-value``,
``lazy-init``, ``pure-increment``, ``write-before-read``). ``late-handler-attach`` and
``unload`` judge the *events* rather than the accesses, and R4's classifier already decides
those cases after replaying them, so they are available by name only.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from webr4.engine.races import Race
from webr4.trace import Access, AccessKind, Category, EventId, Trace

R, W = AccessKind.READ, AccessKind.WRITE

FALSY_DIGESTS = frozenset({"n:0", "n:-0", "n:NaN", "s:", "b:false", "u", "null", "i:0"})
"""Value digests (see ``instrument_js/access_log.js``) of the values JavaScript treats as false."""

JS_PREFIXES = ("global:", "scope:", "prop:")
"""Locations of JavaScript variables and properties (as opposed to DOM, storage or cookies)."""

UNLOAD_TYPES = frozenset({"unload", "beforeunload"})

_FOCUS = frozenset({"focus", "focusin", "blur", "focusout"})
_POINTER = frozenset(
    f"{device}{what}" for device in ("mouse", "pointer") for what in ("over", "enter", "move", "out", "leave")
)
USER_DISPATCHES: Mapping[str, frozenset[str]] = {
    "click": _POINTER
    | _FOCUS
    | {"mousedown", "mouseup", "pointerdown", "pointerup", "click", "input", "change", "submit"},
    "hover": _POINTER,
    "fill": _FOCUS | {"beforeinput", "input", "change"},
    "press": _FOCUS | {"keydown", "keypress", "keyup", "beforeinput", "input", "change", "submit", "click"},
    "select": _FOCUS | {"input", "change"},
}
"""DOM event types each user action kind (:mod:`webr4.browser.actions`) dispatches natively."""


@dataclass(frozen=True, slots=True)
class _Touch:
    """What one step did to one location, as the filters judge it."""

    reads_before_writing: bool  # the first access is a read and a write follows it
    increment: bool  # read/write pairs storing numbers only (see _is_increment)
    write_digests: frozenset[str | None]  # the digests of its writes
    first_write: str | None  # the digest of its first write (None when none or unknown)
    previous: str | None  # the digest of the last write of the location in an earlier step


@dataclass(frozen=True, slots=True)
class _Location:
    """The facts about one location: per step that touches it, and over all of them."""

    touches: dict[int, _Touch]
    last_plain_reader: int  # the last step reading it that is not an increment of it (-1: none)
    writes_first: bool  # every step touching it writes it first, and some step reads it

    @classmethod
    def of(cls, steps: Mapping[int, Sequence[Access]]) -> _Location:
        """The facts from the accesses of each step to the location, steps in trace order."""
        touches: dict[int, _Touch] = {}
        last: str | None = None
        plain_reader = -1
        writes_first, read = True, False
        for index, accesses in steps.items():
            digests = [a.value for a in accesses if a.kind is W]
            reads = any(a.kind is R for a in accesses)
            touch = _Touch(_reads_before_writing(accesses), _is_increment(accesses), frozenset(digests),
                           digests[0] if digests else None, last)
            touches[index] = touch
            if digests:
                last = digests[-1]
            if reads and not touch.increment:
                plain_reader = index
            writes_first = writes_first and accesses[0].kind is W
            read = read or reads
        return cls(touches, plain_reader, writes_first and read)


class _Index:
    """Per location, the steps that touch it with their accesses to it; the facts the filters
    ask about a location are derived on first use (only locations that race are ever asked)."""

    def __init__(self, trace: Trace) -> None:
        self.steps = trace.steps
        self.size = len(trace.steps)
        self._by_location: dict[str, dict[int, list[Access]]] = {}
        for index, step in enumerate(trace.steps):
            for access in step.accesses:
                self._by_location.setdefault(access.location, {}).setdefault(index, []).append(access)
        self._facts: dict[str, _Location] = {}

    def location(self, location: str) -> _Location:
        """The facts about ``location`` (one that some step accesses)."""
        facts = self._facts.get(location)
        if facts is None:
            facts = self._facts[location] = _Location.of(self._by_location[location])
        return facts

    def touch(self, location: str, step: int) -> _Touch:
        """What ``step`` did to ``location`` (a step that accesses it)."""
        return self.location(location).touches[step]


_indexes: dict[int, _Index] = {}


def _index(trace: Trace) -> _Index:
    """The index of ``trace``, built on first use and dropped when the trace is collected."""
    key = id(trace)
    found = _indexes.get(key)
    if found is None or found.steps is not trace.steps or found.size != len(trace.steps):
        if found is None:
            weakref.finalize(trace, _indexes.pop, key, None)
        found = _indexes[key] = _Index(trace)
    return found


@dataclass(frozen=True)
class NamedFilter:
    """A race filter with a name; ``drops`` says whether the race matches the pattern.

    Calling it returns ``False`` (drop) when ``drops`` matches, except on ``event:`` locations,
    which are always kept.
    """

    name: str
    drops: Callable[[Race, Trace], bool]

    @property
    def description(self) -> str:
        """The first line of the pattern's docstring."""
        return (self.drops.__doc__ or "").strip().splitlines()[0]

    def __call__(self, race: Race, trace: Trace) -> bool:
        if race.location.startswith("event:"):
            return True
        return not self.drops(race, trace)


def _reads_before_writing(accesses: Sequence[Access]) -> bool:
    """Whether the first access is a read and a write follows it."""
    return bool(accesses) and accesses[0].kind is R and any(a.kind is W for a in accesses[1:])


def _same_value(race: Race, trace: Trace) -> bool:
    """Both sides write the same value, or one side writes back the value already stored.

    Write/write race: every write of the location in both steps carries one non-null digest,
    and neither step reads the location before writing it (such a read would see the order).
    Read/write race: every write in the writing step stores the digest of the last write of the
    location in an earlier step of the trace, so the reader sees the same value either way.
    """
    index = _index(trace)
    if race.first_kind is W and race.second_kind is W:
        first, second = index.touch(race.location, race.first), index.touch(race.location, race.second)
        if first.reads_before_writing or second.reads_before_writing:
            return False
        digests = first.write_digests | second.write_digests
        return len(digests) == 1 and None not in digests
    writer = index.touch(race.location, race.first if race.first_kind is W else race.second)
    return writer.previous is not None and writer.write_digests == {writer.previous}


def _lazy_init(race: Race, trace: Trace) -> bool:
    """Both sides initialise the location on demand: ``x = x || v``, ``if (!x) x = v``.

    Approximation: in each racing step the first access to the location is a read and a write
    follows it, and the step's first write stores a truthy digest (non-null and not one of
    :data:`FALSY_DIGESTS`), so a second run of the check finds it set.
    """
    index = _index(trace)
    for step in (race.first, race.second):
        touch = index.touch(race.location, step)
        if not touch.reads_before_writing or touch.first_write is None or touch.first_write in FALSY_DIGESTS:
            return False
    return True


def _is_increment(accesses: Sequence[Access]) -> bool:
    """The accesses are read/write pairs (``x += k``, ``x++``) storing numbers only."""
    if not accesses or len(accesses) % 2:
        return False
    pairs = zip(accesses[::2], accesses[1::2])
    return all(r.kind is R and w.kind is W and (w.value or "").startswith("n:") for r, w in pairs)


def _pure_increment(race: Race, trace: Trace) -> bool:
    """Both sides add to a number nobody else reads: ``x += k`` commutes with ``x += m``.

    Approximation of "never branching on the value": in each racing step the accesses to the
    location are read/write pairs with each read immediately followed by a write (among the
    accesses to that location) that stores a numeric digest (``n:``), and every other step after
    the first racing one that reads the location is itself such an increment. A step that shows
    the total reads it without writing, so the race is kept.
    """
    index = _index(trace)
    return (
        index.touch(race.location, race.first).increment
        and index.touch(race.location, race.second).increment
        and index.location(race.location).last_plain_reader <= race.first
    )


def _write_before_read(race: Race, trace: Trace) -> bool:
    """Every event uses the JavaScript variable locally: it writes it before any read.

    Matches ``global:``, ``scope:`` and ``prop:`` locations only (DOM, storage and cookie state
    outlives the event and is seen by the user). Every step of the trace that accesses the
    location starts with a write, and at least one of them reads it (a location that is only
    written is a plain last-writer-wins race and is kept).
    """
    return race.location.startswith(JS_PREFIXES) and _index(trace).location(race.location).writes_first


def _late_handler_attach(race: Race, trace: Trace) -> bool:
    """A user event races with the event that registers a handler it dispatches to.

    Matches a ``handler:<key>.<type>`` race between a step that writes it (adds or removes the
    handler) and a step that only reads it (dispatches ``<type>`` to the target), when the
    reading step's event is a user event whose action kind natively dispatches ``<type>``
    (:data:`USER_DISPATCHES`). The user is assumed to wait until the page has set itself up.
    """
    if not race.location.startswith("handler:") or {race.first_kind, race.second_kind} != {R, W}:
        return False
    reader = race.second if race.second_kind is R else race.first
    event = trace.events.get(trace.steps[reader].event)
    handler_type = race.location.rsplit(".", 1)[-1]
    return (
        event is not None
        and event.category is Category.USER
        and handler_type in USER_DISPATCHES.get(event.type, frozenset({event.type}))
    )


def _event_type(trace: Trace, event: EventId) -> str | None:
    found = trace.events.get(event)
    return found.type if found is not None else None


def _unload(race: Race, trace: Trace) -> bool:
    """One racing event is an ``unload`` or ``beforeunload`` event: the page is going away."""
    return any(_event_type(trace, trace.steps[step].event) in UNLOAD_TYPES for step in race.pair)


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


def filters_by_name(names: Iterable[str]) -> tuple[NamedFilter, ...]:
    """The filters called ``names``, in the order given.

    Raises ``ValueError`` naming every unknown name and listing the valid ones.
    """
    known = {f.name: f for f in ALL_FILTERS}
    names = list(names)
    unknown = [name for name in names if name not in known]
    if unknown:
        raise ValueError(
            f"unknown race filter{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}; "
            f"valid filters: {', '.join(known)}"
        )
    return tuple(known[name] for name in names)
