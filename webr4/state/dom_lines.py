"""Reading the normalised DOM serialisation of ``instrument_js/capture_dom.js``.

The serialisation has one node per line, indented by two spaces per level: an opening tag
``<tag a="1" b="2">`` (sorted attributes, form state as ``(value)``, ``(checked)``,
``(selected)``), a closing tag ``</tag>`` (absent for void elements), escaped text (never starting
with ``<``), or ``#shadow-root`` (an element's open shadow root, after its children, with the
root's nodes one level deeper). This module gives every line a readable element path (a shadow
root is a segment of its own: ``user-card#card > #shadow-root > ul > li``) and a stable *key* —
the same node has the same key in two executions even when its text or attributes differ — and
matches the small selector subset users may write in masks.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from webr4.errors import Webr4Error

_ATTRIBUTE = re.compile(r' ([^\s=]+)="([^"]*)"')
_SELECTOR = re.compile(r"^(?P<tag>[a-zA-Z][\w-]*)?(?:#(?P<id>[\w-]+)|\.(?P<cls>[\w-]+))?$")
FORM_STATE = ("(value)", "(checked)", "(selected)")
SHADOW_ROOT = "#shadow-root"


@dataclass(frozen=True)
class DomLine:
    """One line of a DOM serialisation.

    ``kind`` is ``"open"``, ``"close"``, ``"text"`` or ``"shadow"``; ``path`` is the element path
    of the element the line belongs to (its own element for tags, the parent for text), such as
    ``html > body > ul#list > li:nth-of-type(2)``; ``key`` identifies the node across executions.
    """

    index: int
    text: str
    depth: int
    kind: str
    path: str
    key: str
    tag: str = ""
    attributes: dict[str, str] = field(default_factory=dict)


def _segment(tag: str, attributes: dict[str, str], nth: int) -> str:
    if attributes.get("id"):
        return f"{tag}#{attributes['id']}"
    return tag if nth == 1 else f"{tag}:nth-of-type({nth})"


def parse_dom(text: str) -> list[DomLine]:
    """Split a serialisation into :class:`DomLine` records, in document order."""
    lines: list[DomLine] = []
    stack: list[str] = []  # element path segments of the open ancestors
    counts: list[dict[str, int]] = [{}]  # per depth: children seen, by tag and "#text"
    for index, raw in enumerate(text.splitlines()):
        body = raw.lstrip(" ")
        depth = (len(raw) - len(body)) // 2
        closed = stack[depth] if len(stack) > depth else "?"  # the element a closing tag closes
        del stack[depth:]
        del counts[depth + 1:]
        while len(counts) <= depth:
            counts.append({})
        siblings = counts[depth]
        if body.startswith("</"):
            tag = body[2:-1]
            path = " > ".join(stack + [closed])
            lines.append(DomLine(index, raw, depth, "close", path, path + "/close", tag))
        elif body.startswith("<"):
            named = re.match(r"<([^\s>]+)", body)
            tag = named.group(1) if named else ""
            attributes = dict(_ATTRIBUTE.findall(body))
            siblings[tag] = siblings.get(tag, 0) + 1
            segment = _segment(tag, attributes, siblings[tag])
            path = " > ".join(stack + [segment])
            stack.append(segment)
            counts.append({})
            lines.append(DomLine(index, raw, depth, "open", path, path, tag, attributes))
        elif body == SHADOW_ROOT:  # the nodes of the root follow, one level deeper
            path = " > ".join(stack + [SHADOW_ROOT])
            stack.append(SHADOW_ROOT)
            counts.append({})
            lines.append(DomLine(index, raw, depth, "shadow", path, path))
        else:
            siblings["text"] = siblings.get("text", 0) + 1
            path = " > ".join(stack)
            lines.append(DomLine(index, raw, depth, "text", path, f"{path}/text{siblings['text']}"))
    return lines


class MaskSelectorError(Webr4Error, ValueError):
    """A mask selector outside the subset :class:`Selector` reads."""


@dataclass(frozen=True)
class Selector:
    """A selector of the subset masks accept: ``#id``, ``.class``, ``tag``, ``tag#id``, ``tag.class``."""

    tag: str | None
    id: str | None
    cls: str | None

    @classmethod
    def parse(cls, text: str) -> Selector:
        """Raises :class:`MaskSelectorError` for anything outside the subset."""
        found = _SELECTOR.match(text.strip())
        if not found or not any(found.groupdict().values()):
            raise MaskSelectorError(f"unsupported selector {text!r}: use #id, .class, tag, tag#id or tag.class")
        tag = found.group("tag")
        return cls(tag.lower() if tag else None, found.group("id"), found.group("cls"))

    def matches(self, line: DomLine) -> bool:
        """Does the opening-tag ``line`` match? (Other lines never do.)"""
        if line.kind != "open":
            return False
        if self.tag and line.tag != self.tag:
            return False
        if self.id and line.attributes.get("id") != self.id:
            return False
        return not self.cls or self.cls in line.attributes.get("class", "").split()


def changed_blocks(a: list[DomLine], b: list[DomLine]) -> list[tuple[int, int, int, int]]:
    """The ``(a_start, a_end, b_start, b_end)`` line ranges where ``a`` and ``b`` differ.

    difflib's automatic junk heuristic stays on: it ignores very frequent lines (closing tags)
    as anchors, which keeps a 9,000-line document at tens of milliseconds instead of seconds.
    """
    matcher = difflib.SequenceMatcher(None, [x.text for x in a], [x.text for x in b])
    return [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]
