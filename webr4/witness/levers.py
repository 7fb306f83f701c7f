"""The levers of a plain schedule (:mod:`webr4.witness.schedule`), each a fact of one order: what
is held back, until which sign, and how the clock and the user's keys go."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from webr4.witness.plain import sign_words


@dataclass(frozen=True)
class Sign:
    """Something a plain page shows when it happens: ``kind`` is :data:`RESPONSE` (``target``: the
    request key), :data:`STEP` or :data:`KEY_DOWN` (the session step's number), :data:`CLOCK`
    (virtual ms), :data:`DOM_READY` or :data:`LOAD` (the kinds :mod:`webr4.witness.plain` names)."""

    kind: str
    target: str = ""

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.target}"

    def words(self) -> str:
        return sign_words(asdict(self))


@dataclass(frozen=True)
class Hold:
    """The response to ``request`` (a :func:`request_key`) is held until ``until`` is seen."""

    request: str
    until: Sign


@dataclass(frozen=True)
class StepTiming:
    """Session step ``step`` runs once ``after`` is seen, or, when ``after`` is ``None``, as soon
    as its target is actionable (Playwright's own wait), without waiting for the page's ``load``."""

    step: int
    after: Sign | None


@dataclass(frozen=True)
class HeldKey:
    """Session step ``step``, a press, puts its key down when its timing says and lets it up only
    once ``up_after`` is seen (Playwright's ``keyboard.down`` and ``keyboard.up`` on the element
    ``press`` would focus); its key going down is a sign (:data:`KEY_DOWN`)."""

    step: int
    up_after: Sign


@dataclass(frozen=True)
class ClockRun:
    """Once ``after`` is seen, the paused clock runs to ``to_ms`` (virtual ms since the page
    started), firing every timer due by then. Until then the clock stays short of ``to_ms``; with
    ``created`` (the sign of the event that starts the timer's chain of timers, the timer due
    ``delay_ms`` after the clock at that moment) it runs freely before that sign, as no such timer
    exists yet, stays short of its due time after it, and runs on to it once ``after`` is seen,
    wherever the plain clock is by then. With ``forward`` false the run only holds: once ``after``
    is seen the clock is free, and the steps' runs and the horizon take it past the timer in their
    own time (a timer that must come after an event, not right after it)."""

    to_ms: float
    after: Sign
    created: Sign | None = None
    delay_ms: float = 0.0
    forward: bool = True
