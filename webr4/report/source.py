"""Source excerpts for access sites (``url:line:col``), read from the session's recorded HAR."""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from pathlib import Path

CONTEXT_LINES = 3
WIDTH = 160
"""Characters of a line shown around the site's column: a longer line (minified code) is cut to
this window, with an ellipsis where it was cut."""


@dataclass(frozen=True)
class SourceLine:
    number: int
    text: str
    hit: bool  # the line of the access site


@dataclass(frozen=True)
class Excerpt:
    """The lines around one access site; ``lines`` is empty when the source was not recorded."""

    kind: str  # "r" or "w"
    site: str
    url: str
    line: int
    column: int
    lines: list[SourceLine]


def split_site(site: str) -> tuple[str, int, int] | None:
    """``("http://h/app.js", 12, 5)`` from ``"http://h/app.js:12:5"``; ``None`` when malformed."""
    parts = site.rsplit(":", 2)
    if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
        return None
    return parts[0], int(parts[1]), int(parts[2])


class SourceStore:
    """The text of every response in a HAR file, by URL (fragment dropped)."""

    def __init__(self, texts: dict[str, str]) -> None:
        self._texts = texts
        self._lines: dict[str, list[str]] = {}

    @classmethod
    def from_har(cls, path: Path) -> SourceStore:
        """Read ``path``; a missing or unreadable HAR gives an empty store."""
        try:
            entries = json.loads(path.read_text(encoding="utf-8"))["log"]["entries"]
        except (OSError, ValueError, KeyError, TypeError):
            return cls({})
        texts: dict[str, str] = {}
        for entry in entries:
            url = entry.get("request", {}).get("url", "").split("#", 1)[0]
            content = entry.get("response", {}).get("content", {})
            text = _decode(content.get("text"), content.get("encoding"))
            if url and text is not None:
                texts.setdefault(url, text)
        return cls(texts)

    def excerpt(self, kind: str, site: str, context: int = CONTEXT_LINES) -> Excerpt | None:
        """The lines ``line ± context`` of ``site``; ``None`` when the site is malformed."""
        parsed = split_site(site)
        if parsed is None:
            return None
        url, line, column = parsed
        lines = self._source_lines(url.split("#", 1)[0])
        first, last = max(1, line - context), min(len(lines), line + context)
        shown = [SourceLine(n, _around(lines[n - 1], column), n == line) for n in range(first, last + 1)]
        return Excerpt(kind, site, url, line, column, shown)

    def _source_lines(self, url: str) -> list[str]:
        if url not in self._lines:
            self._lines[url] = self._texts.get(url, "").splitlines()
        return self._lines[url]


def _around(text: str, column: int) -> str:
    """``text`` cut to :data:`WIDTH` characters showing the 1-based ``column`` a third of the way in."""
    if len(text) <= WIDTH:
        return text
    start = max(0, min(column - 1 - WIDTH // 3, len(text) - WIDTH))
    return ("…" if start else "") + text[start : start + WIDTH] + ("…" if start + WIDTH < len(text) else "")


def _decode(text: str | None, encoding: str | None) -> str | None:
    if text is None:
        return None
    if encoding != "base64":
        return text
    try:
        return base64.b64decode(text).decode("utf-8", errors="replace")
    except (binascii.Error, ValueError):
        return None
