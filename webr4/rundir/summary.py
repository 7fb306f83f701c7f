"""``summary.json``: a sweep and each of its reversals (:class:`Summary`, :class:`ReversalReport`).
Readers accept what earlier versions wrote: summaries without the keys added since."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any

from webr4.errors import Webr4Error
from webr4.vocabulary import StopReason

if TYPE_CHECKING:
    from webr4.classify.judge import Judgement
    from webr4.engine.plans import PlannedSequence
    from webr4.trace import Trace

RUNNING, INTERRUPTED, FINISHED = "running", "interrupted", "finished"  # a sweep's status in summary.json

ORDER_OF_EVENTS = "order of events"
"""The location in words of a pair that conflicts on nothing nameable (only on their order)."""


def blocked_service_workers_line(scripts: list[str]) -> str:
    """The one line that says the run blocked the service workers ``scripts`` the page registered,
    and how to let them run."""
    return (f"service workers blocked: the page registered {', '.join(scripts)}, which never ran; "
            "--allow-service-workers lets them run, outside webr4's control")


class SummaryError(Webr4Error, ValueError):
    """The run directory holds no readable ``summary.json``."""


@dataclass(frozen=True)
class ReversalReport:
    """One explored sequence against its parent: an entry of ``summary.json``'s ``reversals``.

    Its keys: ``id``, ``parent``, ``sequence`` (the event ids it executed), ``depth``,
    ``events`` (the two racing events, each ``{"id", "label", "site", "waits_for"}``, in parent
    order; ``waits_for`` is what the parser waits for before a parse chunk, else null),
    ``locations`` (every location the two events conflict on, in words, most visible to the
    user first: see :func:`~webr4.engine.describe.describe_locations`), ``location`` (the first
    of them) and ``location_key``, ``verdict`` (``harmful``, ``harmless``, ``heap-only``,
    ``unrealised`` or ``error``), ``reasons`` (reason codes), ``differences`` (category → short
    items, see :mod:`webr4.classify.differences`), ``witness`` (its directory, relative to the
    run), ``failure`` (why the reversal's or its parent's execution failed, in words, or null
    when neither did; such a reversal's verdict is ``error`` and it has no differences),
    ``unrealised`` (why the planned order did not happen, in words, or null when it did;
    such a reversal's verdict is ``unrealised``) and ``timing`` and ``timing_ms`` (how far the
    order that ran is from the recorded timing, in words and in virtual milliseconds: see
    :mod:`webr4.engine.realism`), ``confirmation`` (null until the reversal is checked in plain
    Chromium: ``status``, ``line``, ``matched``, ``plain``, ``order``, ``seconds``, ``extreme``; see
    :mod:`webr4.witness.confirm`), ``group`` (the id of its group's representative, itself
    when it is one; null when it belongs to no group: see :class:`ReversalGroup`).
    ``index``, ``first``, ``second``, ``first_id``, ``second_id`` and ``skipped`` repeat those
    facts for the report.
    """

    id: int
    index: int
    parent: int
    depth: int
    first: str  # label of the event that ran first in the parent
    second: str  # label of the event the child runs first
    first_id: str
    second_id: str
    location: str  # in words: the first of ``locations``
    location_key: str
    verdict: str
    reasons: list[str]
    differences: dict[str, list[str]]
    skipped: int
    sequence: list[str]
    events: list[dict[str, str | None]]
    witness: str
    locations: list[str] = field(default_factory=list)
    unrealised: str | None = None  # why the planned order did not happen, in words; None when it did
    failure: str | None = None  # why the child's or the parent's execution failed, in words; None when neither did
    timing: str = ""  # how far the order that ran is from the recorded timing, in words
    timing_ms: float | None = None  # that distance in virtual ms (0: the recorded times allow it)
    confirmation: dict[str, Any] | None = None  # the plain-Chromium check (webr4.witness.confirm), when run
    group: int | None = None  # the representative of its group (webr4.engine.grouping); None: in none

    @property
    def confirmation_status(self) -> str | None:
        """``confirmed``, ``confirmed-extreme``, ``reproduced``, ``not-reproduced``, ``not-forceable`` or
        ``error``; ``None`` when unchecked."""
        return str(self.confirmation["status"]) if self.confirmation else None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def of(cls, planned: PlannedSequence, judged: Judgement, child: Trace, witness: str,
           group: int | None = None) -> ReversalReport:
        """The report of the sequence ``planned``, which ran as ``child``, judged against its
        parent as ``judged`` (:func:`~webr4.classify.judge.judge`); ``witness`` is its witness
        directory, relative to the run, ``group`` its group's representative. A pair that
        conflicts on nothing nameable is located at :data:`ORDER_OF_EVENTS`."""
        first, second = judged.first, judged.second
        return cls(
            id=planned.index, index=planned.index, parent=planned.derived_from, depth=planned.depth,
            first=first.label, second=second.label, first_id=first.id, second_id=second.id,
            location=judged.locations[0][0] if judged.locations else ORDER_OF_EVENTS,
            locations=[words for words, _key in judged.locations], location_key=judged.location_key,
            verdict=judged.verdict.kind, reasons=list(judged.verdict.reasons), differences=judged.differences,
            skipped=len(child.skipped), sequence=child.sequence,
            events=[{"id": e.id, "label": e.label, "site": site, "waits_for": e.params.get("waits_for")}
                    for e, site in zip((first, second), judged.sites)],
            witness=witness, failure=judged.failure, unrealised=judged.unrealised, timing=judged.timing,
            timing_ms=judged.timing_ms, group=group,
        )

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> ReversalReport:
        """The report in ``raw`` (``id`` and ``verdict`` required); keys older runs lack are
        derived from those they have, keys this version does not know are ignored."""
        given = {f.name: raw[f.name] for f in fields(cls) if f.name in raw}
        events = given.get("events") or [{"id": raw.get(f"{which}_id"), "label": raw.get(which), "site": None}
                                         for which in ("first", "second") if raw.get(which)]
        location = given.get("location") or ""
        return cls(**{
            "index": raw["id"], "parent": 0, "depth": 1, "first": "", "second": "", "first_id": "",
            "second_id": "", "location": location, "location_key": "", "reasons": [], "differences": {},
            "skipped": 0, "sequence": [], "witness": "",
            **given,
            "events": [e for e in events if isinstance(e, dict)],
            "locations": given.get("locations") or ([location] if location else []),
        })


@dataclass(frozen=True)
class RepresentedReversal:
    """A reversal the sweep did not run because its group's representative stood for it (see
    :mod:`webr4.engine.grouping`): an entry of ``summary.json``'s ``represented``. It is no
    verdict: ``--exhaustive``, with ``--resume`` too, runs it. Its keys: ``id`` (its sequence
    number), ``parent``, ``depth``, ``first`` and ``second`` (the labels of the racing events
    in parent order), ``first_id``, ``second_id`` and ``representative`` (the id of the reversal
    that stood for it)."""

    id: int
    parent: int
    depth: int
    first: str
    second: str
    first_id: str
    second_id: str
    representative: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> RepresentedReversal:
        return cls(**{f.name: raw[f.name] for f in fields(cls)})


@dataclass
class ReversalGroup:
    """Reversals racing on one location through one pair of sites (:mod:`webr4.engine.grouping`):
    an entry of ``summary.json``'s ``groups``. Its keys: ``representative`` (the id of the first
    explored), ``location`` (in words, as its representative's report says it), ``sites`` (the two
    sites, short), ``explored`` (the ids run), ``represented`` (the ids it stood for) and
    ``verdicts`` (explored members per verdict)."""

    representative: int
    location: str
    sites: list[str]
    explored: list[int] = field(default_factory=list)
    represented: list[int] = field(default_factory=list)
    verdicts: dict[str, int] = field(default_factory=dict)

    @property
    def count(self) -> int:
        """Its reversals, explored or not."""
        return len(self.explored) + len(self.represented)

    def line(self) -> str:
        """``149 reversals on globalDefQueue through require.js:16, 1 explored, harmless``."""
        through = " and ".join(dict.fromkeys(self.sites))
        verdicts = ", ".join(f"{n} {verdict}" if len(self.verdicts) > 1 else verdict
                             for verdict, n in sorted(self.verdicts.items())) or "not judged"
        return (f"{self.count} reversals on {self.location} through {through}, "
                f"{len(self.explored)} explored, {verdicts}")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> ReversalGroup:
        return cls(**{f.name: raw[f.name] for f in fields(cls) if f.name in raw})


@dataclass
class Summary:
    """A sweep as ``summary.json`` has it, written when exploring starts and rewritten after
    every reversal.

    Its keys: ``status`` (``running`` while the sweep goes on — and after a ``kill -9``, which
    leaves no chance to say otherwise —, ``interrupted`` when it stopped on an interrupt or an
    error, ``finished`` when it ended by itself), ``stop_reason`` (once finished: ``exhausted``,
    ``max-sequences`` or ``time-limit``; null before), ``site`` (the URL, also as ``url``),
    ``bound``, ``strategy``, ``parse_chunks`` (the parse-chunk model, in words), ``seed_events``,
    ``races_uncovered`` (in the seed, after filters), ``sequences_explored`` (the seed included,
    also as ``sequences``), ``truncated`` (once finished, the budget that stopped the run, else
    null), ``counts`` (reversals per verdict), ``session`` (its directory, relative to the
    run), ``noise`` (categories masked because they differed between two replays of the seed),
    ``clock_noise`` (what was masked, item by item, because it moved in a replay of the seed with
    the virtual clock and the random seed moved: it follows the clock or the random numbers),
    ``failed_requests`` (the requests of the recording that failed, as the page saw them, in
    recorded order: ``GET url: net::ERR_NAME_NOT_RESOLVED``, ``GET url: HTTP 404``; every
    replay fails them the same way), ``blocked_service_workers`` (the script URLs of the service
    workers the page registered while the session blocked them, the default: the page went on
    without them), ``sandbox`` (``on``, or ``off (why)``: whether Chromium ran
    sandboxed), ``pruning`` (R4 only: the enabled events of the explored states, those explored,
    and the fraction partial-order reduction pruned; for a budget, those of the last bound
    explored), ``budget`` (the seconds of an anytime sweep, ``--budget``, else null),
    ``completed_bound`` (an anytime sweep's highest bound explored in full: 0 for none; null
    without a budget), ``next_bound`` (the bound it was exploring when it stopped,
    ``{"bound", "explored", "pending"}``: sequences of it run and about how many were left;
    null when no bound was left to explore), ``seconds``, ``confirmations`` (reversals
    per confirmation status, once any was checked in plain Chromium), ``confirm_seconds`` (the
    time those checks took), ``reversals`` (each a :class:`ReversalReport`), ``represented``
    (the reversals a group's representative stood for, each a :class:`RepresentedReversal`)
    and ``groups`` (each a :class:`ReversalGroup`, in the order of their representatives).
    """

    url: str
    bound: int | None
    strategy: str = "r4"
    session: str = ""  # the session directory explored, relative to the run directory
    parse_chunks: str = ""  # the parse-chunk model of the session, in words
    seed_events: int = 0
    races_uncovered: int = 0
    sequences: int = 1
    status: str = RUNNING
    stop_reason: str | None = None  # set when the sweep finishes
    seconds: float = 0.0
    noise: list[str] = field(default_factory=list)
    clock_noise: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)  # the recording's, in recorded order
    blocked_service_workers: list[str] = field(default_factory=list)  # scripts the page registered, blocked
    sandbox: str = ""  # Chromium's sandbox in this sweep: on, or off (why)
    pruning: dict[str, float] | None = None  # R4 only: enabled, explored, ratio (see webr4.engine.stats)
    budget: float | None = None  # seconds of an anytime sweep (webr4.engine.anytime); None: plain
    completed_bound: int | None = None  # an anytime sweep's highest bound explored in full
    next_bound: dict[str, int] | None = None  # the bound it was in when it stopped: bound, explored, pending
    confirm_seconds: float = 0.0  # the plain-Chromium checks after the sweep
    reversals: list[ReversalReport] = field(default_factory=list)
    represented: list[RepresentedReversal] = field(default_factory=list)
    groups: list[ReversalGroup] = field(default_factory=list)

    @property
    def confirmations(self) -> dict[str, int]:
        """Reversals per confirmation status (those checked in plain Chromium)."""
        return dict(Counter(r.confirmation_status for r in self.reversals if r.confirmation_status))

    def confirmed(self) -> list[ReversalReport]:
        """The harmful reversals plain Chromium confirmed with timing a network and a person
        produce (``confirmed``; not ``confirmed-extreme``)."""
        return [r for r in self.harmful() if r.confirmation_status == "confirmed"]

    @property
    def counts(self) -> dict[str, int]:
        """Reversals per verdict."""
        return dict(Counter(r.verdict for r in self.reversals))

    @property
    def truncated(self) -> str | None:
        """The budget that stopped a finished sweep, else ``None``."""
        return None if self.stop_reason in (None, StopReason.EXHAUSTED) else self.stop_reason

    @property
    def bounds_reached(self) -> str | None:
        """An anytime sweep's bounds, briefly: ``bound 1 complete, bound 2 at 12 sequences (about
        30 left)``; ``None`` for a sweep without a budget."""
        if self.completed_bound is None:
            return None
        done = f"bound {self.completed_bound} complete" if self.completed_bound else "no bound complete"
        if self.next_bound is None:
            return done
        working = self.next_bound
        return (f"{done}, bound {working['bound']} at {working['explored']} sequences "
                f"(about {working['pending']} left)")

    @property
    def service_workers_notice(self) -> str | None:
        """The line that says which service workers the run blocked; ``None`` when it blocked none."""
        return blocked_service_workers_line(self.blocked_service_workers) if self.blocked_service_workers else None

    def harmful(self) -> list[ReversalReport]:
        """The harmful reversals, in the order they were explored."""
        return [r for r in self.reversals if r.verdict == "harmful"]

    def closing_lines(self) -> list[str]:
        """What a sweep says when it ends: its sequences and verdicts, what plain Chromium made of
        them, and the service workers it blocked."""
        counts = ", ".join(f"{n} {verdict}" for verdict, n in sorted(self.counts.items())) or "no reversals"
        bounds = f"; {self.bounds_reached}" if self.bounds_reached else ""
        lines = [f"{self.sequences} sequences in {self.seconds:g} s: {counts} ({self.stop_reason}{bounds})"]
        lines += [group.line() for group in self.groups if group.count > 1]
        if self.confirmations:
            confirmed = ", ".join(f"{n} {status}" for status, n in sorted(self.confirmations.items()))
            lines.append(f"in plain Chromium ({self.confirm_seconds:g} s): {confirmed}")
        if self.service_workers_notice:
            lines.append(self.service_workers_notice)
        return lines

    def to_json(self) -> dict[str, Any]:
        raw = asdict(self)
        raw["counts"] = self.counts
        raw["confirmations"] = self.confirmations
        raw["site"] = self.url
        raw["sequences_explored"] = self.sequences
        raw["truncated"] = self.truncated
        return raw

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Summary:
        """The summary in ``raw``, whose ``reversals`` must each have ``id`` and ``verdict``. A
        summary from before webr4 recorded its sweep's status counts as finished."""
        derived = {"url", "bound", "sequences", "status", "reversals", "represented", "groups"}
        status = raw.get("status", FINISHED)
        return cls(
            url=raw.get("site") or raw.get("url") or "", bound=raw.get("bound"),
            sequences=raw.get("sequences_explored", raw.get("sequences", 1)),
            status=status if isinstance(status, str) else "unknown",
            reversals=[ReversalReport.from_json(r) for r in raw.get("reversals", [])],
            represented=[RepresentedReversal.from_json(r) for r in raw.get("represented", [])],
            groups=[ReversalGroup.from_json(g) for g in raw.get("groups", [])],
            **{f.name: raw[f.name] for f in fields(cls) if f.name in raw and f.name not in derived},
        )
