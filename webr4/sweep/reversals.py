"""A reordering sweep of one session: the seed, then one R4 conflict reversal at a time.

Each explored sequence is executed in a fresh browser context from the recorded network and
compared with its parent — the sequence it differs from by exactly one reversed conflict — on
final DOM and uncaught exceptions. Results, screenshots and traces are written to a run
directory as they come.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Sequence

from webr4.browser.actions import UserAction
from webr4.browser.controller import Limits
from webr4.browser.driver import Driver, Execution
from webr4.browser.responses import ResponseStore
from webr4.engine import Explorer
from webr4.trace import Trace


class SeedNotReproducible(Exception):
    """Replaying the recording twice gave two different executions."""


@dataclass(frozen=True)
class ReversalOutcome:
    """One explored sequence compared with its parent."""

    index: int
    parent: int
    first: str  # label of the event that ran first in the parent
    second: str  # label of the event the child runs first
    location: str
    dom_differs: bool
    new_exceptions: list[str]
    lost_exceptions: list[str]
    skipped: int

    @property
    def differs(self) -> bool:
        return self.dom_differs or bool(self.new_exceptions or self.lost_exceptions)


def _exceptions(trace: Trace) -> set[str]:
    return {e.message for e in trace.errors if e.kind in ("exception", "unhandledrejection")}


def _label(traces: Sequence[Trace], event_id: str) -> str:
    for trace in traces:
        if event_id in trace.events:
            return trace.events[event_id].label
    return event_id


async def sweep(driver: Driver, url: str, actions: Sequence[UserAction], out: Path, *, bound: int = 1,
                max_sequences: int = 50, limits: Limits = Limits()) -> list[ReversalOutcome]:
    """Record ``url`` with ``actions``, explore reversals up to ``bound``, write to ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    store = ResponseStore()
    seed = await driver.execute(url, actions=actions, store=store, record=True, limits=limits, screenshot=True)
    store.save_har(out / "network.har")
    again = await driver.execute(url, seed.trace.sequence, actions=actions, store=store, record=False, limits=limits)
    if again.trace.sequence != seed.trace.sequence or again.dom != seed.dom:
        raise SeedNotReproducible("repeating the recording gave a different execution; the page is not deterministic "
                                  "under webr4's control")
    executions: dict[int, Execution] = {0: seed}
    _save(out, 0, seed)
    explorer = Explorer(seed.trace, bound=bound)  # explored[0] is the seed
    outcomes: list[ReversalOutcome] = []
    while len(explorer.explored) < max_sequences:
        planned = explorer.next_plan()
        if planned is None:
            break
        child = await driver.execute(url, planned.plan, actions=actions, store=store, record=False, limits=limits,
                                     screenshot=True)
        explorer.record(planned, child.trace)
        executions[planned.index] = child
        _save(out, planned.index, child)
        parent = executions[planned.parent]
        reversal = planned.reversal
        outcomes.append(ReversalOutcome(
            index=planned.index,
            parent=planned.parent,
            first=_label([parent.trace, child.trace], reversal.first),
            second=_label([parent.trace, child.trace], reversal.second),
            location=reversal.location,
            dom_differs=parent.dom != child.dom,
            new_exceptions=sorted(_exceptions(child.trace) - _exceptions(parent.trace)),
            lost_exceptions=sorted(_exceptions(parent.trace) - _exceptions(child.trace)),
            skipped=len(child.trace.skipped),
        ))
    (out / "outcomes.json").write_text(json.dumps([asdict(o) for o in outcomes], indent=1))
    return outcomes


def _save(out: Path, index: int, execution: Execution) -> None:
    directory = out / "sequences" / str(index)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "trace.json").write_text(execution.trace.dumps())
    (directory / "dom.txt").write_text(execution.dom)
    if execution.screenshot:
        (directory / "screenshot.png").write_bytes(execution.screenshot)
