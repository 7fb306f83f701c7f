"""``summary.json``: a sweep and each of its reversals (:class:`Summary`, :class:`ReversalReport`).
Readers accept what earlier versions wrote: summaries without the keys added since."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from webr4.errors import Webr4Error
from webr4.keydocs import Derived, KeyTable, doc
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
    """One explored sequence against its parent: an entry of ``summary.json``'s ``reversals``,
    whose keys are its fields, each described beside it (:data:`REVERSAL_KEYS`). The words of
    ``locations`` come from :func:`~webr4.engine.describe.describe_locations`, ``differences``
    from :mod:`webr4.classify.differences`, ``timing`` from :mod:`webr4.engine.realism`,
    ``confirmation`` from :mod:`webr4.witness.confirm` and ``group`` from
    :mod:`webr4.engine.grouping`."""

    id: int = field(metadata=doc("the reversal: the number of the sequence it ran"))
    index: int = field(metadata=doc("the same as `id`, for the report"))
    parent: int = field(metadata=doc("the sequence it reverses a conflict of (0: the seed)"))
    depth: int = field(metadata=doc("how many reversals deep it is: 1 for a reversal of the seed"))
    first: str = field(metadata=doc("the label of the racing event that ran first in the parent"))
    second: str = field(metadata=doc("the label of the racing event it runs first instead"))
    first_id: str = field(metadata=doc("the id of `first`"))
    second_id: str = field(metadata=doc("the id of `second`"))
    location: str = field(metadata=doc("the first of `locations`; `order of events` when the two events "
                                       "conflict on nothing nameable, only on their order"))
    location_key: str = field(metadata=doc("that location as webr4 keys it (`prop:9.textContent`), for the report"))
    verdict: str = field(metadata=doc("`harmful`, `harmless`, `heap-only`, `unrealised` or `error`"))
    reasons: list[str] = field(metadata=doc("the reason codes of the verdict"))
    differences: dict[str, list[str]] = field(metadata=doc(
        "each state category that differs from the parent's, with at most 5 short items"))
    skipped: int = field(metadata=doc("how many of its planned events were not enabled when their turn came"))
    sequence: list[str] = field(metadata=doc("the event ids executed"))
    events: list[dict[str, str | None]] = field(metadata=doc(
        "the two racing events, in the parent's order: `id`, `label`, `site` (the source location that "
        "made it) and `waits_for`: for a parse chunk, what Chromium's parser waits for before it "
        "(`script /js/app.js`, `style sheet /css/site.css`, `more of the document`), else null"))
    witness: str = field(metadata=doc("its witness directory, `reversals/<id>/`"))
    locations: list[str] = field(default_factory=list, metadata=doc(
        "every location the two events conflict on, in words: first those the differences are about (an "
        "element id, a heap path, a storage key or a name they mention), then the others most visible first: "
        "DOM, then storage and cookies, then the JS heap, then event scheduling; the focus, "
        "`document.activeElement`, which every click moves, last"))
    unrealised: str | None = field(default=None, metadata=doc(
        "why the planned order did not happen, in words (`click on #add was not enabled when its turn came and "
        "ran after parse chunk 1/2`); null when it did"))
    failure: str | None = field(default=None, metadata=doc(
        "why the reversal's or its parent's execution failed, in words (`the reversal's execution failed: the "
        "end state could not be read: reading the DOM took longer than 10 s`); null when neither did. Such a "
        "reversal's verdict is `error`, and it has no differences"))
    timing: str = field(default="", metadata=doc("how far the order that ran is from the recorded timing, in words"))
    timing_ms: float | None = field(default=None, metadata=doc(
        "that distance in virtual milliseconds: 0 when the recorded times allow the order"))
    confirmation: dict[str, Any] | None = field(default=None, metadata=doc(
        "what plain Chromium showed: `status`, `line`, `matched`, `plain`, `order`, `seconds` and `extreme`; "
        "null until the reversal is checked there"))
    group: int | None = field(default=None, metadata=doc(
        "the id of its group's first reversal (its own id when it is that one); null when it belongs to no group"))

    @property
    def confirmation_status(self) -> str | None:
        """``confirmed``, ``confirmed-extreme``, ``reproduced``, ``not-reproduced``, ``not-forceable`` or
        ``error``; ``None`` when unchecked."""
        return str(self.confirmation["status"]) if self.confirmation else None

    def to_json(self) -> dict[str, Any]:
        return REVERSAL_KEYS.to_json(self)

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
    :mod:`webr4.engine.grouping`): an entry of ``summary.json``'s ``represented``, whose keys
    are its fields (:data:`REPRESENTED_KEYS`). It is no verdict: ``--exhaustive``, with
    ``--resume`` too, runs it."""

    id: int = field(metadata=doc("its sequence number"))
    parent: int = field(metadata=doc("the sequence it would reverse a conflict of"))
    depth: int = field(metadata=doc("how many reversals deep it is"))
    first: str = field(metadata=doc("the label of the racing event that ran first in the parent"))
    second: str = field(metadata=doc("the label of the racing event it would run first instead"))
    first_id: str = field(metadata=doc("the id of `first`"))
    second_id: str = field(metadata=doc("the id of `second`"))
    representative: int = field(metadata=doc("the id of the reversal that stood for it"))

    def to_json(self) -> dict[str, Any]:
        return REPRESENTED_KEYS.to_json(self)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> RepresentedReversal:
        return cls(**{f.name: raw[f.name] for f in fields(cls)})


@dataclass
class ReversalGroup:
    """Reversals racing on one location through one pair of sites (:mod:`webr4.engine.grouping`):
    an entry of ``summary.json``'s ``groups``, whose keys are its fields (:data:`GROUP_KEYS`)."""

    representative: int = field(metadata=doc("the id of its first reversal explored, which stands for the others"))
    location: str = field(metadata=doc("the location they race on, in words, as its first reversal says it"))
    sites: list[str] = field(metadata=doc("the two code sites they race through, short"))
    explored: list[int] = field(default_factory=list, metadata=doc("the ids of its reversals that ran"))
    represented: list[int] = field(default_factory=list, metadata=doc(
        "the ids of those its first stood for, which did not run"))
    verdicts: dict[str, int] = field(default_factory=dict, metadata=doc("those that ran, counted per verdict"))
    locations: int = field(default=1, metadata=doc(
        "how many locations they race on: more than one when the same code reaches several objects, "
        "or keys of one object"))

    @property
    def count(self) -> int:
        """Its reversals, explored or not."""
        return len(self.explored) + len(self.represented)

    def line(self) -> str:
        """``149 reversals on globalDefQueue through require.js:16, 1 explored, harmless``; on a
        group over several locations, ``… on cache["app/list"] and 119 more like it through …``."""
        through = " and ".join(dict.fromkeys(self.sites))
        verdicts = ", ".join(f"{n} {verdict}" if len(self.verdicts) > 1 else verdict
                             for verdict, n in sorted(self.verdicts.items())) or "not judged"
        where = self.location if self.locations <= 1 else f"{self.location} and {self.locations - 1} more like it"
        return f"{self.count} reversals on {where} through {through}, {len(self.explored)} explored, {verdicts}"

    def to_json(self) -> dict[str, Any]:
        return GROUP_KEYS.to_json(self)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> ReversalGroup:
        return cls(**{f.name: raw[f.name] for f in fields(cls) if f.name in raw})


@dataclass
class Summary:
    """A sweep as ``summary.json`` has it, written when exploring starts and rewritten after
    every reversal. Its keys are its fields and a few properties, each described beside it
    (:data:`SUMMARY_KEYS`); the reversals' are :class:`ReversalReport`'s, :class:`RepresentedReversal`'s
    and :class:`ReversalGroup`'s. ``pruning`` comes from :mod:`webr4.engine.stats`, ``budget``,
    ``completed_bound`` and ``next_bound`` from :mod:`webr4.engine.anytime`."""

    url: str = field(metadata=doc("the same as `site`, under the name older runs gave it"))
    bound: int | None = field(metadata=doc(
        "the conflict-reversal bound; null for a `--budget` sweep without `--bound`, which has no cap"))
    strategy: str = field(default="r4", metadata=doc("the strategy that chose the sequences (`--strategy`)"))
    session: str = field(default="", metadata=doc("the session directory explored, relative to the run"))
    parse_chunks: str = field(default="", metadata=doc("the session's parse-chunk model, in words"))
    seed_events: int = field(default=0, metadata=doc("the events of the seed"))
    races_uncovered: int = field(default=0, metadata=doc("the seed's uncovered races, after the filters"))
    sequences: int = field(default=1, metadata=doc(
        "the same as `sequences_explored`, under the name older runs gave it"))
    status: str = field(default=RUNNING, metadata=doc(
        f"`{RUNNING}` while the sweep goes on, `{INTERRUPTED}` when Ctrl-C, SIGTERM or an error stopped it, "
        f"`{FINISHED}` when it ended by itself; a `kill -9` leaves `{RUNNING}`"))
    stop_reason: str | None = field(default=None, metadata=doc(
        f"once finished: {', '.join(f'`{reason}`' for reason in StopReason)} (which a spent `--budget` is too); "
        "null before"))
    seconds: float = field(default=0.0, metadata=doc("the time the sweep has taken, in seconds"))
    noise: list[str] = field(default_factory=list, metadata=doc(
        "the state categories masked because they differed between two replays of the seed"))
    clock_noise: list[str] = field(default_factory=list, metadata=doc(
        "what was masked item by item because it moved when a replay of the seed moved the virtual clock and "
        "the random seed: it follows the clock or the random numbers"))
    failed_requests: list[str] = field(default_factory=list, metadata=doc(
        "the recording's requests that failed, as the page saw them, in recorded order: "
        "`GET http://cdn.example/a.png: net::ERR_NAME_NOT_RESOLVED`, `GET /api: HTTP 500`, "
        "`GET http://cdn.example/b.js: blocked:csp`; every replay fails them the same way"))
    blocked_service_workers: list[str] = field(default_factory=list, metadata=doc(
        "the script URLs of the service workers the page registered while the session blocked them"))
    sandbox: str = field(default="", metadata=doc("`on`, or `off (why)`: whether Chromium ran with its sandbox"))
    pruning: dict[str, float] | None = field(default=None, metadata=doc(
        "R4 only: `enabled` (the enabled events of the explored states), `explored` (those explored) and "
        "`ratio` (the part partial-order reduction pruned); for a budget, those of the last bound explored; "
        "null for another strategy"))
    budget: float | None = field(default=None, metadata=doc("the seconds of a `--budget` sweep; null without"))
    completed_bound: int | None = field(default=None, metadata=doc(
        "the highest bound a `--budget` sweep explored in full (0: none); null without a budget"))
    next_bound: dict[str, int] | None = field(default=None, metadata=doc(
        "the bound a `--budget` sweep was exploring when it stopped: `bound`, `explored` (its sequences run) "
        "and `pending` (about how many were left); null when none was left, and without a budget"))
    confirm_seconds: float = field(default=0.0, metadata=doc(
        "the time the plain-Chromium confirmations took, in seconds"))
    reversals: list[ReversalReport] = field(default_factory=list, metadata=doc(
        "every reversal run, in the order they ran (below)"))
    represented: list[RepresentedReversal] = field(default_factory=list, metadata=doc(
        "the reversals not run because their group's first stood for them (below)"))
    groups: list[ReversalGroup] = field(default_factory=list, metadata=doc(
        "each group of more than one reversal racing on one location through the same two code sites (below), "
        "in the order of their first reversals"))

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
        return SUMMARY_KEYS.to_json(self)

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


REVERSAL_KEYS = KeyTable.of(ReversalReport)
"""The keys of an entry of ``summary.json``'s ``reversals``."""

REPRESENTED_KEYS = KeyTable.of(RepresentedReversal)
"""The keys of an entry of ``summary.json``'s ``represented``."""

GROUP_KEYS = KeyTable.of(ReversalGroup)
"""The keys of an entry of ``summary.json``'s ``groups``."""

SUMMARY_KEYS = KeyTable.of(
    Summary,
    Derived("site", "the URL explored", source="url", after="url"),
    Derived("sequences_explored", "the sequences explored, the seed included", source="sequences",
            after="sequences"),
    Derived("truncated", "once finished, the budget that stopped the sweep (as `stop_reason` says it), else null",
            after="stop_reason"),
    Derived("counts", "the reversals run, counted per verdict", after="truncated"),
    Derived("confirmations", "the reversals checked in plain Chromium, counted per confirmation status",
            after="next_bound"),
)
"""The keys of ``summary.json``."""
