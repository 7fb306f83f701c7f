"""Read one start tag of an HTML document the way the HTML tokenizer does.

The states followed are those of the HTML Living Standard, §13.2.5 "Tokenization", from the
tag name state to "after attribute value (quoted)" and "self-closing start tag". What matters
here is *where* each attribute's value lies in the source text: an ``on…=`` inside another
attribute's quoted value (``placeholder="e.g. online=yes"``) is part of that value, never an
attribute, and of two attributes with the same name only the first is kept, as the tokenizer
drops the later one.
"""

from __future__ import annotations

from dataclasses import dataclass

_WHITESPACE = "\t\n\f\r "  # the tokenizer's whitespace (CR is gone after input preprocessing)


@dataclass(frozen=True)
class Attribute:
    """One attribute: ``name`` lowercased as the tokenizer does; ``value_start``/``value_end``
    delimit the raw value in the source (character references not decoded), inside the quotes
    when there are any (``quote`` is ``'"'``, ``"'"`` or ``""``). An attribute written without a
    value has an empty span at the end of its name."""

    name: str
    value_start: int
    value_end: int
    quote: str


@dataclass(frozen=True)
class StartTag:
    """The start tag at ``start``: its lowercased name, its attributes in source order (first
    occurrences only) and ``end``, the offset just past its ``>`` (the text's length when the
    document ends inside the tag)."""

    name: str
    attributes: tuple[Attribute, ...]
    start: int
    end: int


def read_start_tag(text: str, start: int) -> StartTag:
    """Tokenize the start tag whose ``<`` is at ``start`` in ``text``."""
    i = start + 1
    n = len(text)
    name_start = i
    while i < n and text[i] not in _WHITESPACE and text[i] not in "/>":
        i += 1
    tag_name = text[name_start:i].lower()
    attributes: dict[str, Attribute] = {}

    def add(name: str, value_start: int, value_end: int, quote: str) -> None:
        attributes.setdefault(name, Attribute(name, value_start, value_end, quote))

    while i < n:
        ch = text[i]
        if ch in _WHITESPACE:  # before attribute name
            i += 1
            continue
        if ch == ">":
            return StartTag(tag_name, tuple(attributes.values()), start, i + 1)
        if ch == "/":  # self-closing start tag state: anything but '>' starts over
            i += 1
            continue
        # Attribute name state; an '=' first is part of the name.
        name_start = i
        i += 1
        while i < n and text[i] not in _WHITESPACE and text[i] not in "/>=":
            i += 1
        name = text[name_start:i].lower()
        # After attribute name state.
        while i < n and text[i] in _WHITESPACE:
            i += 1
        if i >= n or text[i] != "=":
            add(name, i, i, "")
            continue
        i += 1
        # Before attribute value state.
        while i < n and text[i] in _WHITESPACE:
            i += 1
        if i < n and text[i] in "\"'":
            quote = text[i]
            close = text.find(quote, i + 1)
            close = n if close < 0 else close
            add(name, i + 1, close, quote)
            i = close + 1  # after attribute value (quoted): anything else starts a new name
            continue
        if i < n and text[i] == ">":  # a missing value
            add(name, i, i, "")
            continue
        value_start = i
        while i < n and text[i] not in _WHITESPACE and text[i] != ">":
            i += 1
        add(name, value_start, i, "")
    return StartTag(tag_name, tuple(attributes.values()), start, n)
