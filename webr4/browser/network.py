"""The harness's hand on the network: serve, record, replay, and hold.

One :class:`NetworkGate` per execution sits behind ``page.route("**/*")``:

* the first main-frame document is fetched (live or from the store), split into parse chunks
  (:mod:`webr4.instrument.chunks`) and served;
* parse-chunk markers and non-parser-blocking scripts are **held** until the controller releases
  them: that is how parse chunks and script executions become events. A held script's response
  is fetched (live or from the store) and rewritten as soon as the browser asks for it, as
  Chromium would fetch it, in the background: its release then only waits for what is left;
* a child frame's requests (its document, its scripts) are answered at once and as recorded:
  frames run natively;
* every other request is answered at once, from the store when replaying, from the live site
  when recording (the response is then added to the store), with the headers the server sent
  wherever the page reads them (:func:`~webr4.browser.headers.served_headers`);
* a document's policies are served amended for webr4's own code (:mod:`webr4.instrument.policy`);
  what the browser blocks by them, or as mixed content, before the network is recorded as the
  failure it was (:meth:`NetworkGate.request_failed`);
* a request that got no response when recording (an unresolvable host, a refused or reset
  connection, a timeout) is recorded as that failure (:mod:`webr4.browser.neterrors`) and fails
  in every replay as it failed then: the page sees Chromium's failure, an outcome like a response;
  one the page gave up on before its answer came (an XHR's timeout) is left unanswered in
  replays, so that the page gives up on it again;
* a later top-level navigation (of the page, or of a window it opens) is refused, and its
  target kept in :attr:`NetworkGate.navigation`: an execution covers one document, and leaving
  it is the execution's outcome;
* an allowed service worker's requests (its scripts, its own fetches) are answered at once as
  recorded, never rewritten nor held: it runs natively, listed in ``uncontrolled``.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Request, Route

from webr4.browser.frames import JoiningFrames, frame_of, is_top_level
from webr4.browser.headers import is_policy, served_headers
from webr4.browser.allowance import HarnessTime
from webr4.browser.neterrors import ABORTED, abort_reason, blocked_error, chromium_error
from webr4.browser.responses import ResponseStore, StoredResponse
from webr4.instrument import thrown
from webr4.instrument.cache import CachedRewriter
from webr4.instrument.chunks import MARKER_ORIGIN, MARKER_PATH, ChunkModel
from webr4.instrument.modules import MODULE_NOTICE_PATH, imported_urls
from webr4.instrument.positions import line_starts, to_offset, to_position
from webr4.instrument.page import DocumentCache, FrameDocument, PreparedDocument
from webr4.places import short_url, split_site
from webr4.trace import Navigation
from webr4.instrument.rewrite import RewriteResult
from webr4.errors import Webr4Error

_MARKER_BODY = "document.currentScript&&document.currentScript.remove()"
MAX_BODY_BYTES = 10 * 2**20  # larger responses are refused when recording: they cannot be replayed in time



class NetworkError(Webr4Error):
    """The page's document could not be loaded (one-line message for the user)."""


@dataclass(frozen=True)
class _Rewrite:
    """A script's rewrite, not yet applied to the gate (:meth:`NetworkGate._apply`)."""

    url: str
    source: str
    module: bool
    result: RewriteResult


@dataclass(frozen=True)
class _Prepared:
    """What a held script's release serves: the response (None: not in the recorded session), the
    notes fetching it made, and its rewrite (None when it is served as it came)."""

    response: StoredResponse | None
    notes: list[str]
    rewrite: _Rewrite | None


@dataclass(frozen=True)
class _HeldRoute:
    route: Route
    prepared: asyncio.Task[_Prepared] | None = None  # a script's response and rewrite, under way


@dataclass
class _Held:
    """Routes that arrived for one key and are waiting to be released, in arrival order."""

    routes: list[_HeldRoute] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)


class NetworkGate:
    """Answers or holds every request of one execution.

    ``store`` is the recorded network to replay; with ``record=True`` live responses are fetched
    and added to it instead. ``notes`` collects what the trace should mention (requests missing
    from a recording). ``navigation`` is the first top-level navigation the page attempted after
    its document (refused); ``navigated`` is set when it arrives. ``busy_s`` is the wall time
    spent so far preparing the document and rewriting scripts: the harness's, not the page's.
    """

    def __init__(self, store: ResponseStore, *, record: bool, rewriter: CachedRewriter | None = None,
                 documents: DocumentCache | None = None, chunking: ChunkModel = ChunkModel()) -> None:
        self.store = store
        self.record = record
        self.rewriter = rewriter  # None: scripts are served as they are (no access log)
        self.sites: dict[str, str] = {}  # site id of rewritten code -> url:line:col
        self._rewritten: dict[str, RewriteResult] = {}  # script URL -> what it was served as
        self._sources: dict[str, str] = {}  # script URL -> the page's own source of a rewritten script
        self.uncontrolled: list[str] = []
        self._harness_time = HarnessTime()  # spent preparing documents and scripts for the page

        self.chunking = chunking
        self.documents = documents if documents is not None else DocumentCache()
        self.document: PreparedDocument | None = None
        self._joining = JoiningFrames()
        self._frames: dict[str, FrameDocument] = {}  # the joining frames' documents by URL
        self.document_error: str | None = None
        self.document_ready = asyncio.Event()
        self.navigation: Navigation | None = None
        self.navigated = asyncio.Event()
        self._page_frame: Frame | None = None
        self.notes: list[str] = []
        self._blocking: Counter[str] = Counter()
        self._modules: set[str] = set()  # module graph URLs: served at once, grown as modules are served
        self._held: dict[str, _Held] = defaultdict(_Held)
        self._unanswered: list[Route] = []  # requests the page gave up on when recorded: never answered
        self._fetching: dict[int, tuple[str, str, bytes | None]] = {}  # recording: live fetches under way
        self._abandoned = False

    @property
    def originals(self) -> dict[str, str]:
        """Served code of the document's inline scripts and handler attributes → the page's own
        text (:attr:`~webr4.instrument.document.InstrumentedDocument.originals`), its same-origin
        frames' documents' too."""
        originals = {served: own for frame in self._frames.values() for served, own in frame.originals.items()}
        return originals | (self.document.originals if self.document is not None else {})

    @property
    def busy_s(self) -> float:
        """Seconds spent preparing for the page so far, a rewrite still under way included."""
        return self._harness_time.seconds

    async def handle(self, route: Route, request: Request) -> None:
        try:
            await self._handle(route, request)
        except PlaywrightError:
            pass  # the page went away while we answered: nothing left to serve

    async def _handle(self, route: Route, request: Request) -> None:
        url = request.url
        path = urlsplit(url).path
        if url.startswith(MARKER_ORIGIN + MARKER_PATH):
            self._hold(f"chunk:{path.rsplit('/', 1)[-1]}", _HeldRoute(route))
        elif path == MODULE_NOTICE_PATH:
            await self._module_noticed(route, request)
        elif not is_top_level(frame := frame_of(request)):
            await self._serve_to_child_frame(route, request, frame)
        elif request.is_navigation_request():
            await self._serve_document(route, request, frame)
        elif request.service_worker is not None:
            await self._serve_service_worker(route, request, request.service_worker.url)
        elif request.resource_type == "script" and url not in self._modules and not self._take_blocking(url):
            prepared = None if self._abandoned else asyncio.ensure_future(self._prepare(route, request))
            self._hold(f"script:{url}", _HeldRoute(route, prepared))
        else:
            await self._serve(route, request)

    async def _module_noticed(self, route: Route, request: Request) -> None:
        """The page runtime's notice of a dynamic import (``importUrl`` in
        ``instrument_js/runtime/parsing.js``): the module at its URL, which a script may have
        computed, is served at once, its request too when it came first and is held."""
        module_url = parse_qs(urlsplit(request.url).query).get("url", [""])[0]
        held = self._held.get(f"script:{module_url}")
        if module_url:
            self._modules.add(module_url)
        while held is not None and held.routes:
            await self._serve_held(module_url, held.routes.pop(0), instrument=True)
        await route.fulfill(status=204)

    def _take_blocking(self, url: str) -> bool:
        if self._blocking[url] > 0:
            self._blocking[url] -= 1
            return True
        return False

    def _hold(self, key: str, held_route: _HeldRoute) -> None:
        held = self._held[key]
        held.routes.append(held_route)
        held.arrived.set()

    async def release_chunk(self, index: int, timeout: float) -> None:
        route = (await self._next_held(f"chunk:{index}", timeout)).route
        await self._harness_time.quiet()  # the scripts the chunk will block on are served first
        await route.fulfill(status=200, content_type="text/javascript", body=_MARKER_BODY)

    async def release_script(self, url: str, timeout: float, *, instrument: bool = True) -> None:
        """Serve the held script ``url``, the first of its requests still held; ``instrument=False``
        serves it as recorded (a worker's script: the access log it would call does not exist in
        a worker). Cancelled while it waits for the request, it serves nothing (the script ran without
        one: Chromium asks once for a URL several elements want); once it has the request, it
        serves it to the end."""
        held = await self._next_held(f"script:{url}", timeout)
        await asyncio.shield(self._serve_held(url, held, instrument))

    async def _serve_held(self, url: str, held: _HeldRoute, instrument: bool) -> None:
        route = held.route
        prepared = await held.prepared if held.prepared is not None else await self._prepare(route, route.request)
        self.notes.extend(prepared.notes)
        response = prepared.response
        if response is None:
            await self._not_recorded(route, route.request)
            return
        body = response.body
        rewrite = prepared.rewrite
        if rewrite is not None and rewrite.module != (url in self._modules):
            rewrite = await self._rewrite(response, url)  # held before the page told it is a module
        if rewrite is not None and instrument:
            body = self._apply(rewrite)
        elif url in self._modules and response.status < 300:
            self._modules.update(imported_urls(response.text, url))
        await self._answer(route, response, body)

    async def _prepare(self, route: Route, request: Request) -> _Prepared:
        """Fetch a held script's response and rewrite it, counted as work done ahead of need."""
        notes: list[str] = []
        with self._harness_time.counting(ahead=True):
            response = await self._response_for(route, request, notes)
            rewrite = None
            if response is not None and _succeeded(response) and self.rewriter is not None:
                rewrite = await self._rewrite(response, request.url)
        return _Prepared(response, notes, rewrite)

    async def _next_held(self, key: str, timeout: float) -> _HeldRoute:
        held = self._held[key]
        while not held.routes:
            held.arrived.clear()
            await asyncio.wait_for(held.arrived.wait(), timeout)
        return held.routes.pop(0)

    def original_site(self, site: str | None) -> str | None:
        """A site id of rewritten code, or ``url:line:col`` in the served document or in a
        rewritten script, as a location in the original source."""
        if site in self.sites:
            return self.sites[site]
        if not site:
            return site
        url, line, column = split_site(site)
        if url in self._rewritten and line is not None and column is not None:
            original_column = self._rewritten[url].original_column(line, column)
            if original_column is not None:
                return f"{url}:{line}:{original_column}"
        frame = self._frames.get(url)
        if frame is not None:
            return frame.original_site(site)
        if self.document is None:
            return site
        return self.document.original_site(site)

    def page_error(self, message: str, site: str | None) -> tuple[str, str | None]:
        """An exception's ``message`` and ``site``, thrown at ``site`` of the served code, as
        Chromium gives them for the page's own code (:func:`~webr4.instrument.thrown.page_error`):
        the site in the original source, the message naming the page's own expressions."""
        original = self.original_site(site)
        url, line, column = split_site(original or "")
        if line is None or column is None:
            return message, original
        if url in self._sources:
            source = self._sources[url]
            starts = line_starts(source)
            message, offset = thrown.page_error(message, source, to_offset(starts, line, column))
            line, column = to_position(starts, offset)
            return message, f"{url}:{line}:{column}"
        document = self.document
        inline = document.script_at(line, column) if document is not None and url == document.url else None
        if document is None or inline is None:
            return message, original
        body, at = inline
        message, moved = thrown.page_error(message, body, at)
        offset = to_offset(document.original_lines, line, column) + moved - at
        line, column = to_position(document.original_lines, offset)
        return message, f"{url}:{line}:{column}"

    def request_failed(self, request: Request) -> None:
        """Record a request the browser blocked before the network (the page's policy, mixed
        content) as the failure it was; a replay's browser blocks it again without asking."""
        blocked = blocked_error(request.failure)
        if self.record and blocked is not None:
            self.store.add(request.method, request.url, request.post_data_buffer,
                           StoredResponse(status=0, headers={}, body=b"", error=blocked))

    async def abandon(self) -> None:
        """Abort whatever is still held, once the work begun for it has stopped: the execution is
        over. When recording, a request whose answer has not come yet is recorded as one the
        page never got an answer to (:data:`~webr4.browser.neterrors.ABORTED`): replays leave it
        unanswered too."""
        self._abandoned = True
        for method, url, body in self._fetching.values():
            self.store.add(method, url, body, StoredResponse(status=0, headers={}, body=b"", error=ABORTED))
        self._fetching.clear()
        routes = [held_route for held in self._held.values() for held_route in held.routes]
        for held in self._held.values():
            held.routes.clear()
        preparing = [r.prepared for r in routes if r.prepared is not None]
        for task in preparing:
            task.cancel()
        await asyncio.gather(*preparing, return_exceptions=True)  # what they raised is of no use now
        for route in [r.route for r in routes] + self._unanswered:
            try:
                await route.abort("aborted")
            except PlaywrightError:
                pass
        self._unanswered.clear()

    async def _serve_document(self, route: Route, request: Request, frame: Frame | None) -> None:
        if self.document is not None or self.document_error is not None:
            if self.navigation is None:
                self.navigation = Navigation(request.url, window=frame is None or frame is not self._page_frame)
                self.navigated.set()
            await route.abort("aborted")  # ERR_ABORTED: no error page, the document stays
            return
        self._page_frame = frame
        try:
            response = await self._response_for(route, request)
            if response is None:
                raise NetworkError(f"{request.url} is not in the recorded session")
            if response.error is not None:
                raise NetworkError(f"cannot reach {request.url}: {response.error}")
            content_type = response.headers.get("content-type", "")
            if response.status >= 400:
                raise NetworkError(f"{request.url} answered HTTP {response.status}")
            if "html" not in content_type:
                raise NetworkError(f"{request.url} is not an HTML page (content-type {content_type or 'missing'})")
            html = response.text
            with self._harness_time.counting():
                self.document = self.documents.prepare(html, request.url, self.rewriter, self.chunking)
            self.sites.update(self.document.sites)
            self.uncontrolled.extend(self.document.uncontrolled)
            self._blocking = Counter(self.document.chunked.blocking_scripts)
            self._modules.update(self.document.chunked.module_scripts)
            headers = served_headers(response.headers, request.resource_type)
            headers.update({name: self.document.policy(value) for name, value in response.headers.items()
                            if is_policy(name)})
            headers["content-type"] = "text/html; charset=utf-8"
            await route.fulfill(status=response.status, headers=headers, body=self.document.html.encode())
        except NetworkError as error:
            self.document_error = str(error)
            await route.abort("failed")
        finally:
            self.document_ready.set()

    async def _serve(self, route: Route, request: Request) -> None:
        """Answer ``request`` at once: a script is rewritten first (when the gate rewrites)."""
        response = await self._response_for(route, request)
        if response is None:
            await self._not_recorded(route, request)
            return
        body = response.body
        if request.resource_type == "script" and _succeeded(response):
            if self.rewriter is not None:
                with self._harness_time.counting():
                    rewrite = await self._rewrite(response, request.url)
                body = self._apply(rewrite)
            elif request.url in self._modules:
                self._modules.update(imported_urls(response.text, request.url))
        await self._answer(route, response, body)

    async def _serve_to_child_frame(self, route: Route, request: Request, frame: Frame | None) -> None:
        """Answer a child frame's request at once: never held (the frame's parsing and script
        loads are not controlled). A frame that joins the page's runtime (``JoiningFrames``)
        gets its document and scripts rewritten; another frame gets its responses as recorded."""
        page_url = self.document.url if self.document is not None else None
        joins = frame is not None and await self._joining.joins(request, frame, page_url)
        if joins and not request.is_navigation_request():
            return await self._serve(route, request)
        response = await self._response_for(route, request)
        if response is None:
            return await self._not_recorded(route, request)
        document = self._frame_document(response, request.url) if joins else None
        await self._answer(route, response, document.instrumented.html.encode() if document else response.body)

    def _frame_document(self, response: StoredResponse, url: str) -> FrameDocument | None:
        """A joining frame's document, instrumented and kept for its sites and the page's own text
        in it; ``None`` when it is served as recorded (not an HTML page, or no rewriting)."""
        if self.rewriter is None or not _succeeded(response) or "html" not in response.content_type:
            return None
        with self._harness_time.counting():
            document = self.documents.frame_document(response.text, url, self.rewriter)
        self._frames[document.url] = document
        self.sites.update(document.instrumented.sites)
        self.uncontrolled.extend(document.instrumented.uncontrolled)
        return document

    async def _serve_service_worker(self, route: Route, request: Request, worker_url: str) -> None:
        """Answer a request of the service worker at ``worker_url`` at once and as recorded: its
        code runs natively, so its scripts are served as they are."""
        if (worker := f"service worker {short_url(worker_url)}") not in self.uncontrolled:
            self.uncontrolled.append(worker)
        response = await self._response_for(route, request)
        await (self._not_recorded(route, request) if response is None else self._answer(route, response, response.body))

    async def _answer(self, route: Route, response: StoredResponse, body: bytes) -> None:
        """Give the page ``response`` with ``body``, fail its request as it failed when recorded,
        or, when the page gave up on it then, leave it unanswered until the execution is over."""
        if response.error == ABORTED:
            self._unanswered.append(route)
        elif response.error is not None:
            await route.abort(abort_reason(response.error))
        else:
            headers = served_headers(response.headers, route.request.resource_type)
            await route.fulfill(status=response.status, headers=headers, body=body)

    async def _not_recorded(self, route: Route, request: Request) -> None:
        self.notes.append(f"{request.method} {request.url} is not in the recorded session; answered 404")
        await route.fulfill(status=404, body=b"")

    async def _rewrite(self, response: StoredResponse, url: str) -> _Rewrite:
        """The rewrite of the script ``response`` came from ``url``; the gate is left as it was."""
        assert self.rewriter is not None
        source = response.text
        module = url in self._modules
        plain_url = url.split("#")[0].split("?")[0]
        script_id = "x" + hashlib.sha1(url.encode()).hexdigest()[:8]  # stable: the rewrite cache hits
        result = await self.rewriter.rewrite_async(source, plain_url, script_id=script_id, module=module)
        return _Rewrite(url, source, module, result)

    def _apply(self, rewrite: _Rewrite) -> bytes:
        """Take in what serving ``rewrite`` brings (its sites, a module's imports) and return the
        body to serve."""
        source, result = rewrite.source, rewrite.result
        if rewrite.module:
            self._modules.update(imported_urls(source, rewrite.url))
        plain_url = rewrite.url.split("#")[0].split("?")[0]
        self.sites.update(result.sites)
        if result.code != source:
            self._rewritten[plain_url] = result
            self._sources[plain_url] = source
        self.uncontrolled.extend(f"{u.kind} at {u.site}" for u in result.uncontrolled)
        return result.code.encode("utf-8")

    async def _response_for(self, route: Route, request: Request,
                            notes: list[str] | None = None) -> StoredResponse | None:
        """The response to ``request``: from the store, or live (and then stored) when recording.
        A request the live site gave no response to is stored and returned as its failure
        (``StoredResponse.error``); what webr4 could not record is noted in ``notes`` (by default
        the gate's) and answered 502."""
        notes = self.notes if notes is None else notes
        body = request.post_data_buffer
        if not self.record:
            return self.store.lookup(request.method, request.url, body)
        fetch = id(route)  # one fetch per route, alive while it runs
        self._fetching[fetch] = (request.method, request.url, body)
        try:
            live = await route.fetch(max_redirects=20)
        except PlaywrightError as error:
            if self._abandoned:  # the execution is over: its page will not see the outcome
                raise
            message = str(error).splitlines()[0].removeprefix("Route.fetch: ")
            cause = ABORTED if request.failure is not None else chromium_error(message)
            failed = StoredResponse(status=0, headers={}, body=b"", error=cause)
            self.store.add(request.method, request.url, body, failed)
            return failed
        finally:
            self._fetching.pop(fetch, None)
        if request.failure is not None or self._abandoned:  # the page gave up on it before this answer came
            gave_up = StoredResponse(status=0, headers={}, body=b"", error=ABORTED)
            if not self._abandoned:  # else abandon() recorded it
                self.store.add(request.method, request.url, body, gave_up)
            return gave_up
        headers = {k.lower(): v for k, v in live.headers.items()}
        declared = headers.get("content-length", "")
        payload = b"" if declared.isdigit() and int(declared) > MAX_BODY_BYTES else await live.body()
        size = int(declared) if not payload and declared.isdigit() else len(payload)
        if size > MAX_BODY_BYTES:
            too_big = (f"{request.method} {request.url} failed: its response has {size / 2**20:.1f} MB, more than "
                       f"the {MAX_BODY_BYTES // 2**20} MB webr4 records per response")
            if request.is_navigation_request():
                raise NetworkError(too_big)
            notes.append(too_big)
            return StoredResponse(status=502, headers={}, body=b"")
        stored = StoredResponse(live.status, headers, payload)
        self.store.add(request.method, request.url, body, stored)
        return stored


def _succeeded(response: StoredResponse) -> bool:
    return response.error is None and response.status < 300
