"""Places in the page's code and objects, written short for people: a code site
(``cart.js:40:15``), a script's URL (``cart.js``), a path of properties (``.items[2].qty``).

Every output words places this way: the names of racing objects the browser collects
(:mod:`webr4.browser.naming`), the locations of races (:mod:`webr4.engine.describe`) and the
sites of exceptions (:mod:`webr4.state.categories.exceptions`). None of them fails on a string
of an unexpected shape.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from urllib.parse import urlsplit

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
    """The last segment of a URL's path, or the whole path when it ends with ``/``."""
    path = urlsplit(url).path or url
    last = path.rstrip("/").rsplit("/", 1)[-1]
    return last if last and not path.endswith("/") else path
