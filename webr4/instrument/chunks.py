"""Split an HTML document into parse chunks the harness releases one at a time.

Chromium cannot be told to pause its HTML parser, but a parser-blocking external script can:
the parser stops at ``<script src=…>`` until the script's response arrives. So the document is
served with a *marker* script before each chunk, whose response the harness holds until it
decides that chunk runs; an inline call at the end of each chunk tells the page runtime the
chunk is done. Both markers remove themselves from the DOM when they run.

The head is parsed as one first event (nothing else can run before it in any browser); markers
start inside ``<body>``, because while a parser-blocking script is pending in the head Chromium
holds back low-priority requests such as async scripts. Where the tag starts a line, the marker
goes at the end of the previous line, so every original line keeps its number and every column
after the tag's line keeps its place: source locations in the page stay those of the original file.

Where the markers go is the *chunk model* (:class:`ChunkModel`):

``yield`` (the default)
    Only where Chromium's parser can let other tasks run. The HTML Living Standard's tree builder
    "spins the event loop" at the end tag of a script while the document has a pending
    parsing-blocking script or a style sheet that is blocking scripts (§13.2.6.4.8, the "text"
    insertion mode), and the parser otherwise runs from the networking tasks that deliver the
    document's bytes as they arrive. So a chunk ends before each parser-blocking external
    script, before the first script after a style sheet, and where the next bytes of a long
    document may not have arrived yet, modelled as every ``arrival_kb`` kilobytes of source.
    Between an element and an inline script in the same stretch nothing else can run, in
    Chromium as in the standard.
``element``
    R4's adversarial model: before scripts, resources (images, frames, stylesheets) and elements
    that scripts or users target (an ``id``, an inline ``on…`` handler, form controls, links),
    whether or not a browser could stop there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from bs4 import BeautifulSoup, Tag

from webr4.errors import Webr4Error
from webr4.instrument.modules import imported_urls
from webr4.instrument.positions import PositionMap, Replacement, line_starts

# Markers come from an origin of their own that only the harness answers: held marker requests
# then never take one of the six connections Chromium allows per host, which the page's own
# requests need while the markers wait. It is an https: origin, so that an https: page may load
# them: Chromium blocks an http: script there as mixed content.
MARKER_ORIGIN = "https://webr4-parse.invalid"
MARKER_PATH = "/__webr4__/chunk/"

_BOUNDARY_TAGS = frozenset(
    {"script", "img", "iframe", "frame", "link", "style", "input", "button", "form", "select",
     "textarea", "a", "video", "audio", "object", "embed", "picture"}
)
# Inside these, a <script> element would change what the parser builds.
_NO_BOUNDARY_INSIDE = frozenset(
    {"template", "svg", "math", "noscript", "select", "textarea", "title", "iframe", "object",
     "table", "thead", "tbody", "tfoot", "tr", "colgroup", "frameset", "head"}
)
_JS_TYPES = frozenset(
    {"", "text/javascript", "application/javascript", "text/ecmascript", "application/ecmascript",
     "application/x-javascript", "text/jscript"}
)


CHUNK_MODELS = ("yield", "element")


class ChunkModelError(Webr4Error, ValueError):
    """A parse-chunk model that is none of :data:`CHUNK_MODELS`, or a data-arrival interval below 1 KB."""


@dataclass(frozen=True)
class ChunkModel:
    """Where a document is split into parse chunks (see the module docstring).

    ``kind`` is ``yield`` or ``element``; ``arrival_kb`` is the data-arrival interval of the
    ``yield`` model; ``max_chunks`` bounds the number of parse events in either model.
    """

    kind: str = "yield"
    arrival_kb: int = 16
    max_chunks: int = 64

    def __post_init__(self) -> None:
        if self.kind not in CHUNK_MODELS:
            raise ChunkModelError(f"unknown parse-chunk model {self.kind!r}; known: {', '.join(CHUNK_MODELS)}")
        if self.arrival_kb < 1:
            raise ChunkModelError("the data-arrival interval must be at least 1 KB")

    def describe(self) -> str:
        """The model in words, as summaries and reports name it."""
        if self.kind == "element":
            return "element (a chunk before every script, resource and targeted element)"
        return f"yield (chunks only where Chromium can yield; data arriving every {self.arrival_kb} KB)"


@dataclass(frozen=True)
class ChunkedDocument:
    """A document rewritten with parse-chunk markers.

    ``chunks`` is the number of parse chunks after the head (each one event); the head itself is
    always the first event. ``blocking_scripts``
    lists the absolute URLs of parser-blocking external scripts, in document order: they run
    inside their chunk and must be served at once, while every other classic script is an event
    of its own that the harness holds. ``module_scripts`` are the module graph's roots: module
    code fetches its imports itself, so it is served at once and runs at the browser's time.
    """

    html: str
    chunks: int
    blocking_scripts: list[str] = field(default_factory=list)
    module_scripts: list[str] = field(default_factory=list)
    positions: PositionMap = field(default_factory=PositionMap)
    """Maps offsets of ``html`` back to the document that was split."""
    waits: list[str | None] = field(default_factory=list)
    """For each chunk, what Chromium's parser waits for before it, in words (``script
    /js/app.js``, ``style sheet /css/site.css``, ``more of the document``); ``None`` where no
    browser waits (a boundary only the ``element`` model draws)."""
    openers: list[str | None] = field(default_factory=list)
    """For each chunk, the absolute URL of the parser-blocking script it starts with (the parser
    waits for its response there, so holding that response holds the chunk back), else ``None``."""


def _is_boundary(tag: Tag) -> bool:
    if tag.name in _BOUNDARY_TAGS:
        return True
    return "id" in tag.attrs or any(name.startswith("on") for name in tag.attrs)


def _script_kind(tag: Tag) -> str | None:
    """``classic`` or ``module`` for a script element that runs, else ``None``."""
    if tag.name != "script":
        return None
    kind = str(tag.get("type", "")).strip().lower()
    if kind == "module":
        return "module"
    return "classic" if kind in _JS_TYPES else None


def _is_parser_blocking(tag: Tag) -> bool:
    """An external classic script without ``async`` or ``defer``: the parser waits for it."""
    return (_script_kind(tag) == "classic" and tag.has_attr("src")
            and not (tag.has_attr("async") or tag.has_attr("defer")))


def _is_stylesheet(tag: Tag) -> bool:
    rel = tag.get("rel", "")  # Beautiful Soup splits rel into a list of tokens
    tokens = rel if isinstance(rel, list) else str(rel).split()
    return tag.name == "link" and tag.has_attr("href") and "stylesheet" in (t.lower() for t in tokens)


def _inside_forbidden(tag: Tag) -> bool:
    return any(parent.name in _NO_BOUNDARY_INSIDE for parent in tag.parents)


def _insertion_point(text: str, offset: int) -> int:
    """Before the newline that precedes ``offset`` when only blanks separate them."""
    line_start = text.rfind("\n", 0, offset)
    if line_start >= 0 and text[line_start + 1 : offset].strip() == "":
        return line_start
    return offset


def _first_chunk_point(text: str, soup: BeautifulSoup, offsets: list[int], candidates: list[int]) -> int | None:
    """Just inside <body>; without a body tag, at the first boundary outside the head."""
    body = soup.find("body")
    if isinstance(body, Tag) and body.sourceline is not None and body.sourcepos is not None:
        end = text.find(">", offsets[body.sourceline - 1] + body.sourcepos)
        if end >= 0:
            return end + 1
    return min(candidates) if candidates else None


def _base(soup: BeautifulSoup, base_url: str) -> str:
    """The URL the document's relative URLs resolve against (its ``<base href>``, if any)."""
    base_tag = soup.find("base", href=True)
    return urljoin(base_url, str(base_tag["href"])) if isinstance(base_tag, Tag) else base_url


def _script_urls(soup: BeautifulSoup, base_url: str) -> tuple[list[str], list[str]]:
    """(parser-blocking classic script URLs, module URLs: external module scripts and the imports
    of inline ones), absolute, in document order."""
    base = _base(soup, base_url)
    blocking: list[str] = []
    modules: list[str] = []
    for script in soup.find_all("script"):
        if _script_kind(script) == "module":
            if script.has_attr("src"):
                modules.append(urljoin(base, str(script["src"])))
            else:
                modules.extend(imported_urls(script.get_text(), base))
        elif _is_parser_blocking(script):
            blocking.append(urljoin(base, str(script["src"])))
    return blocking, modules


Boundary = tuple[int, bool, str | None]
"""Where a chunk starts: (offset, whether a script starts it, what the parser waits for there)."""

MORE_OF_THE_DOCUMENT = "more of the document"


def _element_boundaries(tags: list[tuple[Tag, int, bool]], url: Callable[[str], str]) -> list[Boundary]:
    """Before every tag where a page's behaviour can change; only a parser-blocking script is
    waited for (``url`` names its source as people read it)."""
    return [(offset, tag.name == "script", f"script {url(str(tag['src']))}" if _is_parser_blocking(tag) else None)
            for tag, offset, allowed in tags if allowed and _is_boundary(tag)]


def _yield_boundaries(tags: list[tuple[Tag, int, bool]], arrival: int,
                      delivered: Callable[[int], int], url: Callable[[str], str]) -> list[Boundary]:
    """Where Chromium's parser can yield, and what it waits for there: before a parser-blocking
    external script (the script), before the first script after a style sheet (the sheet), and
    at the first tag at or after every ``arrival`` characters of the document as delivered (the
    next bytes, which may not be there); ``delivered`` maps an offset to that document's, and
    ``url`` names a source as people read it."""
    found: list[Boundary] = []
    sheet: str | None = None  # the last style sheet no script has waited for yet
    next_arrival = arrival
    for tag, offset, allowed in tags:
        kind = _script_kind(tag)
        if _is_stylesheet(tag):
            sheet = str(tag["href"])
        if not allowed:
            if kind == "classic":
                sheet = None  # it waited inside the head, which is one event
            continue
        if _is_parser_blocking(tag):
            found.append((offset, True, f"script {url(str(tag['src']))}"))
            sheet = None
        elif kind == "classic" and sheet is not None:
            found.append((offset, True, f"style sheet {url(sheet)}"))
            sheet = None
        elif delivered(offset) >= next_arrival:
            found.append((offset, False, MORE_OF_THE_DOCUMENT))
        else:
            continue
        next_arrival = (delivered(offset) // arrival + 1) * arrival
    return found


def _short_url(base: str, document_url: str) -> Callable[[str], str]:
    """A source URL as the page's event labels give it: path and query on the document's own
    origin, the whole URL elsewhere."""
    home = urlsplit(document_url)

    def short(raw: str) -> str:
        absolute = urlsplit(urljoin(base, raw))
        if (absolute.scheme, absolute.netloc) != (home.scheme, home.netloc):
            return absolute.geturl()
        return absolute.path + (f"?{absolute.query}" if absolute.query else "")

    return short


def _unsplit(html: str, soup: BeautifulSoup, base_url: str) -> ChunkedDocument:
    """The document served as it is: one parse event."""
    return ChunkedDocument(html, 0, *_script_urls(soup, base_url), PositionMap.from_replacements(html, []))


def split_into_chunks(html: str, base_url: str, token: str, model: ChunkModel = ChunkModel(),
                      delivered: PositionMap | None = None, nonce: str = "") -> ChunkedDocument:
    """Insert parse-chunk markers into ``html`` where ``model`` puts chunk boundaries.

    ``token`` goes into the marker URLs (so that documents split differently never share them);
    ``nonce``, when given, is the ``nonce`` attribute of every script inserted (the page's policy
    lets them run by it: :mod:`webr4.instrument.policy`).
    When ``html`` is a rewritten copy of the document, ``delivered`` maps its offsets back to the
    document the network delivered: data arrival is counted there, so that a document is split at
    the same places whether or not its inline scripts were rewritten.
    ``model.max_chunks`` bounds the number of parse events: script boundaries are kept first,
    then the others in document order.
    """
    soup = BeautifulSoup(html, "html.parser")
    offsets = line_starts(html)
    tags = [(tag, offsets[tag.sourceline - 1] + tag.sourcepos, not _inside_forbidden(tag))
            for tag in soup.find_all(True) if tag.sourceline is not None and tag.sourcepos is not None]
    url = _short_url(_base(soup, base_url), base_url)
    elements = _element_boundaries(tags, url)
    to_delivered = delivered.original_offset if delivered is not None else (lambda offset: offset)
    first = _first_chunk_point(html, soup, offsets, [o for o, _, _ in elements])
    if first is None:
        return _unsplit(html, soup, base_url)
    if model.kind == "element":
        candidates = [c for c in elements if c[0] >= first]
    else:
        candidates = [c for c in _yield_boundaries(tags, model.arrival_kb * 1024, to_delivered, url) if c[0] >= first]
    max_chunks = model.max_chunks
    if len(candidates) > max_chunks - 1:
        scripts = [c for c in candidates if c[1]]
        others = [c for c in candidates if not c[1]]
        room = max(0, max_chunks - 1 - len(scripts))
        candidates = sorted(scripts[: max_chunks - 1] + others[:room], key=lambda c: c[0])
    waits: dict[int, str | None] = {}
    for offset, _script, wait in candidates:
        waits.setdefault(_insertion_point(html, offset), wait)
    if model.kind == "element":
        waits.setdefault(first, None)  # R4 always splits at <body>
    points = sorted(p for p in waits if p >= first)
    if not points:
        return _unsplit(html, soup, base_url)

    inserts = _markers(points, len(html.rstrip("\n")), token, nonce)  # the last chunk ends before a trailing newline
    pieces: list[str] = []
    previous = 0
    for point, text in inserts:
        pieces.append(html[previous:point])
        pieces.append(text)
        previous = point
    pieces.append(html[previous:])
    positions = PositionMap.from_replacements(html, [Replacement(p, p, t) for p, t in inserts])
    blocking, modules = _script_urls(soup, base_url)
    return ChunkedDocument("".join(pieces), len(points), blocking, modules, positions,
                           waits=[waits[p] for p in points],
                           openers=_openers(points, candidates, tags, _base(soup, base_url)))


def _markers(points: list[int], end: int, token: str, nonce: str) -> list[tuple[int, str]]:
    """The scripts to insert, with their offsets: at each chunk's start ``points``, the end of
    the chunk before and the marker the chunk waits for; at ``end``, the end of the last chunk."""
    total = len(points)
    script = f'<script nonce="{nonce}"' if nonce else "<script"
    inserts = [
        (point, f"{script}>window.__webr4&&__webr4.chunkEnd({index - 1},{total})</script>"
                f'{script} src="{MARKER_ORIGIN}{MARKER_PATH}{token}/{index}"></script>')
        for index, point in enumerate(points)
    ]
    inserts.append((end, f"{script}>window.__webr4&&__webr4.chunkEnd({total - 1},{total})</script>"))
    return inserts


def _openers(points: list[int], candidates: list[tuple[int, bool, str | None]], tags: list[tuple[Tag, int, bool]],
             base: str) -> list[str | None]:
    """For each chunk starting at one of ``points``, the URL of the parser-blocking script at its
    start, else ``None``."""
    by_offset = {offset: tag for tag, offset, _allowed in tags}
    scripts: dict[int, str] = {}
    for offset, is_script, _wait in candidates:
        tag = by_offset.get(offset)
        if is_script and tag is not None and _is_parser_blocking(tag):
            scripts.setdefault(_insertion_point_of(offset, points), urljoin(base, str(tag["src"])))
    return [scripts.get(point) for point in points]


def _insertion_point_of(offset: int, points: list[int]) -> int:
    """The last of ``points`` at or before ``offset``: where the chunk holding ``offset`` starts."""
    return max((p for p in points if p <= offset), default=-1)
