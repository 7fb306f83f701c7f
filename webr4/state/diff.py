"""Per-category differences between the final states of a parent execution and its child.

Categories, each present in :attr:`StateDiff.categories` only when that part of the state differs:

* ``dom`` — a line diff of the normalised DOM (:class:`DomDiff`: hunks with the text before and
  after, and the element paths that changed);
* ``heap`` — a structural diff of the abstract heaps (:class:`HeapDiff`, paths ``window.x.y``);
  only when both snapshots have a heap;
* ``screenshot`` — a pixel diff with a tolerance (:class:`ScreenshotDiff`); only when both
  snapshots have a screenshot (``ScreenshotDiff.compared`` says whether they did);
* ``exceptions`` — uncaught exceptions as a set of ``(message, site)``;
* ``console`` — ``console.error`` messages as a set;
* ``network`` — requests as a multiset: ``lost`` ones the child skipped, ``new`` ones it added;
* ``pending`` — labels of the events left pending, as a multiset;
* ``navigation`` — where the page tried to take the user (``lost``: only the parent left the
  page that way, ``new``: only the child did).

To ignore known noise, apply a :class:`~webr4.state.noise.NoiseMask` to both snapshots first.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Hashable, Iterable

from deepdiff import DeepDiff
from deepdiff.helper import NotPresent

from webr4.state import screenshot as pixels
from webr4.state.dom import changed_blocks, parse_dom
from webr4.state.heappaths import HeapPath, format_path
from webr4.state.snapshot import StateSnapshot

MAX_HEAP_CHANGES = 200


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
    hunks: list[Hunk] = field(default_factory=list)

    @property
    def paths(self) -> list[str]:
        """Every changed element path, in order of first appearance."""
        return list(dict.fromkeys(p for h in self.hunks for p in h.paths))

    def __bool__(self) -> bool:
        return bool(self.hunks)


@dataclass(frozen=True)
class HeapChange:
    """One heap difference: ``change`` is deepdiff's report type (``values_changed``,
    ``dictionary_item_added``, …); ``before``/``after`` are omitted (``None``) when absent."""

    path: str
    change: str
    before: Any = None
    after: Any = None


@dataclass(frozen=True)
class HeapDiff:
    changes: list[HeapChange] = field(default_factory=list)
    total: int = 0  # changes found; only the first MAX_HEAP_CHANGES are listed

    def __bool__(self) -> bool:
        return self.total > 0


@dataclass(frozen=True)
class ScreenshotDiff:
    """``image`` (PNG bytes, not in the JSON form) shows changed pixels in red."""

    compared: bool = False
    differs: bool = False
    changed_pixels: int = 0
    fraction: float = 0.0
    bbox: tuple[int, int, int, int] | None = None
    image: bytes | None = None

    def __bool__(self) -> bool:
        return self.differs


@dataclass(frozen=True)
class MultisetDiff:
    """Items only in the parent (``lost``) and only in the child (``new``), with multiplicity."""

    lost: list[Any] = field(default_factory=list)
    new: list[Any] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.lost or self.new)


@dataclass(frozen=True)
class StateDiff:
    """All differences between a parent's state and a child's."""

    dom: DomDiff = field(default_factory=DomDiff)
    heap: HeapDiff = field(default_factory=HeapDiff)
    screenshot: ScreenshotDiff = field(default_factory=ScreenshotDiff)
    exceptions: MultisetDiff = field(default_factory=MultisetDiff)
    console: MultisetDiff = field(default_factory=MultisetDiff)
    network: MultisetDiff = field(default_factory=MultisetDiff)
    pending: MultisetDiff = field(default_factory=MultisetDiff)
    navigation: MultisetDiff = field(default_factory=MultisetDiff)

    CATEGORIES: ClassVar[tuple[str, ...]] = ("dom", "heap", "screenshot", "exceptions", "console", "network", "pending",
                                             "navigation")

    @property
    def categories(self) -> set[str]:
        """Names of the categories that differ."""
        return {name for name in self.CATEGORIES if getattr(self, name)}

    def to_json(self) -> dict[str, Any]:
        """JSON-able form (the diff image is left out; see :meth:`save`)."""
        shot = self.screenshot
        return {
            "categories": sorted(self.categories),
            "dom": {"hunks": [vars(h) for h in self.dom.hunks], "paths": self.dom.paths},
            "heap": {"total": self.heap.total, "changes": [vars(c) for c in self.heap.changes]},
            "screenshot": {"compared": shot.compared, "differs": shot.differs, "changed_pixels": shot.changed_pixels,
                           "fraction": shot.fraction, "bbox": list(shot.bbox) if shot.bbox else None},
            "exceptions": {"lost": [list(e) for e in self.exceptions.lost],
                           "new": [list(e) for e in self.exceptions.new]},
            "console": vars(self.console),
            "network": vars(self.network),
            "pending": vars(self.pending),
            "navigation": vars(self.navigation),
        }

    def save(self, directory: Path, name: str = "diff") -> Path:
        """Write ``<name>.json``, and ``<name>.png`` (the screenshot diff image) when there is one."""
        directory.mkdir(parents=True, exist_ok=True)
        data = self.to_json()
        if self.screenshot.image is not None:
            (directory / f"{name}.png").write_bytes(self.screenshot.image)
            data["screenshot"]["image"] = f"{name}.png"
        target = directory / f"{name}.json"
        target.write_text(json.dumps(data, indent=1, sort_keys=True, default=str), encoding="utf-8")
        return target


def diff_dom(before: str, after: str) -> DomDiff:
    """Line diff of two DOM serialisations, with the element paths of the changed lines."""
    a, b = parse_dom(before), parse_dom(after)
    hunks = []
    for i1, i2, j1, j2 in changed_blocks(a, b):
        changed = a[i1:i2] + b[j1:j2]
        hunks.append(Hunk(i1 + 1, j1 + 1, [x.text for x in a[i1:i2]], [x.text for x in b[j1:j2]],
                          list(dict.fromkeys(x.path for x in changed))))
    return DomDiff(hunks)


def heap_changes(before: Any, after: Any) -> list[tuple[HeapPath, HeapChange]]:
    """Every difference between two abstract heaps, with its path as keys, sorted by path."""
    tree = DeepDiff(before, after, view="tree")
    changes = []
    for report, levels in tree.items():
        for level in levels:
            keys = tuple(level.path(output_format="list"))
            changes.append((keys, HeapChange(format_path(keys), report, _present(level.t1), _present(level.t2))))
    changes.sort(key=lambda c: c[1].path)
    return changes


def diff_heap(before: Any, after: Any) -> HeapDiff:
    """Structural diff of two abstract heaps; nothing when either is ``None``."""
    if before is None or after is None:
        return HeapDiff()
    changes = [change for _keys, change in heap_changes(before, after)]
    return HeapDiff(changes[:MAX_HEAP_CHANGES], len(changes))


def _present(value: Any) -> Any:
    return None if isinstance(value, NotPresent) else value


def diff_screenshots(before: bytes | None, after: bytes | None,
                     tolerance: pixels.Tolerance = pixels.Tolerance()) -> ScreenshotDiff:
    """Pixel diff; ``compared=False`` when either screenshot is missing."""
    if before is None or after is None:
        return ScreenshotDiff()
    result = pixels.compare(before, after, tolerance)
    return ScreenshotDiff(True, result.differs, result.changed_pixels, result.fraction, result.bbox, result.image)


def diff_multiset(before: Iterable[Hashable], after: Iterable[Hashable]) -> MultisetDiff:
    """What only ``before`` has and what only ``after`` has, counting repeats."""
    a, b = Counter(before), Counter(after)
    return MultisetDiff(sorted((a - b).elements(), key=repr), sorted((b - a).elements(), key=repr))


def diff_states(parent: StateSnapshot, child: StateSnapshot,
                tolerance: pixels.Tolerance = pixels.Tolerance()) -> StateDiff:
    """Every category of difference between ``parent`` and ``child``."""
    return StateDiff(
        dom=diff_dom(parent.dom, child.dom),
        heap=diff_heap(parent.heap, child.heap),
        screenshot=diff_screenshots(parent.screenshot_png(), child.screenshot_png(), tolerance),
        exceptions=diff_multiset(set(parent.exceptions), set(child.exceptions)),
        console=diff_multiset(set(parent.console), set(child.console)),
        network=diff_multiset(parent.requests, child.requests),
        pending=diff_multiset(parent.pending, child.pending),
        navigation=diff_multiset(_left(parent), _left(child)),
    )


def _left(state: StateSnapshot) -> list[str]:
    return [state.navigation] if state.navigation is not None else []
