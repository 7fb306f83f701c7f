"""Places in the page's code and objects, written short for people: a code site
(``cart.js:40:15``), a script's URL (``cart.js``), a path of properties (``.items[2].qty``), and
any name a user or a page supplies (a URL, a selector, an exception's message) at a length a
message can hold (:func:`short_name`).

Every output words places this way: the names of racing objects the browser collects
(:mod:`webr4.browser.naming`), the locations of races (:mod:`webr4.engine.describe`) and the
sites of exceptions (:mod:`webr4.state.categories.exceptions`). Every one-line message words
names this way: the command line's error lines (:func:`webr4.cli.failures.readable`), a bad
step of a session, a script's exception, a recording that did not repeat. None of them fails on
a string of an unexpected shape.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Iterable
from urllib.parse import unquote_to_bytes, urlsplit

LONGEST_NAME = 120
"""The most characters of a name that a message shows; a longer one is cut in its middle."""
_KEPT_TAIL = 40  # of a cut name: its end, where a URL's file or a selector's target is
_PUNCTUATION = "'\"`()[]{}<>,;:."

_IDENTIFIER = re.compile(r"^[A-Za-z_$][\w$]*$")
_INDEX = re.compile(r"^(0|[1-9]\d*)$")
_SITE = re.compile(r"^(?P<url>.*):(?P<line>\d+):(?P<col>\d+)$")


def member_path(keys: Iterable[str]) -> str:
    """Property keys as JavaScript accessors: ``["items", "2", "qty"]`` → ``.items[2].qty``."""
    out = ""
    for key in keys:
        if _INDEX.match(key):
            out += f"[{key}]"
        elif _IDENTIFIER.match(key):
            out += f".{key}"
        else:
            out += f"[{json.dumps(key, ensure_ascii=False)}]"
    return out


def short_site(site: str | None) -> str:
    """``http://host/js/cart.js:40:15`` → ``cart.js:40:15``; a page's own URL keeps its path
    (``/shop/:12:5``); None → ``an unknown site``."""
    if not site:
        return "an unknown site"
    found = _SITE.match(site)
    url, suffix = (found.group("url"), f":{found.group('line')}:{found.group('col')}") if found else (site, "")
    return short_url(url) + suffix


def split_site(site: str) -> tuple[str, int | None, int | None]:
    """``url:line:col`` split into its URL and 1-based line and column; line and column are None
    (and the URL is ``site`` whole) when ``site`` does not end with them."""
    found = _SITE.match(site)
    if found is None or not found.group("url"):
        return site, None, None
    return found.group("url"), int(found.group("line")), int(found.group("col"))


def short_url(url: str) -> str:
    """The last segment of a URL's path, or the whole path when it ends with ``/``, as long as a
    message holds (:func:`short_name`: a ``data:`` URL is its media type and size)."""
    if url[:5].lower() == "data:":
        return short_name(url)
    path = urlsplit(url).path or url
    last = path.rstrip("/").rsplit("/", 1)[-1]
    return short_name(last if last and not path.endswith("/") else path)


def short_name(name: str, longest: int = LONGEST_NAME) -> str:
    """``name`` at a length a one-line message holds: a name no longer than ``longest``
    characters whole; a longer ``data:`` URL as its media type and size (``data:text/javascript
    (1,234 bytes)``), any other cut in its middle, with an ellipsis and its length
    (``https://host/very…/end.js (20,480 characters)``)."""
    if len(name) <= longest:
        return name
    if name[:5].lower() == "data:":
        return _data_url(name)
    tail = min(_KEPT_TAIL, longest // 3)
    return f"{name[:longest - tail - 1]}…{name[-tail:]} ({len(name):,} characters)"


def short_words(text: str, longest: int = LONGEST_NAME) -> str:
    """``text`` with each of its space-separated words longer than ``longest`` characters, and
    each ``data:`` URL longer than :data:`LONGEST_NAME`, written as :func:`short_name` writes
    it; quotes and brackets around a word stay."""
    return " ".join(_short_word(word, longest) for word in text.split(" "))


def _short_word(word: str, longest: int) -> str:
    start = len(word) - len(word.lstrip(_PUNCTUATION))
    core = word[start:].rstrip(_PUNCTUATION)
    if len(core) <= (LONGEST_NAME if core[:5].lower() == "data:" else longest):
        return word
    return word[:start] + short_name(core) + word[start + len(core):]


def _data_url(url: str) -> str:
    """A ``data:`` URL as ``data:`` and its media type, and how many bytes it carries."""
    header, comma, payload = url[5:].partition(",")
    media = header.split(";")[0].strip() or "text/plain"
    media = media if len(media) <= 60 else media[:59] + "…"
    if not comma:
        return f"data:{media} ({len(url):,} characters)"
    if header.lower().endswith(";base64"):
        try:
            size = len(base64.b64decode(payload + "=" * (-len(payload) % 4)))
        except (binascii.Error, ValueError):
            size = len(payload)
    else:
        size = len(unquote_to_bytes(payload))
    return f"data:{media} ({size:,} bytes)"
