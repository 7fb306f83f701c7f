"""Paths into an abstract heap (see ``instrument_js/capture_heap.js``).

A path is a tuple of keys from the global object: strings for object properties, integers for
array indices. It is written ``window.cart.items[0]`` (``window["odd key"]`` when a key is not
an identifier), which is also the form of the ``$ref`` placeholders the capture emits.
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterable

from webr4.errors import Webr4Error

HeapPath = tuple[str | int, ...]
MASKED = "<masked>"
_IDENTIFIER = re.compile(r"^[A-Za-z_$][\w$]*$")
_TOKEN = re.compile(r'\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]')


class HeapPathError(Webr4Error, ValueError):
    """Text that is not a heap path such as ``window.a.b[0]``."""


def format_path(path: Iterable[str | int]) -> str:
    """``("cart", "items", 0)`` → ``window.cart.items[0]``."""
    out = "window"
    for key in path:
        if isinstance(key, int):
            out += f"[{key}]"
        elif _IDENTIFIER.match(key):
            out += f".{key}"
        else:
            out += f"[{json.dumps(key, ensure_ascii=False)}]"
    return out


def parse_path(text: str) -> HeapPath:
    """The inverse of :func:`format_path`; the leading ``window`` is optional.

    Raises :class:`HeapPathError` on text that is not a path.
    """
    rest = text.strip()
    rest = rest[len("window"):] if rest == "window" or rest.startswith(("window.", "window[")) else "." + rest
    keys: list[str | int] = []
    position = 0
    while position < len(rest):
        token = _TOKEN.match(rest, position)
        if token is None:
            raise HeapPathError(f"not a heap path: {text!r} (write window.a.b[0] or a.b)")
        name, index, quoted = token.groups()
        keys.append(name if name is not None else int(index) if index is not None else json.loads(quoted))
        position = token.end()
    return tuple(keys)


def without_paths(heap: Any, prefixes: set[HeapPath], at: HeapPath = ()) -> Any:
    """A copy of ``heap`` without the subtrees at ``prefixes``: object keys are dropped, array
    elements become ``"<masked>"`` so the indices of the others stay put."""
    if at in prefixes:
        return MASKED
    if isinstance(heap, dict):
        return {k: without_paths(v, prefixes, at + (k,)) for k, v in heap.items() if at + (k,) not in prefixes}
    if isinstance(heap, list):
        return [without_paths(v, prefixes, at + (i,)) for i, v in enumerate(heap)]
    return heap
