"""Wording shared by the categories' difference items."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

MAX_TEXT = 60


def clip(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def quoted(text: str) -> str:
    """``text`` clipped, as a JSON string."""
    return json.dumps(clip(text), ensure_ascii=False)


def where(url: str) -> str:
    """``url`` without its scheme and host, when it has them."""
    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "") if parts.scheme else url
