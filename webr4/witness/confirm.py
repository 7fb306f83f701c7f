"""The confirmation of one reversal in plain Chromium, and the judgement behind it.

Both orders of the racing pair are run from their plain schedules (:mod:`webr4.witness.schedule`,
:mod:`webr4.witness.plain_run`), and the two plain end states are compared with webr4's own
categories and noise mask. The judgement is one of

* ``confirmed``: webr4 judged the reversal harmful, and the reversed plain run differs from the
  parent plain run in the way webr4 reported (``matched`` names the items found in both), the
  order forced with what a network and a person produce (:mod:`webr4.witness.realism`);
* ``confirmed-extreme``: the same, but the reversed order took a lever beyond them (input within
  one task, a timer held past its due time, a response later than a network delivers one):
  ``extreme`` says which. A race users meet only under such timing is no reason to fail a build
  (``--fail-on confirmed`` leaves it out);
* ``reproduced``: webr4 judged it otherwise (harmless, heap-only, …) and the plain runs show the
  same difference: the verdict rests on webr4's rules, not on its harness;
* ``not-reproduced``: the order was forced but the reported difference did not appear (the line
  says what appeared instead, if anything);
* ``not-forceable``: no lever of a stock browser forces the order, or the plain page never showed
  a sign the schedule waited for (the line says which);
* ``error``: a plain run itself failed or did not end (a page that hangs in plain Chromium too):
  no judgement.

The parent's order runs twice: what differs between those two runs (``Date.now()``, random ids,
which nothing in a plain page fixes) is masked, as webr4 masks what differs between two replays
of its seed, and the counters an app numbers its elements with are abstracted
(:mod:`webr4.witness.compare`, which also says when a plain item matches a reported one). The
JS heap and pending events cannot be read without webr4's code in the page, so they are never
matched.
"""

from __future__ import annotations

import asyncio
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping, Sequence

from playwright.async_api import Browser
from playwright.async_api import Error as PlaywrightError

from webr4.state.noise import NoiseMask
from webr4.trace import EventId, Trace
from webr4.witness.compare import found, plain_difference
from webr4.witness.realism import extreme_forcing
from webr4.witness.plain_run import RUN_TIMEOUT_S, PlainRun, run_plain
from webr4.witness.pagefacts import PageFacts
from webr4.witness.schedule import NotForceable, PlainSchedule, plain_schedules

CONFIRMED, REPRODUCED, NOT_REPRODUCED, NOT_FORCEABLE = "confirmed", "reproduced", "not-reproduced", "not-forceable"
CONFIRMED_EXTREME = "confirmed-extreme"
ERROR = "error"
STATUSES = (CONFIRMED, CONFIRMED_EXTREME, REPRODUCED, NOT_REPRODUCED, NOT_FORCEABLE, ERROR)
UNREADABLE = frozenset({"heap", "pending"})
"""Categories a plain page cannot show without webr4's code in it."""


@dataclass(frozen=True)
class Confirmation:
    """The plain-Chromium check of one reversal: ``status`` (one of :data:`STATUSES`), ``line``
    (the judgement in one line), ``matched`` (category → items webr4 reported that the plain runs
    showed too), ``plain`` (category → the plain runs' own items), ``order`` (the reversed order
    forced, in words), ``seconds`` (the plain runs, added up) and ``extreme`` (for
    ``confirmed-extreme``: the lever beyond a network and a person, in words; else "")."""

    status: str
    line: str
    matched: dict[str, list[str]] = field(default_factory=dict)
    plain: dict[str, list[str]] = field(default_factory=dict)
    order: str = ""
    seconds: float = 0.0
    extreme: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Confirmation:
        return cls(str(raw["status"]), str(raw.get("line", "")), dict(raw.get("matched") or {}),
                   dict(raw.get("plain") or {}), str(raw.get("order", "")), float(raw.get("seconds", 0.0)),
                   str(raw.get("extreme", "")))

    def forced_with(self, extreme: str | None) -> Confirmation:
        """This judgement of an order forced with the lever ``extreme`` (``None``: with none beyond
        a network and a person): a ``confirmed`` becomes ``confirmed-extreme``, saying why."""
        if self.status != CONFIRMED or extreme is None:
            return self
        return replace(self, status=CONFIRMED_EXTREME, extreme=extreme,
                       line=f"{self.line}, but only under timing no network or person produces: the order {extreme}")


@dataclass(frozen=True)
class PlainWitness:
    """Both plain runs of a reversal (parent order first), the confirmation they give, and the
    schedules they ran (``None`` when no lever forces the order)."""

    parent: PlainRun | None
    child: PlainRun | None
    confirmation: Confirmation
    schedules: tuple[PlainSchedule, PlainSchedule] | None = None


async def confirm(browser: Browser, page: PageFacts, har: Path, parent: Trace, child: Trace, first: EventId,
                  second: EventId, verdict: str, reported: Mapping[str, list[str]],
                  mask: NoiseMask = NoiseMask(), reads: Sequence[dict[str, str]] = ()) -> PlainWitness:
    """Force ``first`` before ``second`` (the parent's order, twice) and ``second`` before ``first``
    (the reversal) in fresh stock contexts of ``browser``, the responses served from ``har``, and
    judge the plain difference against webr4's ``verdict`` and ``reported`` differences. Nothing
    in the page fixes ``Date`` or ``Math.random`` as webr4 does, so what differs between the two
    runs of the parent's order is masked too, as webr4 masks what differs between two seed
    replays (:meth:`~webr4.state.noise.NoiseMask.from_baselines`)."""
    schedules = plain_schedules(page, parent, child, first, second)
    if isinstance(schedules, NotForceable):
        return PlainWitness(None, None, Confirmation(NOT_FORCEABLE, f"not forceable in plain Chromium: "
                                                                   f"{schedules.lever}"))
    try:
        parent_run, again, child_run = await asyncio.gather(run_plain(browser, schedules[0], har, reads=reads),
                                                            run_plain(browser, schedules[0], har),
                                                            run_plain(browser, schedules[1], har, reads=reads))
    except asyncio.TimeoutError:
        return PlainWitness(None, None, Confirmation(
            ERROR, f"a plain run did not end within {RUN_TIMEOUT_S:g} s: the page hangs in plain Chromium too, "
                   "or waits for something the schedule never gives", order=schedules[1].order))
    except PlaywrightError as error:
        return PlainWitness(None, None, Confirmation(
            ERROR, f"a plain run failed: {str(error).splitlines()[0]}", order=schedules[1].order))
    seconds = round(parent_run.seconds + again.seconds + child_run.seconds, 2)
    problem = parent_run.problem or child_run.problem
    if problem is not None:
        return PlainWitness(parent_run, child_run, Confirmation(
            NOT_FORCEABLE, f"the order could not be forced: {problem}", order=schedules[1].order, seconds=seconds),
            schedules)
    # what varies between two plain runs of one order is noise (Date.now, random ids)
    plain = plain_difference(parent_run.state, child_run.state, again.state if again.problem is None else None, mask)
    judged = judge(verdict, reported, plain).forced_with(extreme_forcing(schedules[1]))
    return PlainWitness(parent_run, child_run, replace(judged, plain=plain, order=schedules[1].order, seconds=seconds),
                        schedules)


def judge(verdict: str, reported: Mapping[str, list[str]], plain: Mapping[str, list[str]]) -> Confirmation:
    """The judgement of a forced pair of plain runs whose difference is ``plain``, for a reversal
    webr4 judged ``verdict`` with the differences ``reported``."""
    readable = {c: items for c, items in reported.items() if c not in UNREADABLE}
    matched = {c: shown for c, items in readable.items() if (shown := found(c, items, plain.get(c, [])))}
    telling = set(readable) - {"screenshot"} or set(readable)
    agrees = bool(telling & set(matched))
    if agrees and verdict == "harmful":
        return Confirmation(CONFIRMED, f"the reversed order shows it in plain Chromium too: {_first(matched)}",
                            matched)
    if agrees:
        return Confirmation(REPRODUCED, f"the same difference in plain Chromium ({_first(matched)}); "
                                        f"webr4's verdict, {verdict}, stands on its rules", matched)
    if not readable and not plain:
        if not reported:
            return Confirmation(REPRODUCED, "no difference in plain Chromium either")
        return Confirmation(NOT_REPRODUCED if verdict == "harmful" else REPRODUCED,
                            "no difference in plain Chromium, which cannot show webr4's (in the JS heap or the "
                            "pending events)")
    if not readable:
        return Confirmation(NOT_REPRODUCED, f"plain Chromium showed {_first(plain)}, which webr4 did not report")
    missing = _first({c: readable[c] for c in sorted(telling)})
    instead = f"; it showed {_first(plain)} instead" if plain else "; nothing differed"
    return Confirmation(NOT_REPRODUCED, f"forced in plain Chromium, but not {missing}{instead}")


def _first(differences: Mapping[str, list[str]]) -> str:
    category, items = next(iter(differences.items()))
    return f"{category}: {items[0]}" if items else category

