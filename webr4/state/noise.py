"""Masks for differences that are not caused by the reversed conflict.

A :class:`NoiseMask` built from two replays of the same sequence holds what differed between
them anyway — DOM nodes (by their stable key, so a clock's next value is masked too), heap paths
and screenshot regions (16-pixel tiles around the changed pixels). Users add their own: CSS
selectors (``#id``, ``.class``, ``tag``, ``tag#id``, ``tag.class``) whose elements are hidden
with everything inside them, and heap path prefixes (``window.stats`` or ``stats``).

:meth:`NoiseMask.apply` rewrites a snapshot with the masked parts replaced by placeholders;
compare masked snapshots (:meth:`NoiseMask.diff`) and masked parts can no longer differ.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable

from webr4.state import screenshot as pixels
from webr4.state.diff import StateDiff, diff_states, heap_changes
from webr4.state.dom import DomLine, Selector, changed_blocks, parse_dom
from webr4.state.heappaths import HeapPath, format_path, parse_path, without_paths
from webr4.state.snapshot import StateSnapshot

PLACEHOLDER = "[masked]"
_CONTAINER_CHANGES = ("iterable_item_added", "iterable_item_removed")


@dataclass(frozen=True)
class NoiseMask:
    """What to ignore when comparing two states.

    ``dom_keys`` are :attr:`~webr4.state.dom.DomLine.key` values of lines to blank;
    ``selectors`` hide matching elements and their subtrees; ``heap_paths`` are heap subtrees to
    drop; ``boxes`` are screenshot rectangles to paint black.
    """

    dom_keys: frozenset[str] = frozenset()
    selectors: tuple[str, ...] = ()
    heap_paths: frozenset[HeapPath] = frozenset()
    boxes: tuple[pixels.Box, ...] = field(default_factory=tuple)

    @classmethod
    def from_baselines(cls, first: StateSnapshot, second: StateSnapshot,
                       tolerance: pixels.Tolerance = pixels.Tolerance()) -> NoiseMask:
        """The mask of everything that differs between two replays of one sequence."""
        return cls(_dom_noise(first.dom, second.dom), (), _heap_noise(first.heap, second.heap),
                   tuple(_screenshot_noise(first.screenshot_png(), second.screenshot_png(), tolerance)))

    @classmethod
    def from_options(cls, selectors: Iterable[str] = (), heap_prefixes: Iterable[str] = ()) -> NoiseMask:
        """A user mask; raises ``ValueError`` on an unsupported selector or a malformed path."""
        selectors = tuple(selectors)
        for selector in selectors:
            Selector.parse(selector)
        return cls(selectors=selectors, heap_paths=frozenset(parse_path(p) for p in heap_prefixes))

    def __or__(self, other: NoiseMask) -> NoiseMask:
        return NoiseMask(self.dom_keys | other.dom_keys, tuple(dict.fromkeys(self.selectors + other.selectors)),
                         self.heap_paths | other.heap_paths, tuple(dict.fromkeys(self.boxes + other.boxes)))

    def apply(self, snapshot: StateSnapshot) -> StateSnapshot:
        """``snapshot`` with the masked DOM lines, heap subtrees and screenshot boxes blanked."""
        png = snapshot.screenshot_png()
        return replace(
            snapshot,
            dom=_mask_dom(snapshot.dom, self.dom_keys, self.selectors),
            heap=without_paths(snapshot.heap, set(self.heap_paths)) if snapshot.heap is not None else None,
            screenshot=pixels.paint_boxes(png, list(self.boxes)) if png is not None and self.boxes else png,
        )

    def diff(self, parent: StateSnapshot, child: StateSnapshot,
             tolerance: pixels.Tolerance = pixels.Tolerance()) -> StateDiff:
        """The difference between ``parent`` and ``child`` outside the mask."""
        return diff_states(self.apply(parent), self.apply(child), tolerance)

    def to_json(self) -> dict[str, Any]:
        return {
            "dom_keys": sorted(self.dom_keys),
            "selectors": list(self.selectors),
            "heap_paths": sorted(format_path(p) for p in self.heap_paths),
            "boxes": [list(b) for b in self.boxes],
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> NoiseMask:
        return cls(frozenset(raw.get("dom_keys", ())), tuple(raw.get("selectors", ())),
                   frozenset(parse_path(p) for p in raw.get("heap_paths", ())),
                   tuple(tuple(b) for b in raw.get("boxes", ())))


def _dom_noise(first: str, second: str) -> frozenset[str]:
    a, b = parse_dom(first), parse_dom(second)
    return frozenset(x.key for i1, i2, j1, j2 in changed_blocks(a, b) for x in a[i1:i2] + b[j1:j2])


def _heap_noise(first: Any, second: Any) -> frozenset[HeapPath]:
    if first is None or second is None:
        return frozenset()
    # an array that grew or shrank is masked whole: next time it may be another index
    return frozenset(keys[:-1] if change.change in _CONTAINER_CHANGES else keys
                     for keys, change in heap_changes(first, second))


def _screenshot_noise(first: bytes | None, second: bytes | None, tolerance: pixels.Tolerance) -> list[pixels.Box]:
    if first is None or second is None:
        return []
    mask = pixels.changed_mask(pixels.load(first), pixels.load(second), tolerance.channel_tolerance)
    return pixels.tile_boxes(mask)


def _placeholder(line: DomLine) -> str:
    pad = "  " * line.depth
    if line.kind == "open":
        id_ = line.attributes.get("id")
        id_attribute = f' id="{id_}"' if id_ else ""
        return f"{pad}<{line.tag}{id_attribute} {PLACEHOLDER}>"
    if line.kind == "text":
        return pad + PLACEHOLDER
    return line.text


def _mask_dom(dom: str, keys: frozenset[str], selectors: tuple[str, ...]) -> str:
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
