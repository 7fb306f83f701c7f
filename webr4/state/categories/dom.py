"""``dom``: the normalised serialisation of ``instrument_js/capture_dom.js``.

Compared as a line diff (:class:`DomDiff`: hunks with the text before and after, and the element
paths that changed). Masked by line keys (``dom_keys``: a clock's next value is masked too) and
by user selectors (``selectors``: the element and everything inside it). Ids the page renamed
alike everywhere they are referenced are no difference (:mod:`webr4.state.renaming`): the diff
compares the parent's DOM with those ids renamed, and lists the renaming as ignored. Items:
``#log: "a loaded" → "b loaded"``, ``#c1: checked "false" → "true"``,
``form#signup > input#email: added <input id="email">``,
``ignored, renamed alike wherever referenced: #fkzZVYw → #nX5M2VU``.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Collection, Iterable, Mapping

from webr4.state.categories.base import StateCategory, MaskField
from webr4.state.categories.words import clip, quoted
from webr4.state.dom_lines import SHADOW_ROOT, DomLine, Selector, changed_blocks, parse_dom
from webr4.state.renaming import find_renaming, rename

RENAMING_NOTE = "ignored, renamed alike wherever referenced: "
"""How the DOM item that lists ids renamed alike begins: a note, never a difference of its own."""

if TYPE_CHECKING:
    from webr4.execution import Execution

PLACEHOLDER = "[masked]"
_ATTRIBUTE = re.compile(r' ([^\s=]+)="([^"]*)"')
_OPEN_TAG = re.compile(r"^<([^\s>/]+)")


@dataclass(frozen=True)
class Hunk:
    """One changed region of the DOM: the lines before (parent) and after (child), 1-based line
    numbers of the first line on each side, and the element paths those lines belong to."""

    before_line: int
    after_line: int
    before: list[str]
    after: list[str]
    paths: list[str]


@dataclass(frozen=True)
class DomDiff:
    """The hunks where two DOMs differ, and the ids renamed alike everywhere (earlier name →
    later name) that were ignored: a diff with renamed ids and no hunk is no difference."""

    hunks: list[Hunk] = field(default_factory=list)
    renamed: dict[str, str] = field(default_factory=dict)

    @property
    def paths(self) -> list[str]:
        """Every changed element path, in order of first appearance."""
        return list(dict.fromkeys(p for h in self.hunks for p in h.paths))

    def __bool__(self) -> bool:
        return bool(self.hunks)


def _renamed(before: str, after: str) -> tuple[str, dict[str, str]]:
    """``before`` with every id that ``after`` renamed consistently given its later name, and
    that renaming (earlier name → later name)."""
    lines = before.splitlines()
    renaming = find_renaming(lines, after.splitlines())
    return ("\n".join(rename(lines, renaming)), renaming) if renaming else (before, {})


def diff_dom(before: str, after: str) -> DomDiff:
    """Line diff of two DOM serialisations, with the element paths of the changed lines; ids
    renamed consistently are compared under their later names (and listed in ``renamed``)."""
    if before == after:
        return DomDiff()
    before, renaming = _renamed(before, after)
    a, b = parse_dom(before), parse_dom(after)
    hunks = []
    for i1, i2, j1, j2 in changed_blocks(a, b):
        changed = a[i1:i2] + b[j1:j2]
        hunks.append(Hunk(i1 + 1, j1 + 1, [x.text for x in a[i1:i2]], [x.text for x in b[j1:j2]],
                          list(dict.fromkeys(x.path for x in changed))))
    return DomDiff(hunks, renaming)


def short_path(path: str) -> str:
    """An element path of :mod:`webr4.state.dom_lines` from its nearest element with an id:
    ``html > body > form#signup > input`` → ``form#signup > input``; ``… > input#email`` →
    ``#email``; without an id, from ``body``. An id names an element only within its tree, so
    inside a shadow root the path is the host's short path, the root, and the path within it:
    ``user-card#card > #shadow-root > li``, ``user-card#card > #shadow-root > #name`` (the host
    named with its tag: a custom element's name says what it is). A path into a frame's document
    names the frame, then the element in it, each part shortened alike and joined by `` >> ``:
    ``html > body > iframe#child > html > body > p#out`` → ``#child >> #out``."""
    documents: list[list[str]] = [[]]
    for segment in path.split(" > "):
        if documents[-1] and _tag_of(documents[-1][-1]) in _FRAMES and _tag_of(segment) == "html":
            documents.append([])
        documents[-1].append(segment)
    return " >> ".join(_short_in_document(segments) for segments in documents)


_FRAMES = frozenset({"iframe", "frame"})


def _tag_of(segment: str) -> str:
    return re.split(r"[#:]", segment, maxsplit=1)[0]


def _short_in_document(segments: list[str]) -> str:
    """The part of a path within one document (see :func:`short_path`), shadow roots included."""
    if SHADOW_ROOT in segments:
        root = len(segments) - 1 - segments[::-1].index(SHADOW_ROOT)
        host = _short_in_document(segments[:root]).split(" > ")
        host[-1] = segments[root - 1]  # with its tag, even when it has an id
        inside = segments[root + 1:]
        return " > ".join(host + [SHADOW_ROOT] + ([_from_nearest_id(inside)] if inside else []))
    return _from_nearest_id(segments[1:] if segments[:1] == ["html"] and len(segments) > 1 else segments)


def _from_nearest_id(segments: list[str]) -> str:
    """The path of ``segments`` from the last one with an id (that id alone when it is the last)."""
    for index in range(len(segments) - 1, -1, -1):
        tag, hash_, id_ = segments[index].partition("#")
        if hash_:
            return " > ".join([f"#{id_}"] if index == len(segments) - 1 else segments[index:])
    return " > ".join(segments)


def _tag(line: str) -> tuple[str, dict[str, str]] | None:
    """The tag and attributes of a serialised opening tag (capture_dom.js's own format)."""
    opened = _OPEN_TAG.match(line)
    if opened is None:
        return None
    return opened.group(1), {k.strip("()"): html.unescape(v) for k, v in _ATTRIBUTE.findall(line)}


def _lines(lines: Iterable[str]) -> str:
    return html.unescape(" ".join(line.strip() for line in lines))


def _line_change(old: str, new: str) -> str | None:
    """One changed line pair in words: the attributes that changed between two opening tags of
    the same element, or a text line's before → after; None when the lines are not alike (an
    element replaced by another, a tag by text), and "" when they are equal."""
    if old == new:
        return ""
    if not old.startswith("<") and not new.startswith("<"):
        return f"{quoted(html.unescape(old))} → {quoted(html.unescape(new))}"
    before, after = _tag(old), _tag(new)
    if before is None or after is None or before[0] != after[0]:
        return None
    changed = sorted(k for k in before[1].keys() | after[1].keys() if before[1].get(k) != after[1].get(k))
    return ", ".join(f"{name} {quoted(before[1][name]) if name in before[1] else '(none)'} → "
                     f"{quoted(after[1][name]) if name in after[1] else '(none)'}" for name in changed)


def _hunk(hunk: Hunk) -> str:
    where = short_path(hunk.paths[0]) if hunk.paths else "document"
    before, after = [line.strip() for line in hunk.before], [line.strip() for line in hunk.after]
    if before and len(before) == len(after):
        changes = [_line_change(old, new) for old, new in zip(before, after)]
        if None not in changes:
            return f"{where}: " + ", ".join(change for change in changes if change)
    if not before:
        return f"{where}: added {clip(_lines(after))}"
    if not after:
        return f"{where}: removed {clip(_lines(before))}"
    return f"{where}: {quoted(_lines(before))} → {quoted(_lines(after))}"


def _renaming_item(renamed: Mapping[str, str]) -> str:
    """The item that says which renamed ids were ignored."""
    names = ", ".join(f"#{old} → #{new}" for old, new in sorted(renamed.items()))
    return f"{RENAMING_NOTE}{clip(names)}"


def _placeholder(line: DomLine) -> str:
    pad = "  " * line.depth
    if line.kind == "open":
        id_ = line.attributes.get("id")
        id_attribute = f' id="{id_}"' if id_ else ""
        return f"{pad}<{line.tag}{id_attribute} {PLACEHOLDER}>"
    if line.kind == "text":
        return pad + PLACEHOLDER
    return line.text


def mask_dom(dom: str, keys: Collection[str], selectors: Iterable[str]) -> str:
    """Blank the lines with masked keys; collapse elements matching a selector to their tags."""
    parsed = [Selector.parse(s) for s in selectors]
    out: list[str] = []
    hidden_depth: int | None = None  # depth of the selected element we are inside
    for line in parse_dom(dom):
        if hidden_depth is not None:
            if line.depth > hidden_depth:
                continue
            closing = line.depth == hidden_depth and line.kind == "close"
            hidden_depth = None
            if closing:
                out.append(line.text)
                continue
        if any(selector.matches(line) for selector in parsed):
            hidden_depth = line.depth
            out.append(_placeholder(line))
        elif line.key in keys:
            out.append(_placeholder(line))
        else:
            out.append(line.text)
    return "\n".join(out)


class Dom(StateCategory[str, DomDiff]):
    name = "dom"
    title = "DOM"
    section = "dom"
    mask_fields = (MaskField("dom_keys"), MaskField("selectors", ordered=True))

    def empty(self) -> str:
        return ""

    def capture(self, execution: Execution) -> str:
        return execution.dom

    def no_difference(self) -> DomDiff:
        return DomDiff()

    def diff(self, before: str, after: str) -> DomDiff:
        return diff_dom(before, after)

    def dump_diff(self, part: DomDiff) -> dict[str, Any]:
        return {"hunks": [vars(h) for h in part.hunks], "paths": part.paths, "renamed": part.renamed}

    def items(self, part: DomDiff) -> list[str]:
        hunks = [_hunk(hunk) for hunk in part.hunks]
        return [*hunks, _renaming_item(part.renamed)] if hunks and part.renamed else hunks

    def noise(self, first: str, second: str) -> dict[str, Collection[Any]]:
        """The keys of the lines that differ, in both replays; ids renamed consistently are not
        a difference (a replay with another seed renames every drawn id)."""
        if first == second:
            return {"dom_keys": frozenset()}
        renamed, _ = _renamed(first, second)
        a, b = parse_dom(first), parse_dom(second)
        blocks = changed_blocks(parse_dom(renamed), b)
        return {"dom_keys": frozenset(x.key for i1, i2, j1, j2 in blocks for x in a[i1:i2] + b[j1:j2])}

    def mask(self, value: str, fields: Mapping[str, Collection[Any]]) -> str:
        return mask_dom(value, fields["dom_keys"], fields["selectors"])


DOM = Dom()
