"""What differs between a parent's and a child's end state, as short items people can act on.

:func:`describe_differences` turns a :class:`~webr4.state.diff.StateDiff` into ``differences``
of ``summary.json``: category → a list of short strings, at most :data:`MAX_ITEMS` per category
(a last item says how many more the witness's ``diff.json`` holds). Everything that shows a
verdict (the report, JUnit, SARIF, ``--progress json``, the pytest plugin, ``replay``) prints
these items; :func:`differences_line` puts them on one line.

=============  =========================================================================
category       items
=============  =========================================================================
``exceptions`` ``new TypeError: Cannot set properties of null (setting 'value') at app.js:12:5``
               (``gone …`` for one only the parent raised)
``dom``        ``#log: "a loaded" → "b loaded"``, ``#c1: checked "false" → "true"``,
               ``form#signup > input#email: added <input id="email">``
``screenshot`` ``963 pixels changed in 120×16 at (8, 40)``
``console``    ``new: Failed to load cart`` / ``gone: …``
``network``    ``new GET /b.json`` / ``missing GET /a.json``
``pending``    ``left pending: setTimeout 100ms at app.js:3:1`` / ``no longer pending: …``
``heap``       ``window.app.total: 1 → 2``, ``window.app.cart added``, ``window.x removed``
``navigation`` ``leaves for /next.html`` (only the reversal leaves the page), ``stays instead of
               leaving for /next.html`` (only the parent left), ``leaves for /b instead of /a``
=============  =========================================================================

Texts are cut to :data:`MAX_TEXT` characters. A new state category needs one function from its
part of the diff to items, and one entry in :data:`FORMATTERS`; until it has them, its items
are the plain words of :func:`_plain`.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any, Callable, Iterable, Mapping
from urllib.parse import urlsplit

from webr4.engine.describe import short_site
from webr4.state.diff import DomDiff, HeapDiff, Hunk, MultisetDiff, ScreenshotDiff, StateDiff

MAX_ITEMS = 5
MAX_TEXT = 60
_ATTRIBUTE = re.compile(r' ([^\s=]+)="([^"]*)"')
_OPEN_TAG = re.compile(r"^<([^\s>/]+)")


def clip(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _quoted(text: str) -> str:
    return json.dumps(clip(text), ensure_ascii=False)


def _both_ways(part: MultisetDiff, new: str, lost: str, show: Callable[[Any], str]) -> list[str]:
    return [f"{new}{show(item)}" for item in part.new] + [f"{lost}{show(item)}" for item in part.lost]


def _exception(item: Any) -> str:
    message, site = item
    return f"{clip(message, 2 * MAX_TEXT)} at {short_site(site)}" if site else clip(message, 2 * MAX_TEXT)


def exception_items(part: MultisetDiff) -> list[str]:
    return _both_ways(part, "new ", "gone ", _exception)


def console_items(part: MultisetDiff) -> list[str]:
    return _both_ways(part, "new: ", "gone: ", lambda line: clip(line, 2 * MAX_TEXT))


def _where(url: str) -> str:
    """``url`` without its scheme and host, when it has them."""
    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "") if parts.scheme else url


def _request(request: str) -> str:
    method, _, url = request.partition(" ")
    return clip(f"{method} {_where(url)}")


def network_items(part: MultisetDiff) -> list[str]:
    return _both_ways(part, "new ", "missing ", _request)


def pending_items(part: MultisetDiff) -> list[str]:
    return _both_ways(part, "left pending: ", "no longer pending: ", clip)


def navigation_items(part: MultisetDiff) -> list[str]:
    """Where the reversal took the user instead of the parent (each side leaves at most once)."""
    went, left = [_where(url) for url in part.new], [_where(url) for url in part.lost]
    if went and left:
        return [clip(f"leaves for {went[0]} instead of {left[0]}")]
    if went:
        return [clip(f"leaves for {went[0]}")]
    return [clip(f"stays instead of leaving for {left[0]}")]


def screenshot_items(part: ScreenshotDiff) -> list[str]:
    if part.bbox is None:
        return [f"{part.changed_pixels} pixels changed"]
    left, top, right, bottom = part.bbox
    return [f"{part.changed_pixels} pixels changed in {right - left}×{bottom - top} at ({left}, {top})"]


def _heap_value(value: Any) -> str:
    return clip(json.dumps(value, ensure_ascii=False, default=str), MAX_TEXT // 2)


def heap_items(part: HeapDiff) -> list[str]:
    items = []
    for change in part.changes:
        if change.change.endswith("_added"):
            items.append(f"{change.path} added")
        elif change.change.endswith("_removed"):
            items.append(f"{change.path} removed")
        else:
            items.append(f"{change.path}: {_heap_value(change.before)} → {_heap_value(change.after)}")
    return items


def short_path(path: str) -> str:
    """An element path of :mod:`webr4.state.dom` from its nearest element with an id:
    ``html > body > form#signup > input`` → ``form#signup > input``; ``… > input#email`` →
    ``#email``; without an id, from ``body``."""
    segments = path.split(" > ")
    for index in range(len(segments) - 1, -1, -1):
        tag, hash_, id_ = segments[index].partition("#")
        if hash_:
            return " > ".join([f"#{id_}"] if index == len(segments) - 1 else segments[index:])
    return " > ".join(segments[1:] if segments[:1] == ["html"] and len(segments) > 1 else segments)


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
        return f"{_quoted(html.unescape(old))} → {_quoted(html.unescape(new))}"
    before, after = _tag(old), _tag(new)
    if before is None or after is None or before[0] != after[0]:
        return None
    changed = sorted(k for k in before[1].keys() | after[1].keys() if before[1].get(k) != after[1].get(k))
    return ", ".join(f"{name} {_quoted(before[1][name]) if name in before[1] else '(none)'} → "
                     f"{_quoted(after[1][name]) if name in after[1] else '(none)'}" for name in changed)


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
    return f"{where}: {_quoted(_lines(before))} → {_quoted(_lines(after))}"


def dom_items(part: DomDiff) -> list[str]:
    return [_hunk(hunk) for hunk in part.hunks]


FORMATTERS: Mapping[str, Callable[[Any], list[str]]] = {
    "navigation": navigation_items,
    "exceptions": exception_items,
    "dom": dom_items,
    "screenshot": screenshot_items,
    "console": console_items,
    "network": network_items,
    "pending": pending_items,
    "heap": heap_items,
}
"""Category → items of that part of a :class:`StateDiff`, in the order people read them."""


def _plain(part: Any) -> list[str]:
    """Items of a category without a formatter of its own: what it has more and has less of,
    or the part itself in words."""
    if isinstance(part, MultisetDiff):
        return _both_ways(part, "new ", "gone ", clip)
    return [clip(str(part))]


_MORE = re.compile(r"^… (\d+) more in diff\.json$")


def _more(count: int) -> list[str]:
    return [f"… {count} more in diff.json"] if count > 0 else []


def _split(items: list[str]) -> tuple[list[str], int]:
    """The items proper and how many more the witness holds (the closing "… n more" item)."""
    more = _MORE.match(items[-1]) if items else None
    return (items[:-1], int(more.group(1))) if more else (items, 0)


def describe_differences(difference: StateDiff) -> dict[str, list[str]]:
    """Category → at most :data:`MAX_ITEMS` items (and one saying how many more), for every
    category that differs, in the order of :data:`FORMATTERS`."""
    described: dict[str, list[str]] = {}
    unformatted = [name for name in difference.CATEGORIES if name not in FORMATTERS]
    for category in [*FORMATTERS, *unformatted]:
        part = getattr(difference, category, None)
        if part:
            items = FORMATTERS.get(category, _plain)(part)
            unlisted = max(0, getattr(part, "total", len(items)) - len(items))  # a heap diff lists the first changes
            described[category] = items[:MAX_ITEMS] + _more(max(0, len(items) - MAX_ITEMS) + unlisted)
    return described


def differences_lines(differences: Mapping[str, Any]) -> list[str]:
    """One line per category of ``differences``: ``dom: #log: "a" → "b"; #c1: …``."""
    return [f"{category}: {items if isinstance(items, str) else '; '.join(items)}"
            for category, items in differences.items()]


def differences_line(differences: Mapping[str, Any], *, per_category: int = 2) -> str:
    """``differences`` of ``summary.json`` on one line: ``exceptions: new TypeError: … at
    app.js:12:5; dom: #log: "a" → "b" (+2 more)``; at most ``per_category`` items each.
    A category written as one string (runs from before items existed) is shown as it is."""
    parts = []
    for category, items in differences.items():
        if isinstance(items, str):
            parts.append(f"{category}: {items}")
            continue
        listed, unlisted = _split(list(items))
        more = max(0, len(listed) - per_category) + unlisted
        shown = ", ".join(listed[:per_category]) + (f" (+{more} more)" if more else "")
        parts.append(f"{category}: {shown}")
    return "; ".join(parts) or "none"
