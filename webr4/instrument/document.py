"""Instrument the JavaScript inside an HTML document: inline scripts and handler attributes.

Each inline classic or module ``<script>`` body and each event handler attribute (``onclick="…"``,
read as the HTML tokenizer reads attributes: see :mod:`webr4.instrument.tags`) is rewritten with
:mod:`webr4.instrument.rewrite`; the rest of the document stays byte-identical. The rewriter
never inserts a newline, so every line keeps its number. Site locations of the rewritten code
are shifted to their place in the document (``page.html:LINE:COL``).
"""

from __future__ import annotations

import html as html_entities
from dataclasses import dataclass, field

from bs4 import BeautifulSoup, Tag

from webr4.instrument.cache import CachedRewriter
from webr4.instrument.positions import PositionMap, Replacement, aligned, line_starts, to_position
from webr4.instrument.tags import read_start_tag

_JS_TYPES = frozenset(
    {"", "text/javascript", "application/javascript", "text/ecmascript", "application/ecmascript",
     "application/x-javascript", "text/jscript"}
)
# Event handler content attributes (HTML Living Standard §8.1.8.2, GlobalEventHandlers, plus the
# pointer, touch, animation and transition handlers Chromium also has); any other on… attribute
# is plain data.
_GLOBAL_HANDLERS = frozenset(
    ("on" + name) for name in """
    abort auxclick beforeinput beforematch beforetoggle blur cancel canplay canplaythrough change
    click close command contextlost contextmenu contextrestored copy cuechange cut dblclick drag
    dragend dragenter dragleave dragover dragstart drop durationchange emptied ended error focus
    formdata input invalid keydown keypress keyup load loadeddata loadedmetadata loadstart
    mousedown mouseenter mouseleave mousemove mouseout mouseover mouseup paste pause play playing
    progress ratechange reset resize scroll scrollend securitypolicyviolation seeked seeking select
    slotchange stalled submit suspend timeupdate toggle volumechange waiting wheel
    webkitanimationend webkitanimationiteration webkitanimationstart webkittransitionend
    animationstart animationend animationiteration animationcancel
    transitionrun transitionstart transitionend transitioncancel
    pointerdown pointerup pointermove pointerover pointerout pointerenter pointerleave
    pointercancel pointerrawupdate gotpointercapture lostpointercapture
    touchstart touchend touchmove touchcancel selectstart selectionchange
    """.split()
)
# WindowEventHandlers: handlers of the window, set from <body> and <frameset> (§8.1.8.2).
_WINDOW_HANDLERS = frozenset(
    ("on" + name) for name in """
    afterprint beforeprint beforeunload hashchange languagechange message messageerror offline
    online pagehide pagereveal pageshow pageswap popstate rejectionhandled storage
    unhandledrejection unload
    """.split()
)
# Elements whose content the tokenizer reads as text (RCDATA, RAWTEXT, or noscript with scripting
# on): a "tag" html.parser finds inside them is not an element.
_TEXT_ONLY = frozenset({"title", "textarea", "style", "xmp", "iframe", "noembed", "noframes", "noscript", "plaintext"})


def is_event_handler_attribute(tag_name: str, attribute: str) -> bool:
    """Whether ``attribute`` (lowercased) on a ``tag_name`` element is an event handler."""
    return attribute in _GLOBAL_HANDLERS or (tag_name in ("body", "frameset") and attribute in _WINDOW_HANDLERS)


@dataclass(frozen=True)
class InstrumentedDocument:
    """The rewritten document; ``positions`` maps its offsets back to the original's, and
    ``originals`` maps the code of each rewritten inline script and handler attribute, as the
    DOM holds it, to the page's own text (what the DOM holds in plain Chromium); ``scripts`` has
    each rewritten inline script's body and its offset in the original document."""

    html: str
    sites: dict[str, str] = field(default_factory=dict)
    uncontrolled: list[str] = field(default_factory=list)
    positions: PositionMap = field(default_factory=PositionMap)
    originals: dict[str, str] = field(default_factory=dict)
    scripts: tuple[tuple[int, str], ...] = ()




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


def instrument_document(text: str, url: str, rewriter: CachedRewriter, id_prefix: str) -> InstrumentedDocument:
    """Rewrite the inline JavaScript of ``text`` (the document at ``url``).

    ``id_prefix`` makes the script ids of this document unique among all scripts of a run.
    """
    soup = BeautifulSoup(text, "html.parser")
    starts = line_starts(text)
    edits: list[Replacement] = []  # in the original text
    originals: dict[str, str] = {}
    scripts: list[tuple[int, str]] = []
    sites: dict[str, str] = {}
    uncontrolled: list[str] = []
    count = 0
    for tag in soup.find_all(True):
        if not isinstance(tag, Tag) or tag.sourceline is None or tag.sourcepos is None:
            continue
        if any(parent.name in _TEXT_ONLY for parent in tag.parents):
            continue
        start_tag = read_start_tag(text, starts[tag.sourceline - 1] + tag.sourcepos)
        tag_end = start_tag.end
        for attribute in start_tag.attributes:
            if not is_event_handler_attribute(start_tag.name, attribute.name):
                continue
            body = html_entities.unescape(text[attribute.value_start : attribute.value_end])
            line, column = to_position(starts, attribute.value_start)
            count += 1
            result = rewriter.rewrite(body, url, script_id=f"{id_prefix}h{count}", handler=True)
            if result.code == body:
                continue
            originals[result.code] = body
            sites.update(_shift_sites(result.sites, url, line, column))
            uncontrolled.extend(f"{u.kind} at {u.site}" for u in result.uncontrolled)
            # Written back inside the quotes it had; an unquoted value gets double quotes.
            escaped = html_entities.escape(result.code, quote=True)
            value = escaped if attribute.quote else f'"{escaped}"'
            edits.append(Replacement(attribute.value_start, attribute.value_end, value,
                                     aligned(text[attribute.value_start : attribute.value_end], value)))
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
        uncontrolled.extend(f"{u.kind} at {_shift_sites({'u': u.site}, url, line, column)['u']}"
                            for u in result.uncontrolled)
        if result.code != body:
            originals[result.code] = body
            scripts.append((tag_end, body))
            edits.append(Replacement(tag_end, tag_end + len(body), result.code, result.positions))
    pieces: list[str] = []
    previous = 0
    for start, end, replacement, _ in sorted(edits, key=lambda edit: edit.start):
        pieces.append(text[previous:start])
        pieces.append(replacement)
        previous = end
    pieces.append(text[previous:])
    positions = PositionMap.from_replacements(text, edits)
    return InstrumentedDocument("".join(pieces), sites, uncontrolled, positions, originals, tuple(scripts))
