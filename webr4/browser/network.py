"""The harness's hand on the network: serve, record, replay, and hold.

One :class:`NetworkGate` per execution sits behind ``page.route("**/*")``:

* the first main-frame document is fetched (live or from the store), split into parse chunks
  (:mod:`webr4.instrument.chunks`) and served;
* parse-chunk markers and non-parser-blocking scripts are **held** until the controller releases
  them: that is how parse chunks and script executions become events;
* every other request is answered at once, from the store when replaying, from the live site
  when recording (the response is then added to the store);
* a later main-frame navigation is refused and noted: an execution covers one document.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Request, Route

from webr4.browser.responses import ResponseStore, StoredResponse
from webr4.instrument.chunks import MARKER_ORIGIN, MARKER_PATH, ChunkedDocument, split_into_chunks

_MARKER_BODY = "document.currentScript&&document.currentScript.remove()"
_DROP_HEADERS = frozenset({"content-length", "content-encoding", "transfer-encoding", "content-security-policy",
                           "content-security-policy-report-only", "etag", "last-modified", "cache-control",
                           "expires"})


class NetworkError(Exception):
    """The page's document could not be loaded (one-line message for the user)."""


@dataclass
class _Held:
    """Routes that arrived for one key and are waiting to be released, in arrival order."""

    routes: list[Route] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)


class NetworkGate:
    """Answers or holds every request of one execution.

    ``store`` is the recorded network to replay; with ``record=True`` live responses are fetched
    and added to it instead. ``notes`` collects what the trace should mention (navigations
    refused, requests missing from a recording).
    """

    def __init__(self, store: ResponseStore, *, record: bool, max_chunks: int = 64) -> None:
        self.store = store
        self.record = record
        self.max_chunks = max_chunks
        self.token = secrets.token_hex(6)
        self.document: ChunkedDocument | None = None
        self.document_error: str | None = None
        self.document_url: str | None = None
        self.document_ready = asyncio.Event()
        self.notes: list[str] = []
        self._blocking: Counter[str] = Counter()
        self._held: dict[str, _Held] = defaultdict(_Held)

    async def handle(self, route: Route, request: Request) -> None:
        try:
            await self._handle(route, request)
        except PlaywrightError:
            pass  # the page went away while we answered: nothing left to serve

    async def _handle(self, route: Route, request: Request) -> None:
        url = request.url
        path = urlsplit(url).path
        if url.startswith(MARKER_ORIGIN + MARKER_PATH):
            self._hold(f"chunk:{path.rsplit('/', 1)[-1]}", route)
        elif request.is_navigation_request() and request.frame.parent_frame is None:
            await self._serve_document(route, request)
        elif request.resource_type == "script" and not self._take_blocking(url):
            self._hold(f"script:{url}", route)
        else:
            await self._serve(route, request)

    def _take_blocking(self, url: str) -> bool:
        if self._blocking[url] > 0:
            self._blocking[url] -= 1
            return True
        return False

    def _hold(self, key: str, route: Route) -> None:
        held = self._held[key]
        held.routes.append(route)
        held.arrived.set()

    async def release_chunk(self, index: int, timeout: float) -> None:
        route = await self._next_held(f"chunk:{index}", timeout)
        await route.fulfill(status=200, content_type="text/javascript", body=_MARKER_BODY)

    async def release_script(self, url: str, timeout: float) -> None:
        route = await self._next_held(f"script:{url}", timeout)
        await self._serve(route, route.request)

    async def _next_held(self, key: str, timeout: float) -> Route:
        held = self._held[key]
        while not held.routes:
            held.arrived.clear()
            await asyncio.wait_for(held.arrived.wait(), timeout)
        return held.routes.pop(0)

    def original_site(self, site: str | None) -> str | None:
        """``url:line:col`` in the served document mapped back to the original file."""
        if not site or self.document is None or not self.document_url:
            return site
        url, _, position = site.rpartition(":")
        url, _, line = url.rpartition(":")
        if url != self.document_url or not line.isdigit() or not position.isdigit():
            return site
        line_no, column = self.document.original_position(int(line), int(position))
        return f"{url}:{line_no}:{column}"

    async def abandon(self) -> None:
        """Abort whatever is still held: the execution is over."""
        for held in self._held.values():
            for route in held.routes:
                try:
                    await route.abort("aborted")
                except PlaywrightError:
                    pass
            held.routes.clear()

    async def _serve_document(self, route: Route, request: Request) -> None:
        if self.document is not None or self.document_error is not None:
            self.notes.append(f"navigation to {request.url} was not followed (an execution covers one document)")
            await route.abort("aborted")
            return
        try:
            response = await self._response_for(route, request)
            if response is None:
                raise NetworkError(f"{request.url} is not in the recorded session")
            content_type = response.headers.get("content-type", "")
            if response.status >= 400:
                raise NetworkError(f"{request.url} answered HTTP {response.status}")
            if "html" not in content_type:
                raise NetworkError(f"{request.url} is not an HTML page (content-type {content_type or 'missing'})")
            html = response.body.decode(_charset(content_type), errors="replace")
            self.document = split_into_chunks(html, request.url, self.token, self.max_chunks)
            self.document_url = request.url.split("?")[0].split("#")[0]
            self._blocking = Counter(self.document.blocking_scripts)
            headers = _clean_headers(response.headers)
            headers["content-type"] = "text/html; charset=utf-8"
            await route.fulfill(status=response.status, headers=headers, body=self.document.html.encode())
        except NetworkError as error:
            self.document_error = str(error)
            await route.abort("failed")
        finally:
            self.document_ready.set()

    async def _serve(self, route: Route, request: Request) -> None:
        response = await self._response_for(route, request)
        if response is None:
            self.notes.append(f"{request.method} {request.url} is not in the recorded session; answered 404")
            await route.fulfill(status=404, body=b"")
            return
        await route.fulfill(status=response.status, headers=_clean_headers(response.headers), body=response.body)

    async def _response_for(self, route: Route, request: Request) -> StoredResponse | None:
        body = request.post_data_buffer
        if not self.record:
            return self.store.lookup(request.method, request.url, body)
        try:
            live = await route.fetch(max_redirects=20)
        except PlaywrightError as error:
            message = str(error).splitlines()[0]
            if request.is_navigation_request():
                raise NetworkError(f"cannot reach {request.url}: {message}") from None
            self.notes.append(f"{request.method} {request.url} failed: {message}")
            return StoredResponse(status=502, headers={}, body=b"")
        stored = StoredResponse(live.status, {k.lower(): v for k, v in live.headers.items()}, await live.body())
        self.store.add(request.method, request.url, body, stored)
        return stored


def _clean_headers(headers: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in headers.items() if k.lower() not in _DROP_HEADERS}


def _charset(content_type: str) -> str:
    for part in content_type.split(";"):
        name, _, value = part.strip().partition("=")
        if name.lower() == "charset" and value:
            return value.strip('"')
    return "utf-8"
