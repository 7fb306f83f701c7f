"""The bounds of one controlled execution (:class:`Limits`), which a session keeps in
``session.json``'s ``limits`` (:data:`LIMITS_KEYS`): every replay of it runs under the same ones."""

from __future__ import annotations

from dataclasses import dataclass, field

from webr4.browser.contexts import SERVICE_WORKER_POLICIES, ServiceWorkers
from webr4.instrument.chunks import ChunkModel
from webr4.keydocs import KeyTable, doc

RUN_TIME_PER_STEP_S = 0.25
"""Wall time a run may take per user event on top of :attr:`Limits.run_timeout_s`: a step costs
about 30 ms on a quiet machine (Playwright waits two animation frames for a stable target) and
several times that on a loaded one."""


@dataclass(frozen=True)
class Limits:
    """Bounds that end a run early (the trace then names the one that did, ``truncated``), the
    parse-chunk model the document is split by, and whether the page's service workers run."""

    horizon_ms: float = field(default=60_000.0, metadata=doc(
        "the virtual time, in milliseconds, beyond which no event runs (`--horizon`)"))
    max_events: int = field(default=5_000, metadata=doc("the events after which a run stops (`--max-events`)"))
    event_timeout_s: float = field(default=10.0, metadata=doc(
        "the wall time one event may take, in seconds: an endless loop is stopped then (`--event-timeout`)"))
    run_timeout_s: float = field(default=120.0, metadata=doc(
        f"the wall time a run may take, in seconds, plus {RUN_TIME_PER_STEP_S:g} s for each user event"))
    settle_ms: int = field(default=5_000, metadata=doc(
        "the wall time to wait for the browser's own completions after an event, in milliseconds"))
    parse_chunks: str = field(default="yield", metadata=doc("the parse-chunk model (`--parse-chunks`)"))
    chunk_kb: int = field(default=16, metadata=doc("its data-arrival interval, in KB (`--chunk-kb`)"))
    step_wait_ms: float = field(default=30_000.0, metadata=doc(
        "the virtual time, in milliseconds, a user step waits for an actionable target (`--step-wait`)"))
    service_workers: ServiceWorkers = field(default="block", metadata=doc(
        "whether the page's service workers are blocked or run, outside control (`--allow-service-workers`)"))

    def __post_init__(self) -> None:
        ChunkModel(self.parse_chunks, self.chunk_kb)  # raises ChunkModelError for a model that does not exist
        if self.service_workers not in SERVICE_WORKER_POLICIES:
            raise ValueError(f"service_workers must be one of {', '.join(SERVICE_WORKER_POLICIES)}")

    def wall_time_s(self, user_events: int) -> float:
        """The wall time a run of ``user_events`` user events may take before it is cut
        (``run-timeout``): Playwright checks each step's target, so a long session takes longer."""
        return self.run_timeout_s + RUN_TIME_PER_STEP_S * user_events

    @property
    def chunking(self) -> ChunkModel:
        return ChunkModel(self.parse_chunks, self.chunk_kb)

    def to_json(self) -> dict[str, object]:
        """The limits as ``session.json`` keeps them."""
        return LIMITS_KEYS.to_json(self)


LIMITS_KEYS = KeyTable.of(Limits)
"""The keys of ``session.json``'s ``limits``."""
