"""Ids a page renamed alike everywhere between two DOM serialisations (``capture_dom.js``'s).

A page that draws its ids (``Math.random``, ``Date.now``) may give one element another id in
another run, and every reference to it the new id as well. Such a *consistent renaming* is no
difference: the document has the same structure, only the names differ. :func:`find_renaming`
finds it and :func:`rename` applies it to the earlier document, so that what still differs is
what a line diff of the two finds.

The places that hold an id are an element's ``id``; the id references ``for``, ``headers``,
``list``, ``form``, ``popovertarget``, ``commandfor``, ``itemref`` and the ``aria-*`` id
references (``aria-labelledby`` and the others, lists of ids separated by white space); a
fragment link ``href="#id"`` (and ``xlink:href``); and ``url(#id)`` in any attribute (a style's,
an SVG ``fill``'s).

The rule: the lines of both documents are aligned with every such place blanked out, and in the
aligned lines each place pairs an earlier name with a later one. An earlier name ``a`` is
renamed ``b`` when ``a`` and ``b`` are ids of two aligned elements, every aligned place that
says ``a`` says ``b`` in the later document, and every one that says ``b`` said ``a``. A
reference that points at another element in the later document (one place pairs ``a`` with
``c``, another ``a`` with ``b``) leaves ``a`` unrenamed, and the line diff reports it.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence

_ATTRIBUTE = re.compile(r' ([^\s=]+)="([^"]*)"')  # capture_dom.js's own attribute format
_TOKEN = re.compile(r"\S+")
_URL_FRAGMENT = re.compile(r"url\(\s*(?:&quot;|')?#([^\s'&)]+)")
_ID_LISTS = frozenset({
    "for", "headers", "list", "form", "popovertarget", "commandfor", "itemref",
    "aria-activedescendant", "aria-controls", "aria-describedby", "aria-details",
    "aria-errormessage", "aria-flowto", "aria-labelledby", "aria-owns",
})
_FRAGMENT_LINKS = frozenset({"href", "xlink:href"})

Span = tuple[int, int, bool]
"""Where a line names an id: start and end in the line, and whether it is the element's own id."""


def _value_spans(name: str, value: str) -> list[tuple[int, int]]:
    """The places in an attribute's ``value`` that name an id."""
    if name == "id" and value:
        return [(0, len(value))]
    if name in _ID_LISTS:
        return [match.span() for match in _TOKEN.finditer(value)]
    if name in _FRAGMENT_LINKS and len(value) > 1 and value.startswith("#"):
        return [(1, len(value))]
    return [match.span(1) for match in _URL_FRAGMENT.finditer(value)]


def id_places(line: str) -> list[Span]:
    """Every place an opening-tag ``line`` names an id, in order (none in other lines)."""
    body = line.lstrip(" ")
    if not body.startswith("<") or body.startswith("</"):
        return []
    places: list[Span] = []
    for attribute in _ATTRIBUTE.finditer(line):
        name, start = attribute.group(1), attribute.start(2)
        places.extend((start + a, start + b, name == "id") for a, b in _value_spans(name, attribute.group(2)))
    return places


def _replace(line: str, places: Sequence[Span], name: Callable[[str], str]) -> str:
    out: list[str] = []
    at = 0
    for start, end, _ in places:
        out += [line[at:start], name(line[start:end])]
        at = end
    return "".join(out) + line[at:]


def _shape(line: str) -> str:
    """``line`` with every id it names blanked out."""
    return _replace(line, id_places(line), lambda _: "")


def _aligned(before: Sequence[str], after: Sequence[str]) -> list[tuple[str, str]]:
    """Pairs of lines of ``before`` and ``after`` that are alike but for the ids they name.

    The lines are aligned with their ids blanked out, so that a document whose ids all moved
    aligns as one block; difflib's junk heuristic stays on, as in the DOM diff, which keeps
    large documents fast (frequent lines are not anchors, but still extend a match)."""
    shapes = difflib.SequenceMatcher(None, [_shape(x) for x in before], [_shape(x) for x in after])
    return [pair for block in shapes.get_matching_blocks()
            for pair in zip(before[block.a:block.a + block.size], after[block.b:block.b + block.size])]


def find_renaming(before: Sequence[str], after: Sequence[str]) -> dict[str, str]:
    """The consistent renaming of ids from the lines ``before`` to the lines ``after`` (earlier
    name → later name, only names that changed); empty when there is none."""
    if before == after:
        return {}
    pairs: defaultdict[str, set[str]] = defaultdict(set)  # earlier name -> later names it aligned with
    sources: defaultdict[str, set[str]] = defaultdict(set)  # later name -> earlier names
    of_elements: set[tuple[str, str]] = set()  # pairs two aligned elements' own ids make
    for old_line, new_line in _aligned(before, after):
        for (s1, e1, own), (s2, e2, _) in zip(id_places(old_line), id_places(new_line)):
            old, new = old_line[s1:e1], new_line[s2:e2]
            pairs[old].add(new)
            sources[new].add(old)
            if own:
                of_elements.add((old, new))
    renaming = {}
    for old, news in pairs.items():
        new = next(iter(news))
        if len(news) == 1 and new != old and sources[new] == {old} and (old, new) in of_elements:
            renaming[old] = new
    return renaming


def rename(lines: Sequence[str], renaming: Mapping[str, str]) -> list[str]:
    """``lines`` with every id ``renaming`` names renamed, wherever a line names it."""
    if not renaming:
        return list(lines)
    return [_replace(line, places, lambda name: renaming.get(name, name)) if (places := id_places(line)) else line
            for line in lines]
