"""Site ids and their ``url:line:col`` positions in the original source."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import accumulate


@dataclass
class LineIndex:
    """Maps byte offsets of UTF-8 source to 1-based line and 1-based column (in characters).

    Columns count Unicode code points from the start of the line; lines are split at ``\\n``.
    Lines without non-ASCII bytes (the common case, and the only one in minified libraries that
    matters for speed) are answered without decoding or looking at their bytes.
    """

    source: bytes
    _line_starts: list[int] = field(init=False)
    _wide: dict[int, tuple[list[int], list[int]]] = field(init=False, default_factory=dict)
    _wide_lines: set[int] = field(init=False)
    """The (0-based) lines that hold a non-ASCII byte."""

    def __post_init__(self) -> None:
        lines = self.source.split(b"\n")
        self._line_starts = list(accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
        self._wide_lines = set()
        if not self.source.isascii():
            self._wide_lines = {number for number, line in enumerate(lines) if not line.isascii()}

    def positions(self, offsets: list[int]) -> list[tuple[int, int]]:
        """``(line, column)`` of the byte at each offset in ``offsets``, both 1-based."""
        starts, wide = self._line_starts, self._wide_lines
        result = []
        for offset in offsets:
            line = bisect_right(starts, offset) - 1
            start = starts[line]
            extra = self._extra_bytes(line, start, offset) if line in wide else 0
            result.append((line + 1, offset - start - extra + 1))
        return result

    def position(self, offset: int) -> tuple[int, int]:
        """``(line, column)`` of the byte at ``offset``, both 1-based."""
        return self.positions([offset])[0]

    def _extra_bytes(self, line: int, start: int, offset: int) -> int:
        """How many more bytes than characters the line holds before ``offset``."""
        if line not in self._wide:
            end = self._line_starts[line + 1] if line + 1 < len(self._line_starts) else len(self.source)
            text = self.source[start:end]
            offsets: list[int] = []
            cumulative: list[int] = []
            if not text.isascii():
                extra = 0
                for index, byte in enumerate(text):
                    if byte >= 0xC0:
                        width = 4 if byte >= 0xF0 else 3 if byte >= 0xE0 else 2
                        extra += width - 1
                        offsets.append(start + index + 1)
                        cumulative.append(extra)
            self._wide[line] = (offsets, cumulative)
        offsets, cumulative = self._wide[line]
        index = bisect_right(offsets, offset) - 1
        return cumulative[index] if index >= 0 else 0


@dataclass
class SiteTable:
    """Allocates site ids ``"<script_id>:<n>"`` (n = 1, 2, …) and records where each one is.

    ``shift`` is subtracted from offsets before they are mapped, for sources that were wrapped in
    a prefix before parsing (inline handler bodies). Positions are worked out when :meth:`sites`
    is asked for, all at once.
    """

    url: str
    script_id: str
    lines: LineIndex
    shift: int = 0
    ids: list[str] = field(default_factory=list)
    offsets: list[int] = field(default_factory=list)

    def add(self, offset: int) -> str:
        """A fresh site id for the code at byte ``offset`` of the parsed text."""
        site_id = f"{self.script_id}:{len(self.ids) + 1}"
        self.ids.append(site_id)
        self.offsets.append(offset)
        return site_id

    def sites(self) -> dict[str, str]:
        """Every site id allocated so far (in order) -> ``url:line:col`` of its code."""
        url, shift = self.url, self.shift
        offsets = [offset - shift for offset in self.offsets] if shift else self.offsets
        return {site_id: f"{url}:{line}:{column}"
                for site_id, (line, column) in zip(self.ids, self.lines.positions(offsets))}

    def where(self, offset: int) -> str:
        """``url:line:col`` of byte ``offset`` of the parsed text, without allocating an id."""
        line, column = self.lines.position(offset - self.shift)
        return f"{self.url}:{line}:{column}"
