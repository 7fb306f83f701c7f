"""Mapping positions in rewritten text back to the original source.

Rewriting (markers, instrumentation) inserts text but never newlines, so a line number stays
the same and only columns move. :class:`PositionMap` holds, for the rewritten text, the runs
that were copied unchanged from the original and maps any position back: exactly inside a
copied run, to the original position where the text was inserted otherwise.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from difflib import SequenceMatcher


@dataclass
class PositionMap:
    """Runs ``(rewritten_start, original_start, length)`` in character offsets, in order."""

    runs: list[tuple[int, int, int]] = field(default_factory=list)
    _starts: list[int] = field(default_factory=list, repr=False)

    @classmethod
    def from_replacements(cls, original: str, replacements: list[tuple[int, int, str]], align: bool) -> PositionMap:
        """The map for ``original`` with ``original[start:end]`` replaced by each text, in order.

        With ``align`` a replaced fragment is aligned with its replacement character by character
        (for rewritten code that keeps the original characters in order), else it counts as new.
        """
        runs: list[tuple[int, int, int]] = []
        rewritten = 0
        previous = 0
        for start, end, text in sorted(replacements):
            runs.append((rewritten, previous, start - previous))
            rewritten += start - previous
            if align:
                matcher = SequenceMatcher(None, original[start:end], text, autojunk=False)
                runs.extend((rewritten + b, start + a, size) for a, b, size in matcher.get_matching_blocks() if size)
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


def line_starts(text: str) -> list[int]:
    starts = [0]
    starts.extend(i + 1 for i, ch in enumerate(text) if ch == "\n")
    return starts


def to_offset(starts: list[int], line: int, column: int) -> int:
    return starts[min(line, len(starts)) - 1] + column - 1


def to_position(starts: list[int], offset: int) -> tuple[int, int]:
    line = bisect.bisect_right(starts, offset)
    return line, offset - starts[line - 1] + 1


def original_column(original_line: str, rewritten_line: str, column: int) -> int:
    """The 1-based ``column`` of ``rewritten_line`` as a column of ``original_line``, the line
    it was rewritten from (aligned on demand: for the rare position that must be mapped)."""
    if original_line == rewritten_line:
        return column
    positions = PositionMap.from_replacements(original_line, [(0, len(original_line), rewritten_line)], align=True)
    return positions.original_offset(column - 1) + 1
