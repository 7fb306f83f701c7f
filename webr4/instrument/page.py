"""A document made ready to serve under control: instrumented, split into parse chunks, and
able to map locations in the served text back to the original file.

Preparing parses the HTML twice (instrumenting, chunking); a sweep serves the same document
hundreds of times, so :class:`DocumentCache` keeps the result by URL and content.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from webr4.instrument.cache import CachedRewriter
from webr4.instrument.chunks import MARKER_ORIGIN, MARKER_PATH, ChunkedDocument, ChunkModel, split_into_chunks
from webr4.instrument.document import InstrumentedDocument, instrument_document
from webr4.instrument.modules import MODULE_NOTICE_PATH
from webr4.instrument.policy import HarnessCode, amend_meta_policies, amend_policies
from webr4.instrument.positions import PositionMap, line_starts, to_offset, to_position
from webr4.places import split_site

# Marker URLs need not differ between executions: while the harness intercepts requests,
# Playwright keeps the browser's HTTP cache off.
_MARKER_TOKEN = "m"


@dataclass(frozen=True)
class PreparedDocument:
    url: str  # without query and fragment, as stack traces name it
    html: str  # what is served: the chunked document with its policies amended
    chunked: ChunkedDocument
    harness: HarnessCode  # what the page's policies must let run (see policy)
    sites: dict[str, str] = field(default_factory=dict)
    uncontrolled: list[str] = field(default_factory=list)
    position_maps: tuple[PositionMap, ...] = ()  # served -> original, applied in order
    served_lines: list[int] = field(default_factory=list)
    original_lines: list[int] = field(default_factory=list)
    originals: dict[str, str] = field(default_factory=dict)  # see InstrumentedDocument.originals
    scripts: tuple[tuple[int, str], ...] = ()  # see InstrumentedDocument.scripts

    def policy(self, value: str) -> str:
        """A policy the document's response delivers (a ``Content-Security-Policy`` header's
        value), amended to let run what webr4 serves in the page's place."""
        return amend_policies(value, self.harness)

    def script_at(self, line: int, column: int) -> tuple[str, int] | None:
        """The page's own inline script holding 1-based ``line``:``column`` of the original
        document, and the position's offset in it; None outside every rewritten script."""
        offset = to_offset(self.original_lines, line, column)
        for start, body in self.scripts:
            if start <= offset < start + len(body):
                return body, offset - start
        return None

    def original_site(self, site: str) -> str:
        """``url:line:col`` in the served document as a location in the original file; other
        sites are returned as they are."""
        return _original_site(site, self.url, self.served_lines, self.position_maps, self.original_lines)


@dataclass(frozen=True)
class FrameDocument:
    """A same-origin child frame's document as served: instrumented, not split (a frame's
    parsing is not controlled)."""

    url: str  # without query and fragment, as stack traces name it
    instrumented: InstrumentedDocument
    served_lines: list[int]
    original_lines: list[int]

    @property
    def originals(self) -> dict[str, str]:
        """See :attr:`~webr4.instrument.document.InstrumentedDocument.originals`."""
        return self.instrumented.originals

    def original_site(self, site: str) -> str:
        """``url:line:col`` in the served document as a location in the original file; other
        sites are returned as they are."""
        return _original_site(site, self.url, self.served_lines, (self.instrumented.positions,), self.original_lines)


def _original_site(site: str, url: str, served_lines: list[int], position_maps: tuple[PositionMap, ...],
                   original_lines: list[int]) -> str:
    """``site`` in the document served from ``url`` (lines starting at ``served_lines``, mapped
    back through ``position_maps`` in order) as a location in the original file, whose lines start
    at ``original_lines``; a site elsewhere as it is."""
    site_url, line, position = split_site(site)
    if site_url != url or line is None or position is None:
        return site
    offset = to_offset(served_lines, line, position)
    for positions in position_maps:
        offset = positions.original_offset(offset)
    line_no, column = to_position(original_lines, offset)
    return f"{site_url}:{line_no}:{column}"


def prepare_document(html: str, url: str, rewriter: CachedRewriter | None, model: ChunkModel) -> PreparedDocument:
    """Instrument (when ``rewriter`` is given) and split ``html``, served from ``url``, into the
    parse chunks of ``model``."""
    original_lines = line_starts(html)
    maps: list[PositionMap] = []
    sites: dict[str, str] = {}
    uncontrolled: list[str] = []
    originals: dict[str, str] = {}
    scripts: tuple[tuple[int, str], ...] = ()
    if rewriter is not None:
        instrumented = instrument_document(html, url, rewriter, "d")
        html, sites, uncontrolled = instrumented.html, instrumented.sites, instrumented.uncontrolled
        originals, scripts = instrumented.originals, instrumented.scripts
        maps.append(instrumented.positions)
    nonce = base64.urlsafe_b64encode(hashlib.sha256(html.encode()).digest()[:12]).decode()
    chunked = split_into_chunks(html, url, _MARKER_TOKEN, model, maps[0] if maps else None, nonce)
    parts = urlsplit(url)
    harness = HarnessCode(nonce, MARKER_ORIGIN + MARKER_PATH, originals,
                          f"{parts.scheme}://{parts.netloc}{MODULE_NOTICE_PATH}")
    served = amend_meta_policies(chunked.html, harness)
    maps[:0] = [served.positions, chunked.positions]
    return PreparedDocument(url.split("#")[0].split("?")[0], served.html, chunked, harness, sites, uncontrolled,
                            tuple(maps), line_starts(served.html), original_lines, originals | served.originals,
                            scripts)


@dataclass
class DocumentCache:
    """Prepared documents by URL, content and settings, and instrumented frame documents."""

    _entries: dict[str, PreparedDocument] = field(default_factory=dict)
    _frames: dict[str, FrameDocument] = field(default_factory=dict)

    def prepare(self, html: str, url: str, rewriter: CachedRewriter | None, model: ChunkModel) -> PreparedDocument:
        key = hashlib.sha256(f"{url}\0{rewriter is not None}\0{model!r}\0{html}".encode()).hexdigest()
        if key not in self._entries:
            self._entries[key] = prepare_document(html, url, rewriter, model)
        return self._entries[key]

    def frame_document(self, html: str, url: str, rewriter: CachedRewriter) -> FrameDocument:
        """A same-origin child frame's document ``html``, served from ``url``, instrumented; its
        script ids are its URL's own, the same in every execution whatever order frames load in."""
        key = hashlib.sha256(f"{url}\0{html}".encode()).hexdigest()
        if key not in self._frames:
            instrumented = instrument_document(html, url, rewriter, "f" + hashlib.sha256(url.encode()).hexdigest()[:8])
            self._frames[key] = FrameDocument(url.split("#")[0].split("?")[0], instrumented,
                                              line_starts(instrumented.html), line_starts(html))
        return self._frames[key]
