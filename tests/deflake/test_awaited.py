"""What a test waits for instead of a sleep: the page's event's last write that says a value a
web-first assertion can check, made no earlier in the event than what the test's step touches,
on an element a CSS path reaches, and not a value the location held before."""

from __future__ import annotations

from webr4.deflake.awaited import Awaited, awaited_state, css_of
from webr4.trace import Access, AccessKind, Category, Event, Step, Trace

W, R = AccessKind.WRITE, AccessKind.READ


def _trace(*steps: tuple[str, list[Access]]) -> Trace:
    events = {name: Event(name, Category.USER if name.startswith("u") else Category.NETWORK, "t", name)
              for name, _ in steps}
    return Trace([Step(name, frozenset(), accesses=tuple(accesses)) for name, accesses in steps], events)


def test_the_write_after_what_the_step_touches_is_awaited() -> None:
    response = [Access(W, "dom:#status.textContent", value="s:Loading"),
                Access(W, "dom:~1>li.textContent", value="s:Berlin"),
                Access(W, "dom:#suggestions.children"),
                Access(W, "dom:#city.aria-expanded", value="s:true")]
    key = [Access(R, "dom:#suggestions.children")]
    trace = _trace(("fill", [Access(W, "dom:#city.value", value="s:Ber")]), ("response", response), ("u2", key))
    # the status text comes before the suggestions in the event: the page may set it a task earlier
    assert awaited_state(trace, "response", "u2") == Awaited("#city", 'to_have_attribute("aria-expanded", "true")')


def test_a_value_held_before_or_cut_short_proves_nothing() -> None:
    response = [Access(W, "dom:#count.textContent", value="s:0"),
                Access(W, "dom:#title.textContent", value="s:" + "x" * 32),
                Access(W, "dom:body>ul>li:nth-of-type(2).className", value="s:done")]
    trace = _trace(("start", [Access(W, "dom:#count.textContent", value="s:0")]), ("response", response),
                   ("u1", [Access(R, "dom:#count.textContent")]))
    assert awaited_state(trace, "response", "u1") == Awaited("body > ul > li:nth-of-type(2)", 'to_have_class("done")')


def test_an_element_enabled_is_awaited_and_one_out_of_reach_is_not() -> None:
    assert awaited_state(_trace(("response", [Access(W, "dom:#save.disabled", value="b:false")]), ("u1", [])),
                         "response", "u1") == Awaited("#save", "to_be_enabled()")
    hidden = [Access(W, "dom:#card>#shadow-root>p.textContent", value="s:ok"), Access(W, "dom:~2>p.title", value="s:a"),
              Access(W, "dom:#9lives.textContent", value="s:ok")]
    assert awaited_state(_trace(("response", hidden), ("u1", [])), "response", "u1") is None


def test_element_keys_become_css_only_from_the_document() -> None:
    assert css_of("#list>li:nth-of-type(3)") == "#list > li:nth-of-type(3)"
    assert css_of("body>main>h1") == "body > main > h1"
    assert [css_of(key) for key in ("~1>li", "document", "ul>li", "#a.b")] == [None, None, None, None]
