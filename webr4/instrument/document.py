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
from webr4.instrument.tags import Attribute, read_start_tag

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
    document = _DocumentRewrite(text, url, rewriter, id_prefix)
    for tag in soup.find_all(True):
        if not isinstance(tag, Tag) or tag.sourceline is None or tag.sourcepos is None:
            continue
        if any(parent.name in _TEXT_ONLY for parent in tag.parents):
            continue
        start_tag = read_start_tag(text, document.starts[tag.sourceline - 1] + tag.sourcepos)
        for attribute in start_tag.attributes:
            if is_event_handler_attribute(start_tag.name, attribute.name):
                document.handler(attribute)
        if tag.name == "script" and not tag.has_attr("src"):
            document.inline_script(str(tag.get("type", "")).strip().lower(), start_tag.end)
    return document.result()


class _DocumentRewrite:
    """A document's inline code being rewritten, in document order: the replacements in the
    original text so far and what the instrumented document reports about them."""

    def __init__(self, text: str, url: str, rewriter: CachedRewriter, id_prefix: str) -> None:
        self.text = text
        self.url = url
        self.rewriter = rewriter
        self.id_prefix = id_prefix
        self.starts = line_starts(text)
        self.edits: list[Replacement] = []  # in the original text
        self.originals: dict[str, str] = {}
        self.scripts: list[tuple[int, str]] = []
        self.sites: dict[str, str] = {}
        self.uncontrolled: list[str] = []
        self.count = 0  # the handlers and inline scripts given a script id so far

    def script_id(self, kind: str) -> str:
        """The next script id of this document (``kind``: ``h`` a handler, ``s`` a script)."""
        self.count += 1
        return f"{self.id_prefix}{kind}{self.count}"

    def handler(self, attribute: Attribute) -> None:
        """Rewrite an event handler attribute's value, written back inside the quotes it had."""
        text, url = self.text, self.url
        body = html_entities.unescape(text[attribute.value_start : attribute.value_end])
        line, column = to_position(self.starts, attribute.value_start)
        result = self.rewriter.rewrite(body, url, script_id=self.script_id("h"), handler=True)
        if result.code == body:
            return
        self.originals[result.code] = body
        self.sites.update(_shift_sites(result.sites, url, line, column))
        self.uncontrolled.extend(f"{u.kind} at {u.site}" for u in result.uncontrolled)
        # Written back inside the quotes it had; an unquoted value gets double quotes.
        escaped = html_entities.escape(result.code, quote=True)
        value = escaped if attribute.quote else f'"{escaped}"'
        self.edits.append(Replacement(attribute.value_start, attribute.value_end, value,
                                      aligned(text[attribute.value_start : attribute.value_end], value)))

    def inline_script(self, kind: str, tag_end: int) -> None:
        """Rewrite the body of an inline script of type ``kind`` (lowercased), which starts at
        ``tag_end``; a script that is not JavaScript, or is empty, stays as it is."""
        text, url = self.text, self.url
        if kind not in _JS_TYPES and kind != "module":
            return
        close = text.lower().find("</script", tag_end)
        body = text[tag_end : close if close >= 0 else len(text)]
        if not body.strip():
            return
        line, column = to_position(self.starts, tag_end)
        result = self.rewriter.rewrite(body, url, script_id=self.script_id("s"), module=kind == "module")
        self.sites.update(_shift_sites(result.sites, url, line, column))
        self.uncontrolled.extend(f"{u.kind} at {_shift_sites({'u': u.site}, url, line, column)['u']}"
                                 for u in result.uncontrolled)
        if result.code != body:
            self.originals[result.code] = body
            self.scripts.append((tag_end, body))
            self.edits.append(Replacement(tag_end, tag_end + len(body), result.code, result.positions))

    def result(self) -> InstrumentedDocument:
        """The document with every replacement made, and its map back to the original."""
        text = self.text
        pieces: list[str] = []
        previous = 0
        for start, end, replacement, _ in sorted(self.edits, key=lambda edit: edit.start):
            pieces.append(text[previous:start])
            pieces.append(replacement)
            previous = end
        pieces.append(text[previous:])
        positions = PositionMap.from_replacements(text, self.edits)
        return InstrumentedDocument("".join(pieces), self.sites, self.uncontrolled, positions, self.originals,
                                    tuple(self.scripts))
