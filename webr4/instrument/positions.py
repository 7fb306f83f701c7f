"""Mapping positions in rewritten text back to the original source.

Rewriting (markers, instrumentation) inserts text but never newlines, so a line number stays
the same and only columns move. :class:`PositionMap` holds, for the rewritten text, the runs
that were copied unchanged from the original and maps any position back: exactly inside a
copied run, to the original position where the text was inserted otherwise.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import NamedTuple


@dataclass
class PositionMap:
    """Runs ``(rewritten_start, original_start, length)`` in character offsets, in order."""

    runs: list[tuple[int, int, int]] = field(default_factory=list)
    _starts: list[int] = field(default_factory=list, repr=False)

    @classmethod
    def from_replacements(cls, original: str, replacements: list[Replacement]) -> PositionMap:
        """The map for ``original`` with each replacement made, in order of position."""
        runs: list[tuple[int, int, int]] = []
        rewritten = 0
        previous = 0
        for start, end, text, inner in sorted(replacements, key=lambda r: (r.start, r.end)):
            runs.append((rewritten, previous, start - previous))
            rewritten += start - previous
            if inner is not None:
                runs.extend((rewritten + r, start + o, size) for r, o, size in inner.runs)
            rewritten += len(text)
            previous = end
        runs.append((rewritten, previous, len(original) - previous))
        return cls([r for r in runs if r[2] > 0])

    def original_offset(self, offset: int) -> int:
        if not self._starts:
            self._starts = [r[0] for r in self.runs]
        i = bisect.bisect_right(self._starts, offset) - 1
        if i < 0:
            return 0
        rewritten, original, length = self.runs[i]
        return original + min(offset - rewritten, length)

    def deltas(self) -> tuple[int, ...]:
        """The runs as a flat tuple of small numbers (for storing): per run, the rewritten and the
        original characters since the previous run ended, then its length."""
        flat: list[int] = []
        rewritten_end = original_end = 0
        for rewritten, original, length in self.runs:
            flat += (rewritten - rewritten_end, original - original_end, length)
            rewritten_end, original_end = rewritten + length, original + length
        return tuple(flat)

    @classmethod
    def from_deltas(cls, flat: Sequence[int]) -> PositionMap:
        """The map :meth:`deltas` was made from."""
        runs: list[tuple[int, int, int]] = []
        rewritten_end = original_end = 0
        for i in range(0, len(flat), 3):
            rewritten, original, length = rewritten_end + flat[i], original_end + flat[i + 1], flat[i + 2]
            runs.append((rewritten, original, length))
            rewritten_end, original_end = rewritten + length, original + length
        return cls(runs)


class Replacement(NamedTuple):
    """``original[start:end]`` replaced by ``text``; ``inner`` maps offsets of ``text`` to offsets
    of the replaced fragment (``None``: the text is new, and maps to where it was inserted)."""

    start: int
    end: int
    text: str
    inner: PositionMap | None = None


def aligned(fragment: str, text: str, limit: int = 4096) -> PositionMap | None:
    """``text``'s map back to ``fragment`` found by aligning them character by character, for
    replacements that keep the fragment's characters in order without saying where; ``None`` (the
    text counts as new) past ``limit`` characters, since aligning costs the product of the lengths."""
    if len(fragment) > limit or len(text) > limit:
        return None
    matcher = SequenceMatcher(None, fragment, text, autojunk=False)
    return PositionMap([(b, a, size) for a, b, size in matcher.get_matching_blocks() if size])


def kept_runs(source: bytes, output: bytes, byte_runs: list[tuple[int, int, int]]) -> PositionMap:
    """The character map of ``output`` back to ``source`` (both UTF-8) from its runs in bytes
    ``(output_start, source_start, length)``, which must be in order and split neither text
    inside a character."""
    starts = _characters_at(output, [out for out, _, _ in byte_runs])
    bounds = _characters_at(source, [at for _, start, length in byte_runs for at in (start, start + length)])
    return PositionMap([(out, bounds[2 * i], bounds[2 * i + 1] - bounds[2 * i]) for i, out in enumerate(starts)])


_LEAD_BYTES = re.compile(rb"[\xc0-\xff]")


def _characters_at(data: bytes, offsets: list[int]) -> list[int]:
    """For UTF-8 ``data``: how many characters precede each of ``offsets`` (character boundaries,
    in increasing order). A character of n bytes starts with a lead byte and counts n - 1 too many."""
    leads = [match.start() for match in _LEAD_BYTES.finditer(data)]
    if not leads:
        return offsets
    characters: list[int] = []
    surplus = passed = 0
    for offset in offsets:
        while passed < len(leads) and leads[passed] < offset:
            lead = data[leads[passed]]
            surplus += 1 if lead < 0xE0 else 2 if lead < 0xF0 else 3
            passed += 1
        characters.append(offset - surplus)
    return characters


def line_starts(text: str) -> list[int]:
    """The offset where each line of ``text`` starts."""
    starts = [0]
    at = text.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    return starts


def to_offset(starts: list[int], line: int, column: int) -> int:
    return starts[min(line, len(starts)) - 1] + column - 1


def to_position(starts: list[int], offset: int) -> tuple[int, int]:
    line = bisect.bisect_right(starts, offset)
    return line, offset - starts[line - 1] + 1


def original_column(positions: PositionMap, served_lines: list[int], line: int, column: int) -> int:
    """The 1-based ``column`` of 1-based ``line`` of a rewritten text (whose lines start at
    ``served_lines``) as a column of the same line of the original, through ``positions``:
    rewriting never adds or removes a line."""
    start = served_lines[line - 1]
    return positions.original_offset(start + column - 1) - positions.original_offset(start) + 1
