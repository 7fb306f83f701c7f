"""The confirmation of one reversal in plain Chromium, and the judgement behind it.

Both orders of the racing pair are run from their plain schedules (:mod:`webr4.witness.schedule`,
:mod:`webr4.witness.run`), and the two plain end states are compared with webr4's own
categories and noise mask. The judgement is one of

* ``confirmed``: webr4 judged the reversal harmful, and the reversed plain run differs from the
  parent plain run in the way webr4 reported (``matched`` names the items found in both);
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
of its seed. Items match when they say the same thing of the same part of the page: an exception by its
message (a plain page shows an unhandled rejection as an uncaught error, and an inline handler's
column as the browser counts it), a DOM change by the element it changed, a screenshot change by
being one, any other item word for word. The JS heap and pending events cannot be read without
webr4's code in the page, so they are never matched.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from playwright.async_api import Browser
from playwright.async_api import Error as PlaywrightError

from webr4.classify.differences import describe_differences
from webr4.state.noise import NoiseMask
from webr4.trace import EventId, Trace
from webr4.witness.run import RUN_TIMEOUT_S, PlainRun, run_plain
from webr4.witness.pagefacts import PageFacts
from webr4.witness.schedule import NotForceable, PlainSchedule, plain_schedules

CONFIRMED, REPRODUCED, NOT_REPRODUCED, NOT_FORCEABLE = "confirmed", "reproduced", "not-reproduced", "not-forceable"
ERROR = "error"
STATUSES = (CONFIRMED, REPRODUCED, NOT_REPRODUCED, NOT_FORCEABLE, ERROR)
UNREADABLE = frozenset({"heap", "pending"})
"""Categories a plain page cannot show without webr4's code in it."""

_EXCEPTION = re.compile(r"^(new|gone) (?:Uncaught )?(?:\(in promise\) )?(?:[A-Za-z]*Error: )?(.*?)(?: at \S+)?$")


@dataclass(frozen=True)
class Confirmation:
    """The plain-Chromium check of one reversal: ``status`` (one of :data:`STATUSES`), ``line``
    (the judgement in one line), ``matched`` (category → items webr4 reported that the plain runs
    showed too), ``plain`` (category → the plain runs' own items), ``order`` (the reversed order
    forced, in words) and ``seconds`` (the plain runs, added up)."""

    status: str
    line: str
    matched: dict[str, list[str]] = field(default_factory=dict)
    plain: dict[str, list[str]] = field(default_factory=dict)
    order: str = ""
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Confirmation:
        return cls(str(raw["status"]), str(raw.get("line", "")), dict(raw.get("matched") or {}),
                   dict(raw.get("plain") or {}), str(raw.get("order", "")), float(raw.get("seconds", 0.0)))


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
    if again.problem is None:  # what varies between two plain runs of one order is noise (Date.now, random ids)
        mask = mask | NoiseMask.from_baselines(parent_run.state, again.state)
    plain = describe_differences(mask.diff(parent_run.state, child_run.state))
    judged = judge(verdict, reported, plain)
    return PlainWitness(parent_run, child_run, Confirmation(judged.status, judged.line, judged.matched, plain,
                                                            schedules[1].order, seconds), schedules)


def judge(verdict: str, reported: Mapping[str, list[str]], plain: Mapping[str, list[str]]) -> Confirmation:
    """The judgement of a forced pair of plain runs whose difference is ``plain``, for a reversal
    webr4 judged ``verdict`` with the differences ``reported``."""
    readable = {c: items for c, items in reported.items() if c not in UNREADABLE}
    matched = {c: found for c, items in readable.items() if (found := _found(c, items, plain.get(c, [])))}
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


def _found(category: str, reported: list[str], plain: list[str]) -> list[str]:
    """The items of ``reported`` that the plain items say too."""
    keys = {_key(category, item) for item in plain}
    return [item for item in reported if _key(category, item) in keys and not item.startswith("… ")]


def _key(category: str, item: str) -> str:
    """What an item says, as far as plain Chromium can say it (see the module docstring)."""
    if category == "exceptions":
        parsed = _EXCEPTION.match(item)
        return f"{parsed.group(1)} {parsed.group(2)}" if parsed else item
    if category == "dom":
        return item.split(": ", 1)[0]
    if category == "screenshot":
        return "changed"
    return item
