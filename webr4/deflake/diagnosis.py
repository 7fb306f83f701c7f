"""Which explored orders fail the test, and why: the racing pair, the slow response behind it, whose fault.

An explored sequence differs from its parent by one reversed pair of events. When the test
passes against the parent and fails against the sequence, that pair made it fail: one of the two
is usually the test's own step (a read that came before the response it wanted, a click before
its handler existed) and the other the page's event it raced with.

Fault, in the user's terms: the **test**'s when only the test's observation moved (the app gets
to the asserted state a little later, and the end state is the same), the **app**'s too when the
end state differs: what the user did was lost or undone (a click before its handler was attached
is a lost click, whatever the late-handler filter calls it), as a harmful verdict says.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from webr4.browser.actions import LOAD_STATE, PAGE_ASSERTION, parse_actions
from webr4.deflake.adversary import DELAY_MS
from webr4.deflake.awaited import Awaited, awaited_state
from webr4.deflake.oracle import Outcome
from webr4.deflake.testlog import TestCall
from webr4.rundir.summary import ReversalReport
from webr4.rundir.runfiles import RunFiles
from webr4.trace import Category, Event, Trace

_LOADING = frozenset({Category.PARSE, Category.LIFECYCLE})


@dataclass(frozen=True)
class FailingOrder:
    """An explored order the test fails in: its ``reversal`` (as ``summary.json`` has it), how
    the test failed, the test's step in the racing pair (None when both events are the page's),
    the page's event, the URL whose response a slow network would delay to force the order
    (None when no response starts that event), and whose ``fault`` it is (``test`` or ``app``)."""

    reversal: ReversalReport
    outcome: Outcome
    test_call: TestCall | None
    page_event: Event | None
    slow_url: str | None
    fault: str
    delay_ms: float = DELAY_MS
    """How late the slow response must come to force the order in plain Chromium."""
    trigger: TestCall | None = None
    """The test's call that started the page's event (its action, or the ``goto`` that loaded
    the page), when the event comes from one."""
    first_moved: TestCall | None = None
    """The test's first action that the order runs before the page's event while the parent ran
    it after (the racing step, or one the racing step follows): where a wait must go."""
    awaited: Awaited | None = None
    """What the page shows once its event has run in the parent order, which the test's racing
    step can wait for (None when the step is not the test's, or the event shows nothing a
    web-first assertion can say)."""

    @property
    def loads_page(self) -> bool:
        """Whether the page's event is part of loading the page (a parse chunk, a script it
        waits for, DOMContentLoaded, load)."""
        event = self.page_event
        return event is not None and (event.category in _LOADING or event.type == "script")

    @property
    def load_state(self) -> str:
        """The load state the page's event comes by, as ``wait_for_load_state`` names it:
        ``domcontentloaded`` for what the parser runs before it (a chunk, a script that is not
        ``async``, DOMContentLoaded itself), ``load`` for the rest."""
        event = self.page_event
        if event is None:
            return "load"
        script = event.type == "script" and event.params.get("kind") != "async"
        parsed = event.category is Category.PARSE or event.type == "DOMContentLoaded" or script
        return "domcontentloaded" if parsed else "load"

    @property
    def no_fix_reason(self) -> str:
        """Why the test's side alone cannot wait this order away."""
        if self.test_call is None:
            return (f"the page's own events race ({self.reversal.first} against {self.reversal.second}): the app "
                    "must order them")
        event = self.page_event.label if self.page_event is not None else "the page's event"
        return f"nothing the test can wait for before its {self.test_call.call} marks {event}"

    @property
    def event_words(self) -> str:
        """The page's event in a fix's summary: ``the response to /api/ber.json``, or its label."""
        if self.slow_url is not None and self.page_event is not None and self.page_event.category is Category.NETWORK:
            return f"the response to {urlsplit(self.slow_url).path}"
        return self.page_event.label if self.page_event is not None else "the page's event"

    @property
    def racing_words(self) -> str:
        """The racing pair in words: the test's step against the page's event, or two page events."""
        if self.test_call is not None:
            return f"{_step_words(self.test_call)} raced {self.page_event.label if self.page_event else 'the page'}"
        return f"{self.reversal.second} came before {self.reversal.first}"

    def racing(self) -> dict[str, Any]:
        """The racing pair as ``summary.json``'s ``racing`` says it."""
        return {"step": _step_words(self.test_call), "event": self.page_event.label if self.page_event else None,
                "words": self.racing_words,
                "url": self.slow_url,
                "pair": [self.reversal.first, self.reversal.second]}


def _step_words(call: TestCall | None) -> str | None:
    if call is None:
        return None
    if call.call.startswith(PAGE_ASSERTION):  # a look at the page itself: page.url
        return f"{call.call} (line {call.line})"
    return f"{call.call} on {call.selector.removesuffix(' >> nth=0')} (line {call.line})"


def _slow_url(event: Event | None, trace: Trace) -> str | None:
    """The URL whose response, held back, delays ``event``: its own request's, or for a parse chunk
    the script it waits for."""
    if event is None:
        return None
    for key in ("url", "src"):
        url = event.params.get(key)
        if isinstance(url, str) and url.startswith(("http://", "https://")):
            return url
    waited = _waited_script(event, trace)
    if waited is not None:
        return waited
    creator = trace.events.get(event.creator) if event.creator else None
    if creator is not None and creator.category in (Category.NETWORK, Category.PARSE):
        return _slow_url(creator, trace)
    if event.type == "DOMContentLoaded":
        return _last_blocking_script(event, trace)
    return None


def _last_blocking_script(event: Event, trace: Trace) -> str | None:
    """The URL of the last script the parser waited for before ``event`` (DOMContentLoaded, which
    comes only once that script has run: held back, it holds the event back)."""
    if event.id not in trace.sequence:
        return None
    for earlier in reversed(trace.sequence[: trace.sequence.index(event.id)]):
        waited = _waited_script(trace.events[earlier], trace) if earlier in trace.events else None
        if waited is not None:
            return waited
    return None


def _waited_script(event: Event, trace: Trace) -> str | None:
    """The URL of the script a parse chunk waits for (its ``waits_for``: ``script /path`` or a
    URL), made absolute on the origin of the trace's other URLs; None for any other event."""
    waits = event.params.get("waits_for")
    if not isinstance(waits, str):
        return None
    script = waits.removeprefix("script ")
    if script.startswith(("http://", "https://")):
        return script
    if not waits.startswith("script "):
        return None
    origin = next((value for other in trace.events.values() for key in ("url", "src")
                   if isinstance(value := other.params.get(key), str) and value.startswith(("http://", "https://"))),
                  None)
    return urljoin(origin, script) if origin is not None else None


def _fault(reversal: ReversalReport, test_call: TestCall | None) -> str:
    if reversal.verdict == "harmful" or "late-handler-attach" in reversal.reasons:
        return "app"
    moved_action = test_call is None or test_call.kind == "action"
    return "app" if moved_action and reversal.differences else "test"


def seed_outcome(run_dir: Path, judge: Callable[[Trace], Outcome]) -> Outcome:
    """How the test ends against the recorded order itself, which it passed when recorded: a
    failure there means the replay does not follow the test."""
    with RunFiles(run_dir) as files:
        trace = files.trace(0)
    if trace is None:
        return Outcome(False, 0, "the run kept no recorded order")
    return judge(trace)


def diagnose(run_dir: Path, calls: list[TestCall], steps: list[dict[str, Any]],
             judge: Callable[[Trace], Outcome]) -> list[FailingOrder]:
    """The explored orders of the run in ``run_dir`` that ``judge`` fails while their parent
    passes, most visible first (the test's own fault before the app's, by reversal)."""
    from webr4.rundir.run import RunDir

    summary = RunDir(run_dir).read_summary()
    step_of_event = {action.event_id: action.step for action in parse_actions(steps)}
    call_of_step = {call.step: call for call in calls if call.step is not None}
    failing: list[FailingOrder] = []
    with RunFiles(run_dir) as files:
        judged: dict[int, Outcome] = {}

        def judged_at(index: int) -> Outcome | None:
            if index not in judged:
                trace = files.trace(index)
                if trace is None:
                    return None
                judged[index] = judge(trace)
            return judged[index]

        for reversal in summary.reversals:
            trace, verdict, parent = files.trace(reversal.index), judged_at(reversal.index), judged_at(reversal.parent)
            if trace is None or verdict is None or verdict.passed or verdict.diverged or parent is None \
                    or not parent.passed:
                continue
            failing.append(_order(reversal, verdict, trace, files.trace(reversal.parent), step_of_event,
                                  call_of_step))
    return failing


def _delay(parent: Trace | None, held: str, partner: str) -> float:
    """How late the response of ``held`` must come for ``partner`` to run first: for two page
    events, halfway between the partner and the test's next step as the parent timed them, so
    that it still comes before the test looks again; else :data:`DELAY_MS`."""
    if parent is None:
        return DELAY_MS
    times = {step.event: step.time for step in parent.steps}
    if held not in times or partner not in times:
        return DELAY_MS
    after = times[partner]
    users = {event_id for event_id, event in parent.events.items() if event.category is Category.USER}
    looks = [step.time for step in parent.steps if step.time > after and step.event in users]
    if not looks:
        return DELAY_MS
    return min(DELAY_MS, max(1.0, (after + looks[0]) / 2 - times[held]))


def _order(reversal: ReversalReport, verdict: Outcome, trace: Trace, parent: Trace | None,
           step_of_event: dict[str, int], call_of_step: dict[int, TestCall]) -> FailingOrder:
    # the page's event to hold back is the one that ran first in the parent (the child runs the
    # other one first): the test's step's partner, or of two page events the first
    test_call = page_event = step_event = None
    for event_id in (reversal.first_id, reversal.second_id):
        event = trace.events.get(event_id)
        if event_id in step_of_event and test_call is None:
            test_call, step_event = call_of_step.get(step_of_event[event_id]), event_id
        elif event is not None and page_event is None and event.category is not Category.USER:
            page_event = event
    delay = DELAY_MS if test_call is not None or page_event is None else _delay(
        parent, page_event.id, reversal.second_id)
    awaited = None
    if parent is not None and page_event is not None and step_event is not None:
        awaited = awaited_state(parent, page_event.id, step_event)
    return FailingOrder(reversal, verdict, test_call, page_event, _slow_url(page_event, trace),
                        _fault(reversal, test_call), delay, _trigger(page_event, trace, step_of_event, call_of_step),
                        _first_moved(page_event, trace, parent, step_of_event, call_of_step), awaited)


def _first_moved(event: Event | None, trace: Trace, parent: Trace | None, step_of_event: dict[str, int],
                 call_of_step: dict[int, TestCall]) -> TestCall | None:
    """The first of the test's actions that ``trace`` runs before ``event`` and ``parent`` after it."""
    if event is None or parent is None or event.id not in parent.sequence or event.id not in trace.sequence:
        return None
    before_in_parent = set(parent.sequence[: parent.sequence.index(event.id)])
    for event_id in trace.sequence[: trace.sequence.index(event.id)]:
        call = call_of_step.get(step_of_event[event_id]) if event_id in step_of_event else None
        if call is not None and call.kind == "action" and event_id not in before_in_parent:
            return call
    return None


def _trigger(event: Event | None, trace: Trace, step_of_event: dict[str, int],
             call_of_step: dict[int, TestCall]) -> TestCall | None:
    """The test's call that started ``event``: the action among its creators, or the ``goto``
    (its load-state step) when the page's loading created it."""
    seen: set[str] = set()
    while event is not None and event.id not in seen:
        seen.add(event.id)
        if event.id in step_of_event:
            return call_of_step.get(step_of_event[event.id])
        if event.category in _LOADING:
            loads = [call for call in call_of_step.values() if call.call == LOAD_STATE]
            return min(loads, key=lambda call: call.step or 0) if loads else None
        event = trace.events.get(event.creator) if event.creator else None
    return None

