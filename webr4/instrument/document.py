"""Instrument the JavaScript inside an HTML document: inline scripts and handler attributes.

Each inline classic or module ``<script>`` body and each ``on…="…"`` attribute is rewritten with
:mod:`webr4.instrument.rewrite`; the rest of the document stays byte-identical. The rewriter
never inserts a newline, so every line keeps its number. Site locations of the rewritten code
are shifted to their place in the document (``page.html:LINE:COL``).
"""

from __future__ import annotations

import html as html_entities
import re
from dataclasses import dataclass, field

from bs4 import BeautifulSoup, Tag

from webr4.instrument.cache import CachedRewriter
from webr4.instrument.positions import PositionMap, line_starts, to_position

_JS_TYPES = frozenset(
    {"", "text/javascript", "application/javascript", "text/ecmascript", "application/ecmascript",
     "application/x-javascript", "text/jscript"}
)
_HANDLER_ATTRIBUTE = re.compile(r"""\s(on[a-z]+)\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+)""", re.IGNORECASE)


@dataclass(frozen=True)
class InstrumentedDocument:
    """The rewritten document; ``positions`` maps its offsets back to the original's."""

    html: str
    sites: dict[str, str] = field(default_factory=dict)
    uncontrolled: list[str] = field(default_factory=list)
    positions: PositionMap = field(default_factory=PositionMap)




def _shift_sites(sites: dict[str, str], url: str, line: int, column: int) -> dict[str, str]:
    """Sites are relative to a fragment starting at ``line``:``column`` of the document."""
    shifted = {}
    for site_id, where in sites.items():
        rest, _, col = where.rpartition(":")
        _, _, ln = rest.rpartition(":")
        fragment_line, fragment_col = int(ln), int(col)
        doc_col = fragment_col + column - 1 if fragment_line == 1 else fragment_col
        shifted[site_id] = f"{url}:{fragment_line + line - 1}:{doc_col}"
    return shifted


def _start_tag_end(text: str, start: int) -> int:
    """Offset just past the '>' closing the start tag at ``start`` (quotes respected)."""
    quote = ""
    for i in range(start, len(text)):
        ch = text[i]
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == ">":
            return i + 1
    return len(text)


def instrument_document(text: str, url: str, rewriter: CachedRewriter, id_prefix: str) -> InstrumentedDocument:
    """Rewrite the inline JavaScript of ``text`` (the document at ``url``).

    ``id_prefix`` makes the script ids of this document unique among all scripts of a run.
    """
    soup = BeautifulSoup(text, "html.parser")
    starts = line_starts(text)
    edits: list[tuple[int, int, str]] = []  # (start, end, replacement) in the original text
    sites: dict[str, str] = {}
    uncontrolled: list[str] = []
    count = 0
    for tag in soup.find_all(True):
        if not isinstance(tag, Tag) or tag.sourceline is None:
            continue
        tag_start = starts[tag.sourceline - 1] + tag.sourcepos
        tag_end = _start_tag_end(text, tag_start)
        for match in _HANDLER_ATTRIBUTE.finditer(text, tag_start, tag_end):
            raw = match.group(2)
            quoted = raw[0] in "\"'"
            body = html_entities.unescape(raw[1:-1] if quoted else raw)
            value_start = match.start(2) + (1 if quoted else 0)
            line, column = to_position(starts, value_start)
            count += 1
            result = rewriter.rewrite(body, url, script_id=f"{id_prefix}h{count}", handler=True)
            if result.code == body:
                continue
            sites.update(_shift_sites(result.sites, url, line, column))
            uncontrolled.extend(f"{u.kind} at {u.site}" for u in result.uncontrolled)
            edits.append((match.start(2), match.end(2), '"' + html_entities.escape(result.code, quote=True) + '"'))
        if tag.name != "script" or tag.has_attr("src"):
            continue
        kind = str(tag.get("type", "")).strip().lower()
        if kind not in _JS_TYPES and kind != "module":
            continue
        close = text.lower().find("</script", tag_end)
        body = text[tag_end : close if close >= 0 else len(text)]
        if not body.strip():
            continue
        line, column = to_position(starts, tag_end)
        count += 1
        result = rewriter.rewrite(body, url, script_id=f"{id_prefix}s{count}", module=kind == "module")
        sites.update(_shift_sites(result.sites, url, line, column))
        uncontrolled.extend(f"{u.kind} at {_shift_sites({'u': u.site}, url, line, column)['u']}" for u in result.uncontrolled)
        if result.code != body:
            edits.append((tag_end, tag_end + len(body), result.code))
    pieces: list[str] = []
    previous = 0
    for start, end, replacement in sorted(edits):
        pieces.append(text[previous:start])
        pieces.append(replacement)
        previous = end
    pieces.append(text[previous:])
    positions = PositionMap.from_replacements(text, edits, align=True)
    return InstrumentedDocument("".join(pieces), sites, uncontrolled, positions)
