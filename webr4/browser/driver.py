"""Executions in Chromium: one browser per driver, a fresh context per execution (the next one
made while the current one runs, :mod:`webr4.browser.contexts`).

:class:`Driver` is the API: ``async with Driver() as driver: await driver.execute(url, plan, capture=...)``,
what to capture being a :class:`~webr4.execution.Capture`.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field, replace
from types import TracebackType
from typing import Any, Mapping, Sequence
from urllib.parse import urlsplit

from playwright.async_api import Browser, CDPSession, Page, Playwright
from playwright.async_api import Error as PlaywrightError

from webr4.browser.driver_process import start_playwright
from webr4.browser.accesslogs import access_log_source, dom_log_source
from webr4.access_summary import without_unshared_reads
from webr4.browser.actions import UserAction
from webr4.browser.contexts import VIEWPORT, ContextSetup, ContextSupply
from webr4.browser.controller import Controller
from webr4.browser.limits import Limits
from webr4.browser.launch import launch
from webr4.browser.naming import collect_names
from webr4.browser.network import NetworkGate
from webr4.browser.responses import ResponseStore
from webr4.browser.runtime import AS_JSON, parsed_answer, runtime_source
from webr4.browser.screenshot import RESTORE, PageSize, prepare_script
from webr4.browser.screenshot import capture as capture_screenshot
from webr4.errors import Webr4Error
from webr4.execution import AccessLog, Capture, Execution
from webr4.instrument.cache import CachedRewriter, persistent_directory
from webr4.instrument.page import DocumentCache, PreparedDocument
from webr4.instrument.pool import warm_up
from webr4.libraries import LIBRARY_PATH
from webr4.resources import javascript
from webr4.trace import Category, ErrorRecord, Plan, Trace
from webr4.vocabulary import Truncation

READ_TIMEOUT_S = 10.0
"""How long each read of a run's end state may take before the run counts as failed."""


def runtime_script(seed: int, settle_ms: int, *, accesses: AccessLog = AccessLog.SUMMARY,
                   clock_shift_ms: float = 0.0) -> str:
    """The init script: the runtime with its configuration in a private lexical scope, then the
    access log that instrumented code reports to, then the log of accesses made through browser
    APIs (DOM, storage, cookies, event handlers); the logs are the top frame's alone, and a
    same-origin child frame's scripts log into them (``instrument_js/runtime/frames.js``). Each
    step carries the summary of its accesses (:mod:`webr4.access_summary`), or every access with
    :attr:`AccessLog.FULL`; with
    :attr:`AccessLog.OFF` both logs are off from the start, and a step carries only the runtime's
    own accesses to its events' shadow locations, which happens-before reads. The configuration
    carries what a library's script is (:mod:`webr4.libraries`), so that sites name the app, and
    how far the virtual clock's start is moved from its usual instant (``clock_shift_ms``).

    Nothing is installed in the empty document a new page starts with (``about:blank`` with an
    opaque origin): the run navigates away from it at once, and installing costs a few tens of
    milliseconds per execution. An ``about:blank`` that a page navigates to has the page's origin,
    and gets everything."""
    config = json.dumps({"seed": seed, "settleMs": settle_ms,
                         "fullAccessLog": accesses is AccessLog.FULL,
                         "libraryPath": LIBRARY_PATH.pattern, "clockShiftMs": clock_shift_ms})
    return ('if (!(location.href === "about:blank" && self.origin === "null")) {\n'
            "{ const __WEBR4_CONFIG__ = " + config + ";\n" + runtime_source() + "\n}\n"
            + "if (window === window.top) {\n" + access_log_source() + "\n" + dom_log_source() + "\n"
            + ("window.__webr4.log.enabled = false;\n" if accesses is AccessLog.OFF else "") + "}\n}\n")


class Driver:
    """Owns Playwright and one Chromium; ``async with Driver() as d: await d.execute(...)``."""

    def __init__(self, rewriter: CachedRewriter | None = None) -> None:
        """``rewriter`` rewrites the page's scripts (by default one that caches in memory and in
        webr4's cache directory, :func:`~webr4.instrument.cache.persistent_directory`)."""
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._contexts: ContextSupply | None = None
        self._rewriter = rewriter if rewriter is not None else CachedRewriter(directory=persistent_directory())
        self._documents = DocumentCache()
        self._builtins: dict[str, str] = {}  # origin -> a fresh window's own property names there (JSON)
        self._gone = asyncio.Event()  # set when the browser disconnects

    async def __aenter__(self) -> Driver:
        warm_up()  # the rewrite workers start while Chromium does
        self._playwright = await start_playwright()
        try:
            self._browser = await launch(self._playwright)
        except BaseException:
            await self._playwright.stop()
            raise
        self._contexts = ContextSupply(self._browser)
        self._browser.on("disconnected", lambda _: self._gone.set())
        return self

    @property
    def browser(self) -> Browser:
        assert self._browser is not None, "use Driver as an async context manager"
        return self._browser

    @property
    def connected(self) -> bool:
        """Whether the browser and the Playwright driver behind it are still there (a browser or
        driver that was killed, or that crashed, is gone for good: start another ``Driver``)."""
        return self._browser is not None and self._browser.is_connected()

    async def gone(self, grace_s: float = 2.0) -> bool:
        """Whether the browser is gone, or goes within ``grace_s`` seconds: a browser being shut
        down or killed fails its pages' work a moment before Playwright reports it disconnected."""
        if not self.connected:
            return True
        try:
            await asyncio.wait_for(self._gone.wait(), grace_s)
        except TimeoutError:
            return False
        return True

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        """Close the browser and Playwright; one that already died is only let go of."""
        try:
            if self._contexts is not None and self.connected:
                await self._contexts.close()
            elif self._contexts is not None:  # a dead browser may never answer the spare's making
                self._contexts.abandon()
            if self._browser is not None and self.connected:
                await self._browser.close()
        finally:
            if self._playwright is not None:
                try:
                    await self._playwright.stop()
                except PlaywrightError:  # the driver process is gone; there is nothing left to stop
                    pass

    async def execute(self, url: str, plan: Plan = (), *, capture: Capture, actions: Sequence[UserAction] = (),
                      store: ResponseStore | None = None, live_network: bool = True, limits: Limits = Limits(),
                      seed: int = 0, clock_shift_ms: float = 0.0) -> Execution:
        """Execute ``plan`` on ``url``, capturing what ``capture`` asks for (every caller says what).

        With ``live_network=True`` the network is live and every response is added to ``store`` (a new
        one when ``None``); with ``live_network=False`` the network is served from ``store`` only.
        ``seed`` seeds the page's ``Math.random`` and ``crypto``; ``clock_shift_ms`` moves the
        instant its virtual clock starts at.
        Raises :class:`~webr4.browser.network.NetworkError` when the document cannot be loaded.
        """
        assert self._contexts is not None, "use Driver as an async context manager"
        store = store if store is not None else ResponseStore()
        store.rewind()
        setup = ContextSetup(runtime_script(seed, limits.settle_ms,
                                            accesses=capture.accesses, clock_shift_ms=clock_shift_ms),
                             limits.service_workers)
        fresh = await self._contexts.take(setup)
        context, page, cdp = fresh.context, fresh.page, fresh.cdp
        try:
            gate = NetworkGate(store, record=live_network, rewriter=self._rewriter if capture.rewrite_scripts else None,
                               documents=self._documents, chunking=limits.chunking)
            fresh.serve(gate.handle)  # the page is still at about:blank
            page.on("requestfailed", gate.request_failed)
            crashed = asyncio.Event()
            page.on("crash", lambda _: crashed.set())
            try:
                trace = await Controller(page, cdp, gate, actions, limits, capture.logged_events).run(url, plan)
                _name_waits(trace, gate.document)
                # The next execution's page is made while this one's end state is read. Made while
                # the page ran, it slowed the run by about what it saved, and perturbed its timing.
                self._contexts.prepare(setup)
                try:
                    end = await _final_state(page, cdp, trace, gate, capture, self._builtins)
                except EndStateUnread as unread:
                    if not crashed.is_set():
                        _unread(trace, str(unread))
                    end = _EndState()
                if crashed.is_set():  # while the end state was read: what was read is not the page's
                    raise PlaywrightError("Target crashed")
            finally:
                await gate.abandon()
            kept = trace if capture.accesses is AccessLog.FULL else without_unshared_reads(trace)
            return Execution(kept, end.dom, end.screenshot, end.heap, end.captured)
        finally:
            await context.close()


def _name_waits(trace: Trace, document: PreparedDocument | None) -> None:
    """Give each parse chunk of ``trace`` what Chromium's parser waits for before it, as the
    parameter ``waits_for`` (``script /js/app.js``: see ``ChunkedDocument.waits``), so that
    what is said of a chunk can name what the user would see it wait for."""
    waits = document.chunked.waits if document is not None else []
    for event_id, event in list(trace.events.items()):
        index = event.params.get("index")
        if event.category is Category.PARSE and isinstance(index, int) and 0 <= index < len(waits) and waits[index]:
            trace.events[event_id] = replace(event, params={**event.params, "waits_for": waits[index]})


class EndStateUnread(Webr4Error):
    """Reading the end state of a run failed, timed out or came back empty; the message says
    which part and why (one line). The driver turns it into a failed run (``capture-failed``)."""


def _unread(trace: Trace, why: str) -> None:
    """Mark ``trace`` as a run whose end state could not be read: a failed run
    (``capture-failed``), with the cause as a harness error."""
    trace.truncated = Truncation.CAPTURE_FAILED
    trace.errors.append(ErrorRecord("harness", f"the end state could not be read: {why}", None, len(trace.steps)))


@dataclass(frozen=True)
class _EndState:
    """The page's end state as read (empty when the page hung or went away, or was unreadable)."""

    dom: str = ""
    screenshot: bytes | None = None
    heap: Any = None
    captured: dict[str, Any] = field(default_factory=dict)


async def _final_state(page: Page, cdp: CDPSession, trace: Trace, gate: NetworkGate, capture: Capture,
                       builtins: dict[str, str]) -> _EndState:
    """The DOM, and the screenshot, heap and results of the page scripts that ``capture`` asks
    for, at the end of a run; empty when the page hung or went away (the trace already says so).
    Names the trace's racing objects (``trace.names``) on the way. Raises
    :class:`EndStateUnread` when a read fails or takes longer than :data:`READ_TIMEOUT_S`, or
    when a part asked for comes back empty (a DOM without a line, no screenshot, a heap or a
    page script's result of ``null``): what was read is then not the page's end state, and must
    never be compared as one.

    The access log is switched off first, so that reading the state logs nothing; the DOM is read
    before the screenshot, the heap and the page scripts after it. On a page without child
    frames one evaluation switches the log off, reads the DOM and readies and measures the page
    for its screenshot, which one capture call then takes (:mod:`webr4.browser.screenshot`), and
    one last evaluation puts the carets back and reads the heap and the page scripts; a page
    with frames is pictured by Playwright, which readies every frame. ``builtins`` maps an origin to
    the names of a fresh window's own properties there (``window_builtins.js``) as a JSON array,
    which the heap leaves out: learnt by the first execution of a page of that origin, added here, reused by the
    next ones."""
    if trace.truncated in (Truncation.EVENT_TIMEOUT, Truncation.PAGE_LOST):
        return _EndState()
    screenshot, heap, scripts = capture.screenshot, capture.heap, capture.page_scripts
    quick = screenshot and len(page.frames) == 1
    reading = "the DOM"
    try:
        dom, size = await asyncio.wait_for(page.evaluate(_closing_script(quick), list(gate.originals.items())),
                                           READ_TIMEOUT_S)
        prepared = size is not None  # the page is ready for the picture, carets hidden
        # Naming only reads the log's tables, so it is asked for while the picture is taken.
        reading = "the screenshot" if screenshot else "the names of the racing objects"
        trace.names, shot = await asyncio.gather(
            asyncio.wait_for(collect_names(page, trace, gate.original_site, gate.sites), READ_TIMEOUT_S),
            asyncio.wait_for(_picture(page, cdp, size, screenshot), READ_TIMEOUT_S))
        globals_: Any = None
        captured: dict[str, Any] = {}
        if heap or scripts:
            reading = "the heap" if heap else ", ".join(scripts)
            restore = f"{RESTORE}; await 0; " if prepared else ""  # observers see the carets come back first
            globals_, captured = await asyncio.wait_for(_last_reads(page, restore, heap, scripts, builtins),
                                                        READ_TIMEOUT_S)
    except asyncio.TimeoutError:
        raise EndStateUnread(f"reading {reading} took longer than {READ_TIMEOUT_S:g} s") from None
    except PlaywrightError as error:
        raise EndStateUnread(f"reading {reading} failed: {_first_line(error)}") from None
    empty = [name for name, missing in (("the DOM", not dom), ("the screenshot", screenshot and not shot),
                                        ("the heap", heap and globals_ is None),
                                        *((name, captured.get(name) is None) for name in scripts)) if missing]
    if empty:
        raise EndStateUnread(f"{', '.join(empty)} came back empty")
    return _EndState(dom, shot, globals_, captured)


def _first_line(error: BaseException) -> str:
    """The first line of an error's message (Playwright's carry a call log after it)."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


async def _picture(page: Page, cdp: CDPSession, size: dict[str, Any] | None, screenshot: bool) -> bytes | None:
    """The full-page screenshot, when asked for: one capture call in a page that the closing
    script readied and measured as ``size``; Playwright's when it did not (``size`` is None)."""
    if not screenshot:
        return None
    if size is not None:
        return await capture_screenshot(cdp, PageSize.from_page(size), VIEWPORT)
    return await page.screenshot(full_page=True)


async def _last_reads(page: Page, before: str, heap: bool, scripts: Mapping[str, str],
                      builtins: dict[str, str]) -> tuple[Any, dict[str, Any]]:
    """In one evaluation, after the statements ``before``: the page's abstract heap
    (``capture_heap.js``, handed over as JSON text) when ``heap``, then what each of ``scripts`` returns, in order. The
    browser's own globals are asked for first when ``builtins`` does not know the page's origin yet."""
    reads = "[" + ", ".join(f"await ({script})()" for script in scripts.values()) + "]"
    parts = urlsplit(page.url)
    origin = f"{parts.scheme}://{parts.netloc}"
    known = builtins.get(origin)
    if not heap:
        body = f"return [null, null, {reads}];"
    elif known is not None:  # written into the expression: as an argument, a thousand names cost more to pass
        body = f"return [null, {AS_JSON}(({javascript('capture_heap.js')})({known})), {reads}];"
    else:
        body = (f"const names = ({javascript('window_builtins.js')})(); "
                f"return [names, {AS_JSON}(({javascript('capture_heap.js')})(names)), {reads}];")
    names, globals_, values = await page.evaluate(f"async () => {{ {before}{body} }}")
    if names is not None:
        builtins[origin] = json.dumps(names)
    return parsed_answer(globals_), dict(zip(scripts, values))


def _closing_script(prepare: bool) -> str:
    """The first evaluation at the end of a run: switch the access log off, read the DOM (showing
    the page's own text where it holds served code: the argument, :attr:`NetworkGate.originals`'s
    pairs) and, with ``prepare``, ready the page for its screenshot; returns
    ``[dom, page size or null]``."""
    screen = f"await ({prepare_script()})()" if prepare else "null"
    return ("async (originals) => { if (window.__webr4.log) window.__webr4.log.enabled = false; "
            f"const dom = ({javascript('capture_dom.js')})(originals); return [dom, {screen}]; }}")
