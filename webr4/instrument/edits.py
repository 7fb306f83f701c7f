"""Minimal edits to source bytes: insertions and small token replacements.

Every edit is anchored at a byte offset of the original text and carries an ordering key, so that
edits from nested nodes that land on the same offset compose correctly:

* statement insertions (``STATEMENT``) come first;
* then closing texts (``close``), innermost node first;
* then token replacements (``REPLACE``);
* then opening texts (``open``), outermost node first.

Two wrappers around the very same node are ordered by ``layer``: the higher layer is outside.
Edits are applied in that order whatever the order they were made in.

Text between edits is copied unchanged, so line and column positions of untouched code are kept
except on lines that received insertions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

STATEMENT = 0
CLOSE = 1
REPLACE = 2
OPEN = 3


Edit = tuple[int, tuple[int, ...], int, bytes]
"""``(start, key, end, text)``: replace ``source[start:end]`` (empty for an insertion) by ``text``;
sorted by ``(start, key)``. A plain tuple: a script has tens of thousands of them."""


@dataclass
class EditList:
    """Collects edits and applies them to the source they were computed for."""

    edits: list[Edit] = field(default_factory=list)

    def statement(self, offset: int, text: str) -> None:
        """Insert a whole statement at ``offset`` (before anything else inserted there)."""
        self.edits.append((offset, (STATEMENT,), offset, text.encode()))

    def open(self, owner: Node, text: str, offset: int | None = None, layer: int = 0) -> None:
        """Insert ``text`` that opens a wrapper around ``owner`` (at its start unless told)."""
        at = owner.start_byte if offset is None else offset
        self.edits.append((at, (OPEN, -owner.end_byte, -layer), at, text.encode()))

    def close(self, owner: Node, text: str, offset: int | None = None, layer: int = 0) -> None:
        """Insert ``text`` that closes a wrapper around ``owner`` (at its end unless told)."""
        at = owner.end_byte if offset is None else offset
        self.edits.append((at, (CLOSE, -owner.start_byte, owner.end_byte, layer), at, text.encode()))

    def wrap(self, owner: Node, opening: str, closing: str, layer: int = 0) -> None:
        """:meth:`open` ``opening`` and :meth:`close` ``closing`` around ``owner``."""
        start, end = owner.start_byte, owner.end_byte
        self.edits.append((start, (OPEN, -end, -layer), start, opening.encode()))
        self.edits.append((end, (CLOSE, -start, end, layer), end, closing.encode()))

    def replace(self, token: Node, text: str) -> None:
        """Replace the single token ``token`` by ``text``."""
        self.edits.append((token.start_byte, (REPLACE,), token.end_byte, text.encode()))

    def replace_opening(self, owner: Node, token: Node, text: str) -> None:
        """Replace ``token``, the first token of ``owner``, by ``text`` that opens a wrapper around it."""
        self.edits.append((token.start_byte, (OPEN, -owner.end_byte, 0), token.end_byte, text.encode()))

    def apply(self, source: bytes) -> tuple[bytes, list[tuple[int, int, int]]]:
        """The source with every edit applied, and the runs copied from it unchanged, as
        ``(start in the result, start in the source, length)`` in bytes.

        Where an inserted text would fuse with a neighbouring word (minified ``else/re/.test()``
        becoming ``else__webr4…``), a space keeps the two tokens apart.
        """
        out: list[bytes] = []
        append = out.append
        kept: list[tuple[int, int, int]] = []
        written = 0
        cursor = 0
        last = -1  # the last byte written so far, -1 before any
        size = len(source)
        word = _WORD_BYTES
        for start, _, end, text in sorted(self.edits):
            if start < cursor:
                raise ValueError(f"overlapping edits at byte {start}")
            if start > cursor:
                append(source[cursor:start])
                kept.append((written, cursor, start - cursor))
                written += start - cursor
                last = source[start - 1]
            if text:
                inserted = b" " + text if last in word and text[0] in word else text
                last = text[-1]
                if last in word and end < size and source[end] in word:
                    inserted += b" "
                append(inserted)
                written += len(inserted)
            cursor = end
        if cursor < size:
            append(source[cursor:])
            kept.append((written, cursor, size - cursor))
        return b"".join(out), kept


_WORD_BYTES = frozenset(
    byte for byte in range(256) if bytes([byte]).isalnum() or byte in b"_$" or byte >= 0x80
)
"""Bytes that can be part of an identifier or keyword (non-ASCII counts as such)."""
