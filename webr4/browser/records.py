"""The messages the in-page runtime sends Python, written once: the dataclasses below.

The runtime (``instrument_js/runtime/``) answers each call of the harness with one of them:
``start`` with an :class:`Opening`, ``begin`` with a :class:`StepReport` or, for an event only
Python can perform, an :class:`ActuationRequest`; ``finish`` with a :class:`StepReport`;
``runStretch`` and ``drainStretch`` with the JSON text of a :class:`StretchReport`. While the
head or a parse chunk waits for a script ``document.write`` put in the parser's way, ``start``
and ``finish`` answer an :class:`ActuationRequest` for it instead, and are called again once it
is released.

:func:`parse` checks a message against its class before anything reads it: every field is
required and nothing else may be present, and each value must have the annotated type. What
does not fit is a :class:`RecordError` whose one line names the field
(``step report: created[2].due: expected a number, got 'soon'``). A record's ``accesses`` is
the JSON text of the event's access summary (:mod:`webr4.access_summary`): one string is far
cheaper to hand over than many small arrays, and it is parsed and checked here like the rest.
Long lists of flat values, such as those entries, are checked a column at a time
(:mod:`webr4.browser.fastcheck`, derived from the same annotations); a list that does not pass
is checked again value by value, which names the first value that does not fit.
Its ``promoted`` is the JSON text of the locations earlier events held back and this one
touched (``instrument_js/access_log/holding.js``, "Holding back"), which belong to those events' steps.
"""

from __future__ import annotations

import json
import types
from dataclasses import dataclass, fields, is_dataclass
from functools import cache
from typing import Annotated, Any, Callable, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from webr4.browser.fastcheck import FlatRows
from webr4.errors import Webr4Error
from webr4.gcpause import gc_paused
from webr4.places import short_name

EventId = str

T = TypeVar("T")


class RecordError(Webr4Error):
    """The page sent a message that does not follow the schema of this module."""


class _Mismatch(RecordError):
    """A value that does not fit its type, at ``path`` (caught by :func:`parse`, which says what
    the whole message was)."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path


class JsonText:
    """Marks a field sent as the JSON text of its annotated type."""


AccessEntry = tuple[Literal["r", "w"], str, str | None, str | None]
"""One access of the summary: kind, location, site (``url:line:col``), value digest."""


PromotedLocation = tuple[str, int, int, tuple[AccessEntry, ...]]
"""A location an earlier event held back and a later one touched: the id of the event that held
it back, how many locations its record lists before it (its position among them), its rank among
all that event's locations (orders those at one position), and its summary entries."""


@dataclass(frozen=True)
class EventDescriptor:
    """An event that joined the pending set: its stable identity and its place in the default order."""

    id: EventId
    category: Literal["parse", "timer", "network", "lifecycle", "message", "other"]  # user events are Python's own
    type: str
    label: str
    creator: EventId | None  # the event that was running when this one was created
    params: dict[str, Any]  # the identity parameters (URL, delay, site, ordinal, ...)
    due: float  # virtual milliseconds
    prio: int
    seq: int | None  # creation order; None never reaches Python (arrivals are numbered first)
    preds: tuple[EventId, ...]  # events that must run before it, besides its creator


@dataclass(frozen=True)
class PageError:
    """An uncaught exception, unhandled rejection, console error, or a note of the runtime."""

    kind: Literal["exception", "unhandledrejection", "console", "harness"]
    message: str
    site: str | None
    event: EventId | None  # the event that was running


@dataclass(frozen=True)
class Leaving:
    """The page tried to leave (a link, a form, a ``location`` change, ``window.open``)."""

    event: EventId | None  # the event that tried, None outside any event


@dataclass(frozen=True)
class StepReport:
    """What happened since the last record: the pending set gains ``created`` and loses ``gone``."""

    created: tuple[EventDescriptor, ...]
    gone: tuple[EventId, ...]  # ran or cancelled
    errors: tuple[PageError, ...]
    accesses: Annotated[tuple[AccessEntry, ...], JsonText]
    promoted: Annotated[tuple[PromotedLocation, ...], JsonText]  # earlier events' held-back locations
    unlisted_writes: tuple[str, ...]  # the names of the locations this event held back and wrote
    uncontrolled: tuple[str, ...]  # what ran outside control (workers, sockets, frames)
    now: float  # the virtual clock
    leaving: Leaving | None


@dataclass(frozen=True)
class ChunkRelease:
    """Python must release parse chunk ``index`` at the network."""

    kind: Literal["chunk"]
    index: int


@dataclass(frozen=True)
class ScriptRelease:
    """Python must release the held script ``url`` (a worker's is served uninstrumented)."""

    kind: Literal["script"]
    url: str
    worker: bool


@dataclass(frozen=True)
class ActuationRequest:
    """``begin`` of an event only Python can perform; ``finish`` then reports its step."""

    actuate: ChunkRelease | ScriptRelease
    now: float


@dataclass(frozen=True)
class Opening:
    """``start``: the head of the document was parsed and settled; it is the first event."""

    head: EventId
    record: StepReport


StretchStep = tuple[EventId, bool, StepReport]
"""One event a stretch ran: its id, whether the plan chose it, its record."""

Choice = tuple[EventId, bool]
"""An event and whether the plan chose it."""


@dataclass(frozen=True)
class StretchReport:
    """Events the page chose and ran by itself, and why it stopped (``drainStretch``: ``drained``)."""

    steps: tuple[StretchStep, ...]
    consumed: int  # how many ids of the plan it used up (run, or passed over to wait)
    # The plan follower's state after it (None: a drain that found no stretch, which changed nothing).
    waiting: tuple[EventId, ...] | None  # planned ids passed over that have not run yet, in plan order
    skipped: tuple[EventId, ...]  # planned ids it passed over (not pending at their turn)
    diverged: bool | None  # a planned id was passed over, now or before
    matched: tuple[tuple[EventId, EventId], ...]  # planned ids run as another id with their loose part
    before: StepReport | None  # arrivals before its first step
    stop: Literal["done", "horizon", "slice", "actuate", "navigated", "halted", "drained"]
    next: Choice | None  # with ``actuate``: the event Python must perform now
    running: Choice | None  # with ``drained``: the event that was running when it was stopped


def parse(cls: type[T], raw: Any, what: str) -> T:
    """``raw`` (a message of the runtime) as a ``cls``; :class:`RecordError` names what does not fit."""
    try:
        with gc_paused():  # a message is acyclic data, up to 10^5 values of it
            return _convert(cls, raw, what)
    except _Mismatch as mismatch:
        raise RecordError(f"the page runtime sent a message webr4 cannot read: {mismatch}") from None


def parse_reply(raw: Any) -> StepReport | ActuationRequest:
    """The answer of ``begin`` or ``finish``: an actuation request when it names one, else a step report."""
    if isinstance(raw, dict) and "actuate" in raw:
        return parse(ActuationRequest, raw, "actuation")
    return parse(StepReport, raw, "step report")


def field_names(cls: type) -> frozenset[str]:
    """The keys a message of ``cls`` carries."""
    return frozenset(f.name for f in fields(cls))


@cache
def _hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls, include_extras=True)


def _describe(value: Any) -> str:
    return short_name(repr(value), 40)


def _convert(kind: Any, raw: Any, path: str) -> Any:
    """``raw`` as a value of the annotated type ``kind``; a :class:`_Mismatch` at ``path`` when it
    does not fit, a ``TypeError`` when the schema uses a type this module does not know."""
    scalar = _SCALARS.get(kind)
    if scalar is not None:
        return scalar(raw, path)
    if is_dataclass(kind) and isinstance(kind, type):
        return _record(kind, raw, path)
    form = _FORMS.get(get_origin(kind))
    if form is None:
        raise TypeError(f"{path}: the schema uses a type the parser does not know: {kind!r}")
    return form(kind, raw, path)


def _record(kind: type, raw: Any, path: str) -> Any:
    """A dataclass from an object with exactly its fields."""
    if not isinstance(raw, dict):
        raise _Mismatch(path, f"expected an object, got {_describe(raw)}")
    hints = _hints(kind)
    names = [f.name for f in fields(kind)]
    missing = [name for name in names if name not in raw]
    if missing:
        raise _Mismatch(path, f"missing field {missing[0]!r}")
    extra = sorted(set(raw) - set(names))
    if extra:
        raise _Mismatch(path, f"unexpected field {extra[0]!r}")
    return kind(**{name: _convert(hints[name], raw[name], f"{path}.{name}") for name in names})


def _annotated(kind: Any, raw: Any, path: str) -> Any:
    """``Annotated[T, ...]``: a ``T``, first parsed from JSON text when marked :class:`JsonText`."""
    inner, *marks = get_args(kind)
    if JsonText in marks:
        if not isinstance(raw, str):
            raise _Mismatch(path, f"expected JSON text, got {_describe(raw)}")
        try:
            raw = json.loads(raw)
        except ValueError:
            raise _Mismatch(path, f"not valid JSON: {_describe(raw)}") from None
    return _convert(inner, raw, path)


def _union(kind: Any, raw: Any, path: str) -> Any:
    """The first option ``raw`` fits; when none does, the mismatch that got furthest into it."""
    options = get_args(kind)
    if raw is None and type(None) in options:
        return None
    failures: list[_Mismatch] = []
    for option in options:
        if option is type(None):
            continue
        try:
            return _convert(option, raw, path)
        except _Mismatch as mismatch:
            failures.append(mismatch)
    # The option that got furthest into the value says best what is wrong with it.
    raise max(failures, key=lambda mismatch: len(mismatch.path))


def _literal(kind: Any, raw: Any, path: str) -> Any:
    if raw not in get_args(kind) or isinstance(raw, bool):
        words = ", ".join(repr(word) for word in get_args(kind))
        raise _Mismatch(path, f"expected one of {words}, got {_describe(raw)}")
    return raw


def _tuple(kind: Any, raw: Any, path: str) -> tuple[Any, ...]:
    """A list as a tuple: ``tuple[T, ...]`` of any length (flat rows a column at a time when they
    pass), any other tuple of exactly its items."""
    args = get_args(kind)
    if not isinstance(raw, list):
        raise _Mismatch(path, f"expected a list, got {_describe(raw)}")
    if len(args) == 2 and args[1] is Ellipsis:
        rows = FlatRows.of(args[0])
        converted = rows.convert(raw) if rows is not None else None
        if converted is not None:
            return converted
        return tuple(_convert(args[0], item, f"{path}[{i}]") for i, item in enumerate(raw))
    if len(raw) != len(args):
        raise _Mismatch(path, f"expected {len(args)} items, got {len(raw)}")
    return tuple(_convert(arg, item, f"{path}[{i}]") for i, (arg, item) in enumerate(zip(args, raw)))


def _object(kind: Any, raw: Any, path: str) -> dict[str, Any]:
    """``dict[str, ...]``: any object, kept as it is."""
    if not isinstance(raw, dict) or not all(isinstance(key, str) for key in raw):
        raise _Mismatch(path, f"expected an object, got {_describe(raw)}")
    return raw


_FORMS: dict[Any, Callable[[Any, Any, str], Any]] = {
    Annotated: _annotated, Union: _union, types.UnionType: _union, Literal: _literal, tuple: _tuple, dict: _object,
}
"""How each generic form (by its ``get_origin``) is converted."""


def _null(raw: Any, path: str) -> None:
    if raw is not None:
        raise _Mismatch(path, f"expected null, got {_describe(raw)}")


def _boolean(raw: Any, path: str) -> bool:
    if not isinstance(raw, bool):
        raise _Mismatch(path, f"expected true or false, got {_describe(raw)}")
    return raw


def _integer(raw: Any, path: str) -> int:
    """An integer, also as a float without a fraction (JSON has one kind of number)."""
    if isinstance(raw, bool) or not (isinstance(raw, int) or (isinstance(raw, float) and raw.is_integer())):
        raise _Mismatch(path, f"expected an integer, got {_describe(raw)}")
    return int(raw)


def _number(raw: Any, path: str) -> float:
    if isinstance(raw, bool) or not isinstance(raw, (int, float)):
        raise _Mismatch(path, f"expected a number, got {_describe(raw)}")
    return float(raw)


def _string(raw: Any, path: str) -> str:
    if not isinstance(raw, str):
        raise _Mismatch(path, f"expected a string, got {_describe(raw)}")
    return raw


_SCALARS: dict[Any, Callable[[Any, str], Any]] = {
    type(None): _null, bool: _boolean, int: _integer, float: _number, str: _string,
}
"""How each scalar type is converted."""
