"""What webr4 keeps on disk: the layout of its directories and the one reader and writer of each file.

Three kinds of directory, each a class here that names its paths:

* an **execution** (:class:`ExecutionFiles`): ``trace.json``, ``state.json``, ``screenshot.png``
  and, when it carries its own network, ``network.har``. ``webr4 run --out`` writes one, a
  session's ``seed/`` is one, and ``webr4 replay --traces DIR`` writes the traces of two,
  ``DIR/parent`` and ``DIR/child``;
* a **session** (:class:`SessionDir`, written by ``webr4 record``): ``session.json`` (the
  manifest, whose schema belongs to :class:`webr4.record.session.Session`), ``network.har`` and
  the seed execution ``seed/``;
* a **run** (:class:`RunDir`, written by ``webr4 explore``): ``summary.json`` (:class:`Summary`),
  ``webr4.sqlite`` (the store of every explored trace and end state, :mod:`webr4.sweep.store`),
  ``noise.json``, ``sequences/<n>/`` (``state.png``, ``diff.json``, ``diff.png``),
  ``reversals/<id>/`` (the :class:`Witness`) and ``report/``; ``webr4 check`` keeps its session in
  ``session/``.

A trace is one JSON schema wherever it is kept (a file or the store): :meth:`Trace.to_json
<webr4.trace.Trace.to_json>` plus ``sequence``, the executed event ids, so that every
``trace.json`` is also a plan for ``webr4 run --sequence``. An end state is one schema too:
:meth:`StateSnapshot.to_json <webr4.state.snapshot.StateSnapshot.to_json>`, whose ``screenshot``
is a PNG file named relative to the JSON file (null in the store, which keeps the PNG beside it).

Paths written into a run are relative to it, so a run directory moved or copied with its
session still reads. Readers accept what earlier versions wrote: traces without ``sequence``,
summaries without the keys added since.
"""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from webr4.errors import Webr4Error
from webr4.gcpause import gc_paused
from webr4.state.diff import StateDiff
from webr4.state.noise import NoiseMask
from webr4.state.snapshot import StateSnapshot
from webr4.trace import Trace
from webr4.vocabulary import StopReason

RUNNING, INTERRUPTED, FINISHED = "running", "interrupted", "finished"  # a sweep's status in summary.json
SCREENSHOT = "state.png"  # each explored sequence's, in sequences/<n>/
DIFF = "diff"  # its difference with its parent, in sequences/<n>/: diff.json and diff.png


# -- traces and end states --------------------------------------------------------------------------


def trace_text(trace: Trace) -> str:
    """``trace`` as trace JSON, compact (a framework app's trace holds 10^5 accesses)."""
    return json.dumps({"sequence": trace.sequence, **trace.to_json()}, separators=(",", ":"), sort_keys=True)


def trace_from_text(text: str) -> Trace:
    """The trace in trace JSON ``text`` (``sequence`` is derived from the steps, and may be missing)."""
    with gc_paused():  # 10^5 accesses, and no cycle among them
        return Trace.from_json(json.loads(text))


def write_trace(path: Path, trace: Trace) -> Path:
    """Write ``trace`` to ``path`` (its directory is created); returns ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(trace_text(trace), encoding="utf-8")
    return path


def read_trace(path: Path) -> Trace:
    return trace_from_text(path.read_text(encoding="utf-8"))


def state_text(state: StateSnapshot) -> str:
    """``state`` as compact state JSON; a screenshot held as bytes is left out (the store keeps
    it beside the JSON), one held as a path is named as it is."""
    return json.dumps(state.to_json(), separators=(",", ":"))


def state_from_text(text: str, screenshot: bytes | Path | None = None) -> StateSnapshot:
    """The end state in state JSON ``text``, with ``screenshot`` (PNG bytes or a file) when given,
    else the file the JSON names."""
    state = StateSnapshot.from_json(json.loads(text))
    return state if screenshot is None else state.replace(screenshot=screenshot)


def write_state(path: Path, state: StateSnapshot, screenshot: Path | None = None) -> Path:
    """Write ``state`` to ``path``, its screenshot (if any) to the PNG file ``screenshot`` (beside
    ``path`` unless given), named in the JSON relative to ``path``'s directory; returns ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    png = state.screenshot_png()
    stored = state.replace(screenshot=None)
    if png is not None:
        screenshot = screenshot or path.with_suffix(".png")
        screenshot.write_bytes(png)
        stored = state.replace(screenshot=Path(os.path.relpath(screenshot, path.parent)))
    path.write_text(json.dumps(stored.to_json(), indent=1, sort_keys=True), encoding="utf-8")
    return path


def read_state(path: Path) -> StateSnapshot:
    """The end state ``path`` holds; its screenshot is the file it names, relative to ``path``."""
    return StateSnapshot.from_json(json.loads(path.read_text(encoding="utf-8")), base=path.parent)


@dataclass(frozen=True)
class ExecutionFiles:
    """One execution kept as plain files in ``directory``."""

    directory: Path

    @property
    def trace(self) -> Path:
        return self.directory / "trace.json"

    @property
    def state(self) -> Path:
        return self.directory / "state.json"

    @property
    def screenshot(self) -> Path:
        return self.directory / "screenshot.png"

    @property
    def network(self) -> Path:
        return self.directory / "network.har"

    def write(self, trace: Trace, state: StateSnapshot) -> None:
        """Write ``trace.json``, ``state.json`` and, when the state has one, ``screenshot.png``."""
        write_trace(self.trace, trace)
        write_state(self.state, state, self.screenshot)


# -- sessions ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SessionDir:
    """The files of the session directory ``directory``."""

    directory: Path

    @property
    def manifest(self) -> Path:
        return self.directory / "session.json"

    @property
    def network(self) -> Path:
        return self.directory / "network.har"

    @property
    def seed(self) -> ExecutionFiles:
        return ExecutionFiles(self.directory / "seed")

    @property
    def recorded(self) -> bool:
        """Whether a session was recorded here (its manifest exists)."""
        return self.manifest.is_file()

    def missing(self) -> list[str]:
        """What a replay needs and the directory lacks, as paths relative to it."""
        needed = (self.network, self.seed.trace)
        return [path.relative_to(self.directory).as_posix() for path in needed if not path.is_file()]


# -- the summary ---------------------------------------------------------------------------------------


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
    Chromium: ``status``, ``line``, ``matched``, ``plain``, ``order``, ``seconds``; see
    :mod:`webr4.witness.confirm`).
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

    @property
    def confirmation_status(self) -> str | None:
        """``confirmed``, ``reproduced``, ``not-reproduced`` or ``not-forceable``; ``None`` when unchecked."""
        return str(self.confirmation["status"]) if self.confirmation else None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

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
    replay fails them the same way), ``sandbox`` (``on``, or ``off (why)``: whether Chromium ran
    sandboxed), ``pruning`` (R4 only: the enabled events of the explored states, those explored,
    and the fraction partial-order reduction pruned; for a budget, those of the last bound
    explored), ``budget`` (the seconds of an anytime sweep, ``--budget``, else null),
    ``completed_bound`` (an anytime sweep's highest bound explored in full: 0 for none; null
    without a budget), ``next_bound`` (the bound it was exploring when it stopped,
    ``{"bound", "explored", "pending"}``: sequences of it run and about how many were left;
    null when no bound was left to explore), ``seconds``, ``confirmations`` (reversals
    per confirmation status, once any was checked in plain Chromium), ``confirm_seconds`` (the
    time those checks took) and ``reversals`` (each a :class:`ReversalReport`).
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
    sandbox: str = ""  # Chromium's sandbox in this sweep: on, or off (why)
    pruning: dict[str, float] | None = None  # R4 only: enabled, explored, ratio (see webr4.engine.stats)
    budget: float | None = None  # seconds of an anytime sweep (webr4.engine.anytime); None: plain
    completed_bound: int | None = None  # an anytime sweep's highest bound explored in full
    next_bound: dict[str, int] | None = None  # the bound it was in when it stopped: bound, explored, pending
    confirm_seconds: float = 0.0  # the plain-Chromium checks after the sweep
    reversals: list[ReversalReport] = field(default_factory=list)

    @property
    def confirmations(self) -> dict[str, int]:
        """Reversals per confirmation status (those checked in plain Chromium)."""
        return dict(Counter(r.confirmation_status for r in self.reversals if r.confirmation_status))

    def confirmed(self) -> list[ReversalReport]:
        """The harmful reversals plain Chromium confirmed."""
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

    def harmful(self) -> list[ReversalReport]:
        """The harmful reversals, in the order they were explored."""
        return [r for r in self.reversals if r.verdict == "harmful"]

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
        derived = {"url", "bound", "sequences", "status", "reversals"}
        status = raw.get("status", FINISHED)
        return cls(
            url=raw.get("site") or raw.get("url") or "", bound=raw.get("bound"),
            sequences=raw.get("sequences_explored", raw.get("sequences", 1)),
            status=status if isinstance(status, str) else "unknown",
            reversals=[ReversalReport.from_json(r) for r in raw.get("reversals", [])],
            **{f.name: raw[f.name] for f in fields(cls) if f.name in raw and f.name not in derived},
        )


# -- runs ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Witness:
    """``reversals/<id>/``: what shows one reversal, as links to its sequences' files."""

    directory: Path

    @property
    def parent_screenshot(self) -> Path:
        return self.directory / "parent" / "state.png"

    @property
    def child_screenshot(self) -> Path:
        return self.directory / "child" / "state.png"

    @property
    def diff(self) -> Path:
        """The full difference between parent and child (``diff.json``; ``diff.png`` beside it)."""
        return self.directory / "diff.json"

    @property
    def plain_parent_screenshot(self) -> Path:
        """The parent order's end in plain Chromium, when the reversal was confirmed there."""
        return self.directory / "plain" / "parent.png"

    @property
    def plain_child_screenshot(self) -> Path:
        return self.directory / "plain" / "child.png"


@dataclass(frozen=True)
class RunDir:
    """The files of the run directory ``directory``."""

    directory: Path

    @property
    def summary(self) -> Path:
        return self.directory / "summary.json"

    @property
    def store(self) -> Path:
        return self.directory / "webr4.sqlite"

    @property
    def noise(self) -> Path:
        return self.directory / "noise.json"

    @property
    def report(self) -> Path:
        return self.directory / "report"

    def report_page(self, reversal: int | None = None) -> Path:
        """The report's overview page (``index.html``), or the page of reversal ``reversal``."""
        return self.report / ("index.html" if reversal is None else f"reversal-{reversal}.html")

    @property
    def own_session(self) -> SessionDir:
        """``session/``, where ``webr4 check`` records."""
        return SessionDir(self.directory / "session")

    def sequence(self, index: int) -> Path:
        """``sequences/<index>/``: the screenshot of explored sequence ``index`` (0 is the seed)
        and its difference with its parent."""
        return self.directory / "sequences" / str(index)

    def sequence_file(self, index: int, name: str) -> Path | None:
        """``sequences/<index>/<name>`` (``state.png``, ``diff.json``, ``diff.png``) when it exists."""
        path = self.sequence(index) / name
        return path if path.is_file() else None

    def witness(self, index: int) -> Witness:
        return Witness(self.directory / "reversals" / str(index))

    def is_run(self) -> bool:
        """Whether the directory is a webr4 run: it holds a run store or the session ``webr4
        check`` records first. Only such directories are written into; anything else that is not
        empty belongs to someone else."""
        return self.store.is_file() or self.own_session.recorded

    def session(self, recorded: str | None) -> SessionDir:
        """The session the run explored, from ``recorded`` (``summary.json``'s ``session``:
        relative to the run, absolute in older runs). When that path holds no session any more
        (the run was moved or copied without it), :attr:`own_session`."""
        if recorded:
            path = Path(recorded) if Path(recorded).is_absolute() else self.directory / recorded
            if SessionDir(path).recorded:
                return SessionDir(path)
        return self.own_session

    def relative(self, path: Path) -> str:
        """``path`` relative to the run directory (``session``, ``../s1``), as the run records it."""
        return os.path.relpath(path.resolve(), self.directory.resolve())

    # -- summary.json, noise.json

    def read_summary(self) -> Summary:
        """The run's summary; :class:`SummaryError` with a one-line reason when it cannot be read."""
        path = self.summary
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise SummaryError(f"{self.directory} holds no summary.json: not a run directory") from None
        except OSError as error:
            raise SummaryError(f"cannot read {path}: {error.strerror}") from None
        except ValueError as error:
            raise SummaryError(f"{path} is not valid JSON ({error})") from None
        reversals = raw.get("reversals") if isinstance(raw, dict) else None
        if not isinstance(reversals, list) or not all(isinstance(r, dict) and "id" in r and "verdict" in r
                                                      for r in reversals):
            raise SummaryError(f"{path} is not a webr4 run summary (no list of reversals with id and verdict)")
        try:
            return Summary.from_json(raw)
        except (TypeError, ValueError, AttributeError) as error:
            raise SummaryError(f"{path} is not a webr4 run summary ({error})") from None

    def write_summary(self, summary: Summary) -> None:
        """Replace ``summary.json`` at once: a reader never sees half of it."""
        self.directory.mkdir(parents=True, exist_ok=True)
        temporary = self.summary.with_name(self.summary.name + ".tmp")
        temporary.write_text(json.dumps(summary.to_json(), indent=1), encoding="utf-8")
        temporary.replace(self.summary)

    def read_noise(self) -> NoiseMask:
        """The noise mask found from the seed replays (none in a run that has not got that far)."""
        if not self.noise.is_file():
            return NoiseMask()
        return NoiseMask.from_json(json.loads(self.noise.read_text(encoding="utf-8")))

    def write_noise(self, mask: NoiseMask) -> None:
        self.noise.write_text(json.dumps(mask.to_json()), encoding="utf-8")

    # -- sequences/ and reversals/

    def keep_screenshot(self, index: int, png: bytes) -> Path:
        """Write sequence ``index``'s screenshot to ``sequences/<index>/state.png`` (unless it
        holds those bytes already); returns the file."""
        path = self.sequence(index) / SCREENSHOT
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_bytes() != png:
            path.write_bytes(png)
        return path

    def write_difference(self, index: int, difference: StateDiff) -> None:
        """Sequence ``index``'s difference with its parent: ``diff.json`` and ``diff.png``."""
        difference.save(self.sequence(index), DIFF)

    def write_witness(self, index: int, parent: int) -> Witness:
        """Fill ``reversals/<index>/`` with links to the two sequences' screenshots and their
        difference (files that are missing are left out; a copy where links cannot be made)."""
        witness = self.witness(index)
        for target, number in ((witness.parent_screenshot, parent), (witness.child_screenshot, index)):
            target.parent.mkdir(parents=True, exist_ok=True)
            _link(self.sequence(number) / SCREENSHOT, target)
        for name in (f"{DIFF}.json", f"{DIFF}.png"):
            _link(self.sequence(index) / name, witness.directory / name)
        return witness


def _link(source: Path, target: Path) -> None:
    if not source.exists() or target.exists():
        return
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)
