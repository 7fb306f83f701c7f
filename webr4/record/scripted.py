"""User actions from a Playwright script: an existing test flow becomes a session's actions.

The script is a Python file defining ``run(page)`` that drives a Playwright page with the
synchronous API. It runs once against the live site in a plain browser, on a recording proxy
of the page: every call reaches the real page, and the calls that are user actions (the
Playwright methods of :data:`webr4.useractions.ACTIONS` — ``click``, ``fill``, ``press``,
``select_option``, ``hover`` —, directly or through locators, and ``wait_for_timeout``) are
written down as steps of :mod:`webr4.browser.actions`, with the real time between two actions as
a ``wait`` step (or a fixed pace, see :class:`StepLog`).

The synchronous Playwright API refuses to run inside a running asyncio loop, so call this
before starting the asynchronous driver.
"""

from __future__ import annotations

import importlib.util
import json
import time
import traceback
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page

from webr4.browser.driver_process import sync_playwright_session
from webr4.browser.actions import PAGE_URL
from webr4.browser.launch import CHROMIUM_ARGS, chromium_path, not_startable, sandbox_off_reason
from webr4.errors import Webr4Error
from webr4.places import short_name
from webr4.useractions import ACTIONS, BY_METHOD, READS, ActionKind

Steps = list[dict[str, Any]]
UNFOLLOWED = frozenset({"set_checked", "dblclick", "tap", "drag_to", "set_input_files",
                        "type", "dispatch_event", "select_text"})
"""Playwright calls that act on the page but that no step kind performs yet: a test's session
that made one would not repeat it, so :mod:`webr4.deflake` refuses such a test by name."""
PAGE_ANSWERS = frozenset({"title", "content", "evaluate", "is_closed"})
"""What a test may ask of its page besides reads of elements: kept as answered, replayed as they
were (they race with nothing webr4 explores)."""


class StepsError(Webr4Error, ValueError):
    """The user steps could not be taken from a script or from the page: the script is missing,
    fails or exits (the message names its line; its own exception is the cause), or the page
    does not load."""


class StepLog:
    """The steps a script performed (``steps``), with the time that passed between its actions.

    Before every action but the first comes ``{"wait": ms}``: the real milliseconds from the end
    of the previous action to the call of this one (at least the script's own
    ``wait_for_timeout`` calls in between), or, with ``pace``, exactly ``pace`` plus those calls.
    Replays advance the virtual clock by it; what the action itself waited for (Playwright's
    checks that its target is actionable and stable) each replay waits for again.
    """

    observes = False
    """Whether the script's reads of the page (:data:`~webr4.useractions.READS`) are steps too
    (``read``); a plain script's are not: only a test's observations race (:mod:`webr4.deflake`)."""

    def __init__(self, pace: float | None = None) -> None:
        self.steps: Steps = []
        self.pace = pace
        self.unfollowed: list[str] = []  # calls that act on the page but are no step (only when observes)
        self._last: float | None = None  # monotonic time the previous action finished
        self._waited = 0.0  # milliseconds the script waited explicitly since then

    @property
    def last_target(self) -> str | None:
        """The selector of the last step that named one."""
        for step in reversed(self.steps):
            for key, value in step.items():
                if key in ACTIONS and isinstance(value, str):
                    return value
        return None

    def not_followed(self, call: str) -> None:
        """Note a call that acts on the page but that no step can say (only when :attr:`observes`:
        a test's session must hold everything it did)."""
        if self.observes:
            self.unfollowed.append(call)

    def responded(self, glob: str, called: float) -> None:
        """Write down that the script waited for a response whose URL matches ``glob`` (only when
        :attr:`observes`)."""

    def loaded(self, state: str, called: float) -> None:
        """Write down that the script waited for the page to reach the load ``state`` (only when
        :attr:`observes`: a plain script's session starts once the page has loaded)."""

    def read(self, step: dict[str, Any], called: float, answer: Any) -> None:
        """Write down a read of the page that has just answered ``answer`` (only when :attr:`observes`)."""
        self.action(step, called)

    def answered(self, name: str, answer: Any) -> None:
        """Write down what the page's ``name`` (its ``url``, ``title()``, an ``evaluate``) answered:
        no step, nothing that races (only when :attr:`observes`)."""

    def action(self, step: dict[str, Any], called: float) -> None:
        """Write down an action that has just finished, called at ``called`` (a monotonic time)."""
        if self._last is None:
            gap = self._waited
        elif self.pace is not None:
            gap = self.pace + self._waited
        else:
            gap = max(round((called - self._last) * 1000), self._waited)
        if gap:
            self.steps.append({"wait": gap})
        self.steps.append(step)
        self._last, self._waited = time.monotonic(), 0.0

    def wait(self, ms: float) -> None:
        """Write down an explicit wait of the script."""
        self._waited += ms


def first_line(error: BaseException) -> str:
    """An exception as one line: Playwright's messages carry a multi-line call log."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


@contextmanager
def plain_page(url: str, init_script: str | None = None) -> Iterator[Page]:
    """A Playwright page at ``url`` in a browser of its own, without any webr4 control."""
    with sync_playwright_session() as playwright:
        path = chromium_path(playwright)
        try:
            browser = playwright.chromium.launch(executable_path=path, args=list(CHROMIUM_ARGS),
                                                 chromium_sandbox=sandbox_off_reason() is None)
        except PlaywrightError as error:
            raise not_startable(path, error) from None
        try:
            page = browser.new_page()
            if init_script:
                page.add_init_script(init_script)
            try:
                page.goto(url, wait_until="load")
            except PlaywrightError as error:
                raise StepsError(f"cannot load {url}: {first_line(error)}") from None
            yield page
        finally:
            browser.close()


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _exact_flag(exact: bool | None) -> str:
    return "s" if exact else "i"


class _Finder:
    """``locator`` and ``get_by_*`` on a page or locator, keeping the selector they stand for.

    Selectors are written the way Playwright itself writes them for ``get_by_*``, so a replay
    through ``page.locator(selector)`` matches the same elements.
    """

    _target: Any
    _log: StepLog

    def _scope(self, selector: str | None) -> str | None:
        raise NotImplementedError

    def _wrap(self, locator: Locator, selector: str | None) -> RecordingLocator:
        return RecordingLocator(locator, self._scope(selector), self._log)

    def locator(self, selector: str, **options: Any) -> RecordingLocator:
        return self._wrap(self._target.locator(selector, **options), None if options else selector)

    def get_by_role(self, role: str, *, name: str | None = None, exact: bool | None = None,
                    **options: Any) -> RecordingLocator:
        selector: str | None = f"internal:role={role}"
        if isinstance(name, str):
            selector = f"{selector}[name={_quote(name)}{_exact_flag(exact)}]"
        if options or name is not None and not isinstance(name, str):
            selector = None  # states such as checked= and patterns for name are not written down
        return self._wrap(self._target.get_by_role(role, name=name, exact=exact, **options), selector)

    def get_by_text(self, text: str, *, exact: bool | None = None) -> RecordingLocator:
        selector = f"internal:text={_quote(text)}{_exact_flag(exact)}" if isinstance(text, str) else None
        return self._wrap(self._target.get_by_text(text, exact=exact), selector)

    def get_by_label(self, text: str, *, exact: bool | None = None) -> RecordingLocator:
        selector = f"internal:label={_quote(text)}{_exact_flag(exact)}" if isinstance(text, str) else None
        return self._wrap(self._target.get_by_label(text, exact=exact), selector)

    def get_by_placeholder(self, text: str, *, exact: bool | None = None) -> RecordingLocator:
        return self._by_attribute("get_by_placeholder", "placeholder", text, exact)

    def get_by_alt_text(self, text: str, *, exact: bool | None = None) -> RecordingLocator:
        return self._by_attribute("get_by_alt_text", "alt", text, exact)

    def get_by_title(self, text: str, *, exact: bool | None = None) -> RecordingLocator:
        return self._by_attribute("get_by_title", "title", text, exact)

    def get_by_test_id(self, test_id: str) -> RecordingLocator:
        selector = f"internal:testid=[data-testid={_quote(test_id)}s]" if isinstance(test_id, str) else None
        return self._wrap(self._target.get_by_test_id(test_id), selector)

    def _by_attribute(self, method: str, attribute: str, text: str, exact: bool | None) -> RecordingLocator:
        selector = f"internal:attr=[{attribute}={_quote(text)}{_exact_flag(exact)}]" if isinstance(text, str) else None
        return self._wrap(getattr(self._target, method)(text, exact=exact), selector)

    def __getattr__(self, name: str) -> Any:
        if name == "_target":
            raise AttributeError(name)
        return getattr(self._target, name)


class RecordingLocator(_Finder):
    """A locator whose user actions are logged against ``selector`` (None: not expressible)."""

    def __init__(self, locator: Locator, selector: str | None, log: StepLog) -> None:
        self._target, self._selector, self._log = locator, selector, log

    def _scope(self, selector: str | None) -> str | None:
        return None if self._selector is None or selector is None else f"{self._selector} >> {selector}"

    @property
    def first(self) -> RecordingLocator:
        return self.nth(0)

    @property
    def last(self) -> RecordingLocator:
        return self.nth(-1)

    def nth(self, index: int) -> RecordingLocator:
        return self._wrap(self._target.nth(index), f"nth={index}")

    def __getattr__(self, name: str) -> Any:
        if name in BY_METHOD:
            return self._acting(BY_METHOD[name])
        if name in READS and self._log.observes:
            return self._reading(name)
        if name in UNFOLLOWED:
            self._log.not_followed(f"locator.{name}")
        return super().__getattr__(name)

    def press_sequentially(self, text: str, *, delay: float | None = None, **options: Any) -> None:
        """Type ``text`` a key at a time: written down as a ``press`` step per key, ``delay`` apart."""
        called = time.monotonic()
        self._target.press_sequentially(text, delay=delay, **options)
        if self._selector is None or set(options) - {"timeout", "no_wait_after"}:
            return
        for number, key in enumerate(text):
            if number and delay:
                self._log.wait(delay)
            self._log.action({"press": self._selector, "key": key}, called)

    def _reading(self, method: str) -> Callable[..., Any]:
        """The locator's read ``method``, writing down the ``read`` step it was when its
        arguments are JSON strings (an attribute's name) and its options change no answer."""
        def read(*args: Any, **options: Any) -> Any:
            called = time.monotonic()
            answer = getattr(self._target, method)(*args, **options)
            plain = all(isinstance(a, str) for a in args) and not set(options) - {"timeout"}
            if self._selector is not None and plain:
                self._log.read({"read": self._selector, "method": method, "args": list(args)}, called, answer)
            return answer
        return read

    def _acting(self, kind: ActionKind) -> Callable[..., Any]:
        """The locator's Playwright method for ``kind``, writing down the step it performed."""
        def act(*args: Any, **options: Any) -> Any:
            called = time.monotonic()
            result = getattr(self._target, kind.method)(*args, **options)
            step = None if self._selector is None else kind.step_of_call(self._selector, args, options)
            if step is not None:
                self._log.action(step, called)
            return result
        return act


class RecordingPage(_Finder):
    """A page proxy that logs the user actions a script performs on it."""

    def __init__(self, page: Page, log: StepLog) -> None:
        self._target, self._log = page, log

    def _scope(self, selector: str | None) -> str | None:
        return selector

    def __getattr__(self, name: str) -> Any:
        if name in BY_METHOD:
            # page.click(selector, …) is page.locator(selector).click(…)
            return lambda selector, *args, **options: getattr(self.locator(selector), name)(*args, **options)
        if name in READS and self._log.observes and hasattr(self._target, name):
            # page.inner_text(selector) reads the first element that matches, as a locator's nth=0 does
            return lambda selector, *args, **options: getattr(self.locator(f"{selector} >> nth=0"), name)(
                *args, **options)
        if name == "url" and self._log.observes:  # a read of the page's URL, which page events change
            called = time.monotonic()
            answer = self._target.url
            self._log.read({"read": "html", "method": PAGE_URL, "args": []}, called, answer)
            return answer
        if name in PAGE_ANSWERS and self._log.observes:
            return self._answering(name)
        if name in UNFOLLOWED or name in ("mouse", "touchscreen", "drag_and_drop"):
            self._log.not_followed(f"page.{name}")
        return super().__getattr__(name)

    @property
    def keyboard(self) -> RecordingKeyboard:
        return RecordingKeyboard(self._target, self._log)

    def _answering(self, name: str) -> Any:
        value = getattr(self._target, name)
        if not callable(value):
            self._log.answered(name, value)
            return value

        def answer(*args: Any, **options: Any) -> Any:
            result = value(*args, **options)
            self._log.answered(name, result)
            return result
        return answer

    def wait_for_timeout(self, timeout: float) -> None:
        self._target.wait_for_timeout(timeout)
        self._log.wait(timeout)

    def expect_response(self, url_or_predicate: Any, **options: Any) -> Any:
        """Playwright's ``expect_response``; with a URL glob, the wait at the end of its block is written down."""
        waiting = self._target.expect_response(url_or_predicate, **options)
        if not isinstance(url_or_predicate, str):
            return waiting
        return _ResponseWait(waiting, url_or_predicate, self._log)

    def wait_for_load_state(self, state: str | None = None, **options: Any) -> None:
        called = time.monotonic()
        self._target.wait_for_load_state(state, **options)
        self._log.loaded(state or "load", called)


class _ResponseWait:
    """``with page.expect_response(glob):`` on a recording page: once the block is done and the
    response came, the wait is written down."""

    def __init__(self, waiting: Any, glob: str, log: StepLog) -> None:
        self._waiting, self._glob, self._log = waiting, glob, log

    def __enter__(self) -> Any:
        return self._waiting.__enter__()

    def __exit__(self, *failed: Any) -> Any:
        called = time.monotonic()
        outcome = self._waiting.__exit__(*failed)
        if failed[0] is None:
            self._log.responded(self._glob, called)
        return outcome


class RecordingKeyboard:
    """``page.keyboard`` of a recording page: a key pressed while the target of the last step
    has the focus is a ``press`` step on it; anything else the keyboard does is no step."""

    _FOCUSED = "element => element === document.activeElement || element.contains(document.activeElement)"

    def __init__(self, page: Page, log: StepLog) -> None:
        self._page, self._log = page, log

    def press(self, key: str, **options: Any) -> None:
        called = time.monotonic()
        target = self._log.last_target
        focused = target is not None and bool(self._page.locator(target).first.evaluate(self._FOCUSED))
        self._page.keyboard.press(key, **options)
        if target is not None and focused and not set(options) - {"delay"}:
            self._log.action({"press": target, "key": key}, called)
        else:
            self._log.not_followed("page.keyboard.press on an element no step named")

    def __getattr__(self, name: str) -> Any:
        self._log.not_followed(f"page.keyboard.{name}")
        return getattr(self._page.keyboard, name)


def load_run(path: Path) -> Callable[[Any], Any]:
    """The ``run`` function of the script at ``path``; :class:`StepsError` if there is none."""
    if not path.is_file():
        raise StepsError(f"script {path} does not exist")
    spec = importlib.util.spec_from_file_location(f"webr4_script_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise StepsError(f"script {path} cannot be loaded as Python (name it *.py)")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except SystemExit as exiting:  # the script's own exit is not webr4's exit status
        raise StepsError(f"script {path} called sys.exit({exiting.code!r}) while loading"
                         f"{script_line(exiting, path)}") from exiting
    except Exception as error:  # the script is user code: any failure is reported in one line
        raise StepsError(f"script {path} failed to load: {type(error).__name__}: {short_name(first_line(error))}"
                         f"{script_line(error, path)}") from error
    run = getattr(module, "run", None)
    if not callable(run):
        raise StepsError(f"script {path} does not define run(page)")
    return run


def actions_from_script(path: Path, url: str, pace: float | None = None) -> Steps:
    """Run the script's ``run(page)`` on ``url`` and return the user actions it performed, with
    the real time between them, or ``pace`` milliseconds (see :class:`StepLog`)."""
    run = load_run(Path(path))
    log = StepLog(pace)
    with plain_page(url) as page:
        try:
            run(RecordingPage(page, log))
        except SystemExit as exiting:  # the script's own exit is not webr4's exit status
            raise StepsError(f"script {path} called sys.exit({exiting.code!r}) in run(page)"
                             f"{script_line(exiting, path)}; let run return instead") from exiting
        except Exception as error:  # the script is user code: any failure is reported in one line
            raise StepsError(f"script {path} raised {type(error).__name__}: {short_name(first_line(error))}"
                             f"{script_line(error, path)}") from error
    return log.steps


def script_line(error: BaseException, path: Path) -> str:
    """Where in the script at ``path`` ``error`` came from, as `` (line N, in NAME)``: its
    innermost frame in that file; empty when it did not pass through the script (a syntax error
    names its line itself). The error itself is kept as the :class:`StepsError`'s cause, for a
    traceback."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__)
              if Path(frame.filename).resolve() == path.resolve()]
    if not frames:
        return ""
    return f" (line {frames[-1].lineno}, in {frames[-1].name})"
