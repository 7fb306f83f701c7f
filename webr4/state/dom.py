"""Reading the normalised DOM serialisation of ``instrument_js/capture_dom.js``.

The serialisation has one node per line, indented by two spaces per level: an opening tag
``<tag a="1" b="2">`` (sorted attributes, form state as ``(value)``, ``(checked)``,
``(selected)``), a closing tag ``</tag>`` (absent for void elements), escaped text (never starting
with ``<``), or ``#shadow-root``. This module gives every line a readable element path and a
stable *key* — the same node has the same key in two executions even when its text or attributes
differ — and matches the small selector subset users may write in masks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_ATTRIBUTE = re.compile(r' ([^\s=]+)="([^"]*)"')
_SELECTOR = re.compile(r"^(?P<tag>[a-zA-Z][\w-]*)?(?:#(?P<id>[\w-]+)|\.(?P<cls>[\w-]+))?$")
FORM_STATE = ("(value)", "(checked)", "(selected)")


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
        del stack[depth:]
        del counts[depth + 1:]
        while len(counts) <= depth:
            counts.append({})
        siblings = counts[depth]
        if body.startswith("</"):
            tag = body[2:-1]
            path = " > ".join(stack + [_last_segment(lines, depth)])
            lines.append(DomLine(index, raw, depth, "close", path, path + "/close", tag))
        elif body.startswith("<"):
            tag = re.match(r"<([^\s>]+)", body).group(1)
            attributes = dict(_ATTRIBUTE.findall(body))
            siblings[tag] = siblings.get(tag, 0) + 1
            segment = _segment(tag, attributes, siblings[tag])
            path = " > ".join(stack + [segment])
            stack.append(segment)
            counts.append({})
            lines.append(DomLine(index, raw, depth, "open", path, path, tag, attributes))
        else:
            kind = "shadow" if body == "#shadow-root" else "text"
            siblings[kind] = siblings.get(kind, 0) + 1
            path = " > ".join(stack)
            lines.append(DomLine(index, raw, depth, kind, path, f"{path}/{kind}{siblings[kind]}"))
    return lines


def _last_segment(lines: list[DomLine], depth: int) -> str:
    """The segment of the element a closing tag at ``depth`` closes: the latest open tag there."""
    for line in reversed(lines):
        if line.kind == "open" and line.depth == depth:
            return line.path.rsplit(" > ", 1)[-1]
    return "?"


def matches(selector: str, line: DomLine) -> bool:
    """Does the opening-tag ``line`` match ``selector`` (``#id``, ``.class``, ``tag``,
    ``tag#id`` or ``tag.class``)? Raises ``ValueError`` for any other selector."""
    found = _SELECTOR.match(selector.strip())
    if not found or not any(found.groupdict().values()):
        raise ValueError(f"unsupported selector {selector!r}: use #id, .class, tag, tag#id or tag.class")
    if line.kind != "open":
        return False
    tag, id_, cls = found.group("tag"), found.group("id"), found.group("cls")
    if tag and line.tag != tag.lower():
        return False
    if id_ and line.attributes.get("id") != id_:
        return False
    if cls and cls not in line.attributes.get("class", "").split():
        return False
    return True
