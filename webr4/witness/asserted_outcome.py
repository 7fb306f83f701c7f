"""What a generated regression test asserts: the page's correct outcome, where the race shows.

The candidates come from the DOM difference webr4 found between the parent's and the reversal's
end (:func:`reads_of`): an element added or removed is read as a count of its kind under its
parent, a changed text as the element's text, a changed form state as its value or checked state,
and a changed attribute as that attribute (and, for ``hidden``, ``style`` and ``class``, as
the element's visibility). Each candidate is then read in both plain runs, through Playwright as
a web-first assertion reads it (:func:`webr4.witness.plain.read_page`), and only those that tell
the two orders apart become checks (:func:`checks_of`), with the value of the parent's order: the
order the page runs in by itself, whose end the user expects. The page's URL (a navigation away)
and its uncaught exceptions are checked the same way.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit
from dataclasses import dataclass
from typing import Any, Sequence

from webr4.state.dom_lines import SHADOW_ROOT, DomLine, changed_blocks, parse_dom
from webr4.state.categories.dom import short_path
from webr4.state.categories.words import quoted

MAX_READS = 12
"""Most candidates read in the plain runs."""
MAX_CHECKS = 4
"""Most element checks a generated test makes: the first that tell the orders apart."""
MAX_TEXT = 200
"""Longest text a check asserts whole; a longer one is left to the other checks."""
_SHOWN = frozenset({"hidden", "style", "class"})
_UNSEEN = frozenset({"head", "script", "style", "link", "meta", "noscript", "template", "title", "base"})
"""Elements a user never sees: a test asserts nothing about them."""
_IDENTIFIER = re.compile(r"^-?[A-Za-z_][\w-]*$")


@dataclass(frozen=True)
class Read:
    """One thing a test can read of an element: ``kind`` (of :data:`~webr4.witness.plain.READ_KINDS`),
    the CSS ``selector`` (its first match, or all of them for a count) and, for an attribute, its
    ``name``."""

    kind: str
    selector: str
    name: str = ""

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "selector": self.selector, "name": self.name}


@dataclass(frozen=True)
class Check:
    """One assertion of the correct outcome: ``read`` shows ``expected`` at the end of the parent's
    order and ``instead`` at the end of the reversed one; a check of the whole page has no read
    and ``kind`` ``url`` (the page stays at its address) or ``errors`` (the uncaught exceptions'
    messages)."""

    kind: str
    expected: Any
    instead: Any
    read: Read | None = None

    def words(self) -> str:
        """What goes wrong in the reversed order, as the user sees it: ``#cart shows "Cart: 0
        items" instead of "Cart: 1 item"``."""
        if self.kind == "url":
            return f"the page leaves for {urlsplit(str(self.instead)).path or self.instead}"
        if self.kind == "errors":
            new = [error for error in self.instead if error not in self.expected]
            return f"{new[0]} is thrown" if new else "an error the page throws is no longer thrown"
        assert self.read is not None
        where = self.read.selector
        if self.kind == "count":
            return f"{where} counts {self.instead} instead of {self.expected}"
        if self.kind in ("checked", "visible"):
            state = {"checked": ("checked", "unchecked"), "visible": ("shown", "hidden")}[self.kind]
            return f"{where} is {state[0] if self.instead else state[1]}"
        if self.kind == "attribute":
            return f"{where}'s {self.read.name} is {_shown(self.instead)} instead of {_shown(self.expected)}"
        if self.instead is None:
            return f"{_shown(self.expected)} is missing ({where})"
        return f"{where} shows {_shown(self.instead)} instead of {_shown(self.expected)}"


def _shown(value: Any) -> str:
    """A value of a check in a sentence: clipped and quoted, or ``nothing``."""
    return "nothing" if value is None else quoted(str(value))


def reads_of(parent_dom: str, child_dom: str) -> list[Read]:
    """The candidate reads where the two DOM serialisations differ, the most telling first: counts,
    then texts, form states, visibility and attributes, at most :data:`MAX_READS`."""
    a, b = parse_dom(parent_dom), parse_dom(child_dom)
    found: list[Read] = []
    for i1, i2, j1, j2 in changed_blocks(a, b):
        before, after = _seen(a[i1:i2]), _seen(b[j1:j2])
        found += _element_reads(before, after) + _text_reads(before + after)
    order = ("count", "text", "value", "checked", "visible", "attribute")
    unique = [r for r in dict.fromkeys(found) if r.selector]
    return sorted(unique, key=lambda r: order.index(r.kind))[:MAX_READS]


def _seen(lines: list[DomLine]) -> list[DomLine]:
    """The lines of elements a user can see (none inside the head, a script, a style, …)."""
    return [line for line in lines
            if not any(re.split(r"[#:]", segment, maxsplit=1)[0] in _UNSEEN for segment in line.path.split(" > "))]


def _element_reads(before: list[DomLine], after: list[DomLine]) -> list[Read]:
    opened_before = {line.path: line for line in before if line.kind == "open"}
    opened_after = {line.path: line for line in after if line.kind == "open"}
    reads = []
    for path in opened_before.keys() ^ opened_after.keys():  # an element added or removed
        line = opened_before.get(path) or opened_after[path]
        parent = path.rsplit(" > ", 1)[0] if " > " in path else ""
        if parent:
            reads.append(Read("count", _joined(css_selector(parent), line.tag)))
    for path in opened_before.keys() & opened_after.keys():
        old, new = opened_before[path].attributes, opened_after[path].attributes
        selector = css_selector(path)
        for name in sorted(old.keys() | new.keys()):
            if old.get(name) == new.get(name):
                continue
            if name == "(value)":
                reads.append(Read("value", selector))
            elif name == "(checked)":
                reads.append(Read("checked", selector))
            elif not name.startswith("("):
                reads.append(Read("attribute", selector, name))
                if name in _SHOWN:
                    reads.append(Read("visible", selector))
    return reads


def _text_reads(lines: list[DomLine]) -> list[Read]:
    return [Read("text", css_selector(line.path)) for line in lines if line.kind == "text"]


def _joined(parent: str, tag: str) -> str:
    return f"{parent} > {tag}" if parent and tag else ""


def css_selector(path: str) -> str:
    """A CSS selector for an element path of :mod:`webr4.state.dom_lines` (its short form, an id that is
    no CSS identifier written as an attribute selector), or ``""`` inside a shadow root or a frame,
    which one CSS selector cannot reach."""
    short = short_path(path)
    if SHADOW_ROOT in short or " >> " in short:
        return ""
    segments = []
    for segment in short.split(" > "):
        tag, hash_, ident = segment.partition("#")
        if hash_ and not _IDENTIFIER.match(ident):
            segment = f'{tag}[id="{ident}"]' if '"' not in ident else ""
        if not segment:
            return ""
        segments.append(segment)
    return " > ".join(segments)


def checks_of(reads: Sequence[Read], parent_values: Sequence[Any], reversed_values: Sequence[Any],
              parent_end: dict[str, Any], reversed_end: dict[str, Any]) -> list[Check]:
    """The checks that tell the orders apart: the page's address when the reversed order left it,
    then the element reads whose values differ, at most :data:`MAX_CHECKS`, as varied as they
    come (one count, the one of the fewest levels, then the texts and states, then further
    counts; a text no longer than :data:`MAX_TEXT`), and the uncaught exceptions when they differ."""
    checks = []
    if reversed_end.get("navigation") != parent_end.get("navigation"):
        checks.append(Check("url", parent_end.get("navigation"), reversed_end.get("navigation")))
    telling = [Check(read.kind, expected, instead, read)
               for read, expected, instead in zip(reads, parent_values, reversed_values)
               if expected != instead and expected is not None
               and not (read.kind == "text" and len(str(expected)) > MAX_TEXT)]
    counts = sorted((c for c in telling if c.kind == "count"), key=lambda c: str(c.read).count(">"))
    varied = counts[:1] + [c for c in telling if c.kind != "count"] + counts[1:]
    checks += varied[:MAX_CHECKS]
    errors, reversed_errors = error_messages(parent_end), error_messages(reversed_end)
    if errors != reversed_errors:
        checks.append(Check("errors", errors, reversed_errors))
    return checks


def most_visible(checks: Sequence[Check]) -> Check | None:
    """The check whose failure a user sees first: a page that left, a text, a state, a count, an
    exception."""
    order = ("url", "text", "value", "checked", "visible", "count", "attribute", "errors")
    return min(checks, key=lambda c: order.index(c.kind), default=None)


def error_messages(end: dict[str, Any]) -> list[str]:
    """The uncaught exceptions of a plain run's end, as ``Name: message`` (what a test's
    ``pageerror`` listener sees), sorted."""
    return sorted(str(message).removeprefix("Uncaught ") for message, _site in end.get("exceptions", []))
