"""The trace model shared by every part of webr4.

An *execution* of a page (or of a simulated model) is a sequence of atomic **events**. The
browser executor, the model executor and the exploration engine all speak in the types below,
so that the engine can be proven on models and then run unchanged against Chromium.

Contracts that every executor honours:

* An event's ``id`` is its **stable identity**: the same logical event (say, "the second
  ``setTimeout(…, 100)`` created at ``app.js:12:5`` by the first parse chunk") has the same id in
  every execution of the same session. Plans are written in ids.
* ``Step.enabled`` is the set of event ids that could have run *instead of* this step, the step's
  own event included. ``Trace.enabled_at_end`` is the same set after the last step (empty when
  the run reached a final state, non-empty when it was truncated by a bound).
* ``Step.predecessors`` are indices of earlier steps that happen before this one by the browser's
  own rules (creation, parse order, timer due order, user-event order, …). Only direct edges are
  listed; the transitive closure is the engine's job.
* ``Step.accesses`` are the shared-memory reads and writes the event made. Enabling or disabling
  another event (creating a timer, ``clearTimeout``, ``xhr.abort()``, removing a listener) is a
  write of that event's shadow location :func:`event_location`, and running an event reads its
  own shadow location, so disabling shows up as an ordinary conflict.
* A location that only one step touches can take part in no race, conflict or racing-object
  name. The browser leaves out the accesses to such locations when they are variables or
  properties; ``Step.unlisted_writes`` keeps the property and variable names of those it wrote,
  which is all the classifier asks of them.

Everything here is plain data: JSON in, JSON out, with :meth:`Trace.to_json` and
:meth:`Trace.from_json` as exact inverses.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any, Mapping, Protocol, Sequence

EventId = str


class Category(str, Enum):
    """What kind of asynchrony produced an event (R4's event-action categories)."""

    PARSE = "parse"
    TIMER = "timer"
    NETWORK = "network"
    USER = "user"
    LIFECYCLE = "lifecycle"
    MESSAGE = "message"
    OTHER = "other"


SERVICE_WORKER_REGISTRATION = "service-worker-registration"
"""The type of the event a page's ``navigator.serviceWorker.register()`` settles in; its
``params["url"]`` is the script's URL (``instrument_js/runtime/serviceworkers.js``)."""


class AccessKind(str, Enum):
    READ = "r"
    WRITE = "w"


ACCESS_KINDS: Mapping[str, AccessKind] = {kind.value: kind for kind in AccessKind}
"""Each access kind by its JSON letter: a lookup per access, cheaper than calling ``AccessKind``."""


def event_location(event_id: EventId) -> str:
    """The shadow location that enabling, disabling and running ``event_id`` touch."""
    return f"event:{event_id}"


def event_code(event: Event) -> str:
    """What code ``event`` runs, as far as its trace event says, the same for every event of that
    code: its type and the site that scheduled it (``setTimeout from http://h/when.js:752:23``);
    for a user's step, the step itself (``user keyup 4 #new-todo Enter``: each step meets the
    page in a state of its own, as the second click on a slideshow's *Next* does); otherwise its
    category, type and kind (``network script async``: the loader's modules, whatever their
    URLs)."""
    site = event.params.get("site")
    if isinstance(site, str) and site:
        return f"{event.type} from {site}"
    keys = ("index", "selector", "argument") if event.category is Category.USER else ("kind",)
    parts = (event.category.value, event.type, *(event.params.get(key) for key in keys))
    return " ".join(str(part) for part in parts if part not in (None, ""))


@dataclass(frozen=True, slots=True)
class Access:
    """One read or write of a shared location by an event.

    ``location`` is a canonical key (``global:queue``, ``dom:#price.textContent``,
    ``event:<id>``). ``site`` is ``url:line:col`` in the original source, when known. ``value``
    is a short digest of the value written (or read), when known; race filters use it to drop
    writes of the same value.
    """

    kind: AccessKind
    location: str
    site: str | None = None
    value: str | None = None

    def to_json(self) -> list[Any]:
        return [self.kind.value, self.location, self.site, self.value]

    @classmethod
    def from_json(cls, raw: Sequence[Any]) -> Access:
        kind, location, site, value = raw
        known = ACCESS_KINDS.get(kind)
        if known is None:
            raise ValueError(f"{kind!r} is not a valid AccessKind")
        return cls(known, location, site, value)


@dataclass(frozen=True)
class Event:
    """A logical event, as identified across executions.

    ``label`` is for people (``setTimeout 100ms at app.js:12:5``); ``params`` holds the facts
    the identity was built from (delay, URL, selector, chunk index, …).
    """

    id: EventId
    category: Category
    type: str
    label: str
    creator: EventId | None = None
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "category": self.category.value,
            "type": self.type,
            "label": self.label,
            "creator": self.creator,
            "params": dict(self.params),
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Event:
        return cls(
            id=raw["id"],
            category=Category(raw["category"]),
            type=raw["type"],
            label=raw["label"],
            creator=raw.get("creator"),
            params=dict(raw.get("params") or {}),
        )


@dataclass(frozen=True)
class ErrorRecord:
    """An uncaught exception or console error, attributed to the step that raised it."""

    kind: str  # "exception" | "console" | "unhandledrejection" | "harness"
    message: str
    site: str | None = None
    step: int | None = None


@dataclass(frozen=True)
class Step:
    """One executed event and what the execution observed around it."""

    event: EventId
    enabled: frozenset[EventId]
    predecessors: tuple[int, ...] = ()
    accesses: tuple[Access, ...] = ()
    time: float = 0.0  # virtual milliseconds when the event ran
    planned: bool = True  # False when the default policy chose it after the plan ran out
    unlisted_writes: tuple[str, ...] = ()  # names written in locations ``accesses`` leaves out (see above)

    def to_json(self) -> dict[str, Any]:
        out = {
            "event": self.event,
            "enabled": sorted(self.enabled),
            "predecessors": list(self.predecessors),
            "accesses": [a.to_json() for a in self.accesses],
            "time": self.time,
            "planned": self.planned,
        }
        if self.unlisted_writes:
            out["unlisted_writes"] = list(self.unlisted_writes)
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Step:
        return cls(
            event=raw["event"],
            enabled=frozenset(raw["enabled"]),
            predecessors=tuple(raw.get("predecessors", ())),
            accesses=tuple(map(Access.from_json, raw.get("accesses", ()))),
            time=raw.get("time", 0.0),
            planned=raw.get("planned", True),
            unlisted_writes=tuple(raw.get("unlisted_writes", ())),
        )


def creation_edges(steps: Sequence[Step]) -> dict[int, int]:
    """Step running an event → the step that created it, as far as the trace shows creation.

    Step ``i`` created event ``e`` when ``e`` is not enabled before ``i``, is enabled right
    after it (in the next step's enabled set) and ``i`` wrote ``e``'s shadow location. The
    latest such step before the one running ``e`` is its creator; events enabled from the start
    (user steps, the first parse chunk) have none.
    """
    created: dict[EventId, int] = {}
    edges: dict[int, int] = {}
    for j, step in enumerate(steps):
        creator = created.pop(step.event, None)
        if creator is not None:
            edges[j] = creator
        if j + 1 < len(steps):
            new = steps[j + 1].enabled - step.enabled
            for access in step.accesses:
                if access.kind is AccessKind.WRITE and access.location.startswith("event:"):
                    event = access.location[len("event:"):]
                    if event in new:
                        created[event] = j
    return edges


@dataclass(frozen=True)
class Navigation:
    """The page tried to leave: ``url`` is where to, ``event`` the event that caused it (``None``
    when unknown), ``window`` whether it opened a new window (``window.open``, ``target=_blank``)
    instead of replacing the page. The harness refuses the navigation, so an execution covers one
    document, and ends the execution there: leaving is its outcome."""

    url: str
    event: EventId | None = None
    window: bool = False

    @property
    def target(self) -> str:
        """Where the user is taken, in words: the URL, or ``new window <URL>``."""
        return f"new window {self.url}" if self.window else self.url


@dataclass
class Trace:
    """The record of one execution.

    ``events`` describes every event the execution saw, executed or left pending.
    ``skipped`` lists planned ids that were not enabled when their turn came (approximate replay:
    one may still have run later, when it appeared); ``matched`` maps each planned id that ran as
    another id, because its creator changed, to that id (:mod:`webr4.browser.replay`).
    ``truncated`` names the bound that ended the run early (``None`` when it reached a final
    state). ``uncontrolled`` lists what ran outside the harness's control (eval'd code, workers,
    frames it could not enter), so nobody mistakes silence for absence. ``navigation`` is set
    when the execution ended because the page navigated away. ``names`` names, for
    people, the objects and closure scopes behind ``prop:<id>`` and ``scope:<id>`` locations
    (keys ``prop:<id>`` and ``scope:<id>``; see :mod:`webr4.browser.naming`).
    """

    steps: list[Step]
    events: dict[EventId, Event]
    enabled_at_end: frozenset[EventId] = frozenset()
    skipped: list[EventId] = field(default_factory=list)
    truncated: str | None = None
    errors: list[ErrorRecord] = field(default_factory=list)
    uncontrolled: list[str] = field(default_factory=list)
    navigation: Navigation | None = None
    names: dict[str, str] = field(default_factory=dict)
    matched: dict[EventId, EventId] = field(default_factory=dict)

    @property
    def sequence(self) -> list[EventId]:
        """The executed event ids, in order."""
        return [step.event for step in self.steps]

    @property
    def planned_sequence(self) -> list[EventId]:
        """:attr:`sequence` with each event that ran for a planned id (``matched``) named by that
        id: the order to compare with the execution the plan came from."""
        if not self.matched:
            return self.sequence
        planned = {event: plan_id for plan_id, event in self.matched.items()}
        return [planned.get(step.event, step.event) for step in self.steps]

    @property
    def service_workers(self) -> list[str]:
        """The script URLs of the service workers the page asked to register, each once, in the
        order it first asked (whether or not the context let them run)."""
        scripts = [e.params.get("url", "") for e in self.events.values() if e.type == SERVICE_WORKER_REGISTRATION]
        return list(dict.fromkeys(scripts))

    def enabled_before(self, index: int) -> frozenset[EventId]:
        """enabled(τ_{1..index}) — the enabled set in the state before step ``index``."""
        if index < len(self.steps):
            return self.steps[index].enabled
        return self.enabled_at_end

    def to_json(self) -> dict[str, Any]:
        return {
            "steps": [s.to_json() for s in self.steps],
            "events": {k: e.to_json() for k, e in self.events.items()},
            "enabled_at_end": sorted(self.enabled_at_end),
            "skipped": list(self.skipped),
            "truncated": self.truncated,
            "errors": [asdict(e) for e in self.errors],
            "uncontrolled": list(self.uncontrolled),
            "navigation": asdict(self.navigation) if self.navigation else None,
            "names": dict(self.names),
            "matched": dict(self.matched),
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Trace:
        return cls(
            steps=[Step.from_json(s) for s in raw["steps"]],
            events={k: Event.from_json(e) for k, e in raw["events"].items()},
            enabled_at_end=frozenset(raw.get("enabled_at_end", ())),
            skipped=list(raw.get("skipped", ())),
            truncated=raw.get("truncated"),
            errors=[ErrorRecord(**e) for e in raw.get("errors", ())],
            uncontrolled=list(raw.get("uncontrolled", ())),
            navigation=Navigation(**raw["navigation"]) if raw.get("navigation") else None,
            names=dict(raw.get("names") or {}),
            matched=dict(raw.get("matched") or {}),
        )

    def dumps(self) -> str:
        """Compact JSON: a framework app's trace holds 10^5 accesses, where indentation alone
        would double the file."""
        return json.dumps(self.to_json(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def loads(cls, text: str) -> Trace:
        return cls.from_json(json.loads(text))


Plan = Sequence[EventId]
"""A sequence of event ids to execute approximately: each in turn when enabled, else skipped."""


class Executor(Protocol):
    """Anything that can run a plan and report what happened: Chromium, or a simulated model."""

    def execute(self, plan: Plan) -> Trace:
        """Run ``plan`` approximately, complete the run with the default policy, return the trace."""
        ...
