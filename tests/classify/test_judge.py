"""Judging a child against its parent: a failed execution is an ``error`` named by its cause,
never a state compared with the other; events are named by their labels, never their ids."""

from __future__ import annotations

from webr4.classify.judge import judge
from webr4.engine.plans import PlannedSequence, Reversal
from webr4.state.noise import NoiseMask
from webr4.state.snapshot import StateSnapshot
from webr4.trace import Category, ErrorRecord, Event, Step, Trace

CHUNK = Event("p1", Category.PARSE, "parse", "parse chunk 1/2")
TIMER = Event("t1ts8ur3z0rc", Category.TIMER, "setTimeout", "setTimeout 0ms at app.js:3:1")
CLICK = Event("u0", Category.USER, "click", "click on #add")
PAGE = StateSnapshot(dom='<html>\n  <body>\n    <ul id="todos">\n    </ul>\n  </body>\n</html>')
UNREAD = "the end state could not be read: reading the DOM took longer than 10 s"


def trace(*events: Event, truncated: str | None = None, errors: tuple[ErrorRecord, ...] = ()) -> Trace:
    steps = [Step(e.id, frozenset({e.id}), time=float(i)) for i, e in enumerate(events)]
    return Trace(steps, {e.id: e for e in events}, truncated=truncated, errors=list(errors))


def planned(first: Event, second: Event, location: str = "dom:#todos") -> PlannedSequence:
    return PlannedSequence(1, (second.id, first.id), 0, Reversal(first.id, second.id, location), 1)


def test_a_child_whose_end_state_was_not_read_is_an_error_naming_the_cause_not_a_difference() -> None:
    parent = trace(CHUNK, CLICK)
    child = trace(CLICK, CHUNK, truncated="capture-failed",
                  errors=(ErrorRecord("harness", "GET /late.js is not in the recorded session; answered 404"),
                          ErrorRecord("harness", UNREAD, None, 2)))
    judged = judge(planned(CHUNK, CLICK), parent, parent, PAGE, child, StateSnapshot(dom=""), NoiseMask(), None)
    assert (judged.verdict.kind, judged.verdict.reasons) == ("error", ["child-failed"])
    assert judged.failure == f"the reversal's execution failed: {UNREAD}"
    assert judged.differences == {} and judged.unrealised is None


def test_a_parent_that_failed_leaves_nothing_to_compare() -> None:
    lost = trace(truncated="page-lost", errors=(ErrorRecord("harness", "the browser failed twice: Target crashed"),))
    judged = judge(planned(CHUNK, CLICK), trace(CHUNK, CLICK), lost, StateSnapshot(dom=""),
                   trace(CLICK, CHUNK), PAGE, NoiseMask(), None)
    assert (judged.verdict.kind, judged.verdict.reasons) == ("error", ["parent-failed"])
    assert judged.failure == "the parent's execution failed: the browser failed twice: Target crashed"
    assert judged.differences == {}


def test_an_event_the_child_never_saw_is_named_by_the_parents_label() -> None:
    # the timer's creator ran too late in the child: the child's trace does not know the timer
    parent = trace(CHUNK, TIMER)
    child = trace(CHUNK)
    judged = judge(planned(CHUNK, TIMER), parent, parent, PAGE, child, PAGE, NoiseMask(), None)
    assert judged.verdict.kind == "unrealised"
    assert judged.unrealised == "setTimeout 0ms at app.js:3:1 never ran"


def test_the_location_that_explains_the_lost_todo_leads_and_the_focus_comes_last() -> None:
    from webr4.trace import Access, AccessKind

    def step(event: Event, *locations: str) -> Step:
        return Step(event.id, frozenset({event.id}),
                    accesses=tuple(Access(AccessKind.WRITE, location) for location in locations))

    shared = ("dom:document.activeElement", "scope:3:handlerQueue", "global:todos")
    parent = Trace([step(CHUNK, *shared), step(CLICK, *shared)], {CHUNK.id: CHUNK, CLICK.id: CLICK},
                   names={"scope:3": "closure at maxi.js:838:2"})
    child = Trace(list(reversed(parent.steps)), parent.events)
    before = StateSnapshot(dom=PAGE.dom.replace("    </ul>", "      <li>\n        buy milk\n      </li>\n    </ul>"),
                           heap={"todos": ["buy milk"]})
    after = StateSnapshot(dom=PAGE.dom, heap={"todos": []})
    # R4 reversed the pair for the closure, the first conflict it found
    judged = judge(planned(CHUNK, CLICK, "scope:3:handlerQueue"), parent, parent, before, child, after, NoiseMask(),
                   None)
    assert judged.differences["heap"] == ["window.todos[0] removed"]
    assert [words for words, _key in judged.locations] == \
        ["global todos", "closure at maxi.js:838:2 › handlerQueue", "document.activeElement"]
    assert judged.location_key == "global:todos"
