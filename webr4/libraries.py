"""Which scripts are a library's rather than the app's own: the one definition of it.

A script is a library's when it comes from another origin than the page, or when its path says
so: it lives under ``node_modules/``, ``vendor/``, ``vendors/`` or ``bower_components/``, or it
is minified by name (``*.min.js``, ``*-min.js``, ``*.min.mjs``). Where webr4 names a place in the
page's code and has several to choose from, it names the app's: the page's runtime gets
:data:`LIBRARY_PATH` in its configuration and places a creation or exception site at the first
frame of the stack in the app (``isLibraryScript`` in ``instrument_js/runtime/events.js``), and a racing
event's accesses are shown with the app's sites first (:func:`app_first`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TypeVar
from urllib.parse import urlsplit

LIBRARY_PATH = re.compile(r"/(?:node_modules|vendors?|bower_components)/|[.-]min\.m?js$", re.IGNORECASE)
"""A library's script by its path; the pattern reads the same in Python and JavaScript."""

T = TypeVar("T")


def is_library(script_url: str, page_url: str) -> bool:
    """Whether the script at ``script_url`` is a library's, on the page at ``page_url``."""
    script, page = urlsplit(script_url), urlsplit(page_url)
    return (script.scheme, script.netloc) != (page.scheme, page.netloc) or LIBRARY_PATH.search(script.path) is not None


def app_first(items: Iterable[T], url: Callable[[T], str], page_url: str) -> list[T]:
    """``items`` with those whose ``url`` is the app's before those in a library, each part in
    its own order."""
    listed = list(items)
    return sorted(listed, key=lambda item: is_library(url(item), page_url))
