"""The smallest change to a test that makes it wait for the event it raced with, in Playwright's idiom.

Four kinds of change, each from what the recording saw:

* a read that came too early (``text = page.inner_text("#count")``) gets a web-first assertion
  before it that waits for what it read when the test passed
  (``expect(page.locator("#count")).to_have_text("1", use_inner_text=True)``), and a fixed
  ``wait_for_timeout`` between the action before it and the read goes: the assertion waits for
  the event, never longer;
* an action that came before the page's scripts had run (a click before its handler was attached)
  waits for the page to load first (``page.wait_for_load_state()``);
* an action that came before the page's event it needed (a key press before the suggestions were
  shown) waits for what that event shows (``expect(page.locator("#city")).to_have_attribute(
  "aria-expanded", "true")``, :mod:`webr4.deflake.awaited`), and the fixed sleeps before it go;
* when the event shows nothing an assertion can say (it only adds list items), an action that
  came before a response the page needed (typing before the saved list arrived) waits for that
  response where it is started: the ``goto`` or action that starts it goes inside
  ``with page.expect_response("**/path"):``; typing that starts a request per key
  (``press_sequentially``) is split after the key whose answer must come before the next.

A change is a proposal only: :mod:`webr4.deflake.session` offers it once it is proven. Sources are
read with :mod:`ast`, and edited by whole lines.
"""

from __future__ import annotations

import ast
import difflib
import json
from urllib.parse import urlsplit
from dataclasses import dataclass
from typing import Any

from webr4.browser.actions import LOAD_STATE, PAGE_ASSERTION, PAGE_URL
from webr4.deflake.awaited import Awaited
from webr4.deflake.testlog import TestCall
from webr4.useractions import ACTIONS
from webr4.errors import Webr4Error

_BOOLEAN_ASSERTIONS: dict[str, tuple[str, str]] = {
    "is_visible": ("to_be_visible()", "to_be_hidden()"),
    "is_hidden": ("to_be_hidden()", "to_be_visible()"),
    "is_checked": ("to_be_checked()", "not_to_be_checked()"),
    "is_enabled": ("to_be_enabled()", "to_be_disabled()"),
    "is_disabled": ("to_be_disabled()", "to_be_enabled()"),
    "is_editable": ("to_be_editable()", "not_to_be_editable()"),
}
_PAGE_LEVEL = " >> nth=0"  # how a page-level read's selector was written down (webr4.record.scripted)


@dataclass(frozen=True)
class Fix:
    """A change to the test file ``path``: its text before and after, and what it does in words."""

    path: str
    before: str
    after: str
    summary: str

    @property
    def diff(self) -> str:
        """The change as a unified diff of the file, relative to the working directory."""
        lines = difflib.unified_diff(self.before.splitlines(keepends=True), self.after.splitlines(keepends=True),
                                     f"a/{self.path}", f"b/{self.path}")
        return "".join(lines)


class NoFix(Webr4Error):
    """No change to the test can be proposed for this order; the message says why."""


def _literal(value: Any) -> str:
    """A value as Python source in the formatter's style (double-quoted strings)."""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return f"[{', '.join(_literal(v) for v in value)}]"
    return repr(value)


def assertion_for(call: TestCall) -> str:
    """The web-first assertion that waits for a read's ``answer``, as Python source."""
    answer, method = call.answer, call.call
    if method == PAGE_URL and isinstance(answer, str):
        return f"to_have_url(re.compile({_url_ending(answer)}))"
    if method in _BOOLEAN_ASSERTIONS:
        return _BOOLEAN_ASSERTIONS[method][0 if answer else 1]
    if method == "count":
        return f"to_have_count({_literal(answer)})"
    if method == "input_value":
        return f"to_have_value({_literal(answer)})"
    if method == "get_attribute" and answer is not None and call.args:
        return f"to_have_attribute({_literal(call.args[0])}, {_literal(answer)})"
    if method in ("inner_text", "all_inner_texts"):
        return f"to_have_text({_literal(answer)}, use_inner_text=True)"
    if method in ("text_content", "all_text_contents") and answer is not None:
        return f"to_have_text({_literal(answer)})"
    raise NoFix(f"no web-first assertion waits for {method} to answer {answer!r}")


def _url_ending(url: str) -> str:
    """A raw string literal of the pattern ``url`` ends with, from its path on: the origin is
    the server's, which may differ from run to run."""
    parts = urlsplit(url)
    tail = parts.path + (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")
    if '"' in tail or tail.endswith("\\"):
        raise NoFix(f"no pattern of the URL {url!r} can be written as a raw string")
    return 'r"' + "".join(f"\\{c}" if c in _REGEX_SPECIALS else c for c in tail) + '$"'


_REGEX_SPECIALS = frozenset("\\.^$*+?{}[]|()")


def _statement_at(tree: ast.Module, line: int) -> ast.stmt:
    """The innermost statement spanning ``line``."""
    found: ast.stmt | None = None
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt) or hasattr(node, "body"):
            continue
        if node.lineno <= line <= (node.end_lineno or node.lineno):
            if found is None or node.lineno > found.lineno:
                found = node
    if found is None:
        raise NoFix(f"line {line} holds no statement")
    return found


def _call_at(tree: ast.Module, line: int, method: str) -> ast.Call:
    """The call of ``.method(...)`` on ``line``."""
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == method
                and node.lineno <= line <= (node.end_lineno or node.lineno)):
            return node
    raise NoFix(f"no call of {method} on line {line}")


def _page_at(tree: ast.Module, line: int, method: str) -> str:
    """The name of the page the call of ``.method(...)`` on ``line`` acts on; a step of one of
    Playwright's compound calls (a key of ``press_sequentially``) is found by its line alone."""
    try:
        return _root_name(_call_at(tree, line, method).func)
    except NoFix:
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.lineno <= line <= (node.end_lineno or node.lineno)):
                return _root_name(node.func)
        raise


def _indent(lines: list[str], statement: ast.stmt) -> str:
    text = lines[statement.lineno - 1]
    return text[:len(text) - len(text.lstrip())]


def _root_name(node: ast.expr) -> str:
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    if not isinstance(node, ast.Name):
        raise NoFix("the call is not made on a named page")
    return node.id


def locator_source(source: str, tree: ast.Module, call: TestCall) -> str:
    """The locator a read at ``call`` read, as the test's own source writes it (for a read of
    the page's URL, the page)."""
    if call.call == PAGE_URL:
        return _page_of_url_read(source, tree, call.line)
    node = _call_at(tree, call.line, call.call)
    assert isinstance(node.func, ast.Attribute)
    receiver = ast.get_source_segment(source, node.func.value)
    if receiver is None:
        raise NoFix(f"the read on line {call.line} cannot be located in the source")
    if call.selector.endswith(_PAGE_LEVEL):  # page.inner_text(selector): the selector is its first argument
        if not node.args:
            raise NoFix(f"the read on line {call.line} names no selector")
        return f"{receiver}.locator({ast.get_source_segment(source, node.args[0])})"
    return receiver


def _page_of_url_read(source: str, tree: ast.Module, line: int) -> str:
    """The page whose ``.url`` the test reads on ``line``, as its source writes it."""
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr == "url" and isinstance(node.ctx, ast.Load)
                and node.lineno <= line <= (node.end_lineno or node.lineno)):
            page = ast.get_source_segment(source, node.value)
            if page is not None:
                return page
    raise NoFix(f"no read of a page's url on line {line}")


def _with_re_imported(tree: ast.Module, lines: list[str]) -> list[str]:
    """``lines`` with ``import re`` added, before the module's first import (after a
    ``from __future__`` one), when the module lacks it."""
    imports = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    if any(isinstance(node, ast.Import) and any(a.name == "re" and a.asname is None for a in node.names)
           for node in imports):
        return lines
    later = [node for node in imports if not (isinstance(node, ast.ImportFrom) and node.module == "__future__")]
    if later:
        at = later[0].lineno - 1
        return [*lines[:at], "import re\n", *lines[at:]]
    if imports:
        at = imports[-1].end_lineno or 0
        return [*lines[:at], "import re\n", *lines[at:]]
    at = _after_docstring(tree)  # where an added expect import goes too: this one comes first
    return [*lines[:at], "\nimport re\n" if at else "import re\n\n", *lines[at:]]


def _after_docstring(tree: ast.Module) -> int:
    """The line a module's docstring ends on (0: it has none)."""
    first = tree.body[0] if tree.body else None
    docstring = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(
        first.value.value, str)
    return (first.end_lineno or 0) if docstring and first is not None else 0


def _with_expect_imported(tree: ast.Module, lines: list[str]) -> list[str]:
    """``lines`` with ``from playwright.sync_api import expect`` added when the module lacks ``expect``."""
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and any((a.asname or a.name) == "expect" for a in node.names):
            return lines
    imports = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    for node in imports:  # from playwright.sync_api import Page: one more name on that line
        text = lines[node.lineno - 1]
        if (isinstance(node, ast.ImportFrom) and node.module == "playwright.sync_api" and node.lineno == node.end_lineno
                and "(" not in text and "#" not in text and text.endswith("\n")):
            return [*lines[:node.lineno - 1], f"{text.rstrip()}, expect\n", *lines[node.lineno:]]
    if imports:
        at = imports[-1].end_lineno or 0
        return [*lines[:at], "from playwright.sync_api import expect\n", *lines[at:]]
    at = _after_docstring(tree)
    head = "\nfrom playwright.sync_api import expect\n" if at else "from playwright.sync_api import expect\n\n\n"
    return [*lines[:at], head, *lines[at:]]


def wait_before_read(path: str, source: str, calls: list[TestCall], read: TestCall) -> Fix:
    """Assert, before ``read``, what it read when the test passed; drop the fixed sleeps since
    the call before it."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    statement = _statement_at(tree, read.line)
    expectation = f"{_indent(lines, statement)}expect({locator_source(source, tree, read)}).{assertion_for(read)}\n"
    if statement.lineno > 1 and lines[statement.lineno - 2] == expectation:
        raise NoFix(f"the test already waits for {_read_words(read)} to answer {read.answer!r}, "
                    "and a page event still changes it before the read: the app must order its events")
    edited, dropped = _instead_of_sleeps(tree, lines, calls, read, statement, expectation)
    if read.call == PAGE_URL:
        edited = _with_re_imported(tree, edited)
    summary = f"wait for {_read_words(read)} to answer {read.answer!r} with a retrying assertion"
    return Fix(path, source, "".join(edited), summary + _instead_words(dropped))


def _read_words(read: TestCall) -> str:
    """``inner_text on #total``, or for a read of the page itself ``page.url``."""
    return read.call if read.call.startswith(PAGE_ASSERTION) else f"{read.call} on {_shown(read.selector)}"


def _is_sleep_statement(tree: ast.Module, line: int) -> bool:
    statement = _statement_at(tree, line)
    value = statement.value if isinstance(statement, ast.Expr) else None
    return (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and value.func.attr == "wait_for_timeout" and statement.lineno == statement.end_lineno)


def load_before_action(path: str, source: str, action: TestCall, state: str = "load") -> Fix:
    """Wait, before ``action``, for the page's load ``state`` (``domcontentloaded``: the parser's
    scripts have run and attached their handlers; ``load``: everything has)."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    statement = _statement_at(tree, action.line)
    page = _page_at(tree, action.line, action.call)
    argument = "" if state == "load" else _literal(state)
    wait = f"{_indent(lines, statement)}{page}.wait_for_load_state({argument})\n"
    if statement.lineno > 1 and lines[statement.lineno - 2] == wait:
        raise NoFix(f"the test already waits for the page's {state} before the {action.call} on "
                    f"{_shown(action.selector)}, and the page's event still comes after it: the app must order them")
    edited = [*lines[:statement.lineno - 1], wait, *lines[statement.lineno - 1:]]
    words = "load" if state == "load" else "run its scripts"
    summary = f"wait for the page to {words} before the {action.call} on {_shown(action.selector)}"
    return Fix(path, source, "".join(edited), summary)


def wait_for_state(path: str, source: str, calls: list[TestCall], action: TestCall, awaited: Awaited,
                   event: str) -> Fix:
    """Wait, before ``action``, for what the page's ``event`` (its label) shows once it has run
    (``awaited``, :mod:`webr4.deflake.awaited`), with a web-first assertion; drop the fixed
    sleeps since the call before the action."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    statement = _statement_at(tree, action.line)
    method = ACTIONS[action.call].method if action.call in ACTIONS else action.call
    page = _page_at(tree, action.line, method)
    locator = f"{page}.locator({_literal(awaited.selector)})"
    expectation = f"{_indent(lines, statement)}expect({locator}).{awaited.assertion}\n"
    if expectation in lines[:statement.lineno - 1]:
        raise NoFix(f"the test already waits for {awaited.words} before its {action.call}, and the page's "
                    "events still race: the app must order them")
    edited, dropped = _instead_of_sleeps(tree, lines, calls, action, statement, expectation)
    summary = (f"wait for what {event} shows ({awaited.words}) before the {action.call} on "
               f"{_shown(action.selector)}")
    return Fix(path, source, "".join(edited), summary + _instead_words(dropped))


def _instead_of_sleeps(tree: ast.Module, lines: list[str], calls: list[TestCall], call: TestCall,
                       statement: ast.stmt, expectation: str) -> tuple[list[str], set[int]]:
    """``lines`` with ``expectation`` before ``statement`` (``call``'s), the fixed sleeps (whole
    ``wait_for_timeout`` statements) the test made between its call before ``call`` and ``call``
    left out, and ``expect`` imported; and the lines of the sleeps left out."""
    position = calls.index(call)
    before = [c for c in calls[:position] if c.kind != "sleep"]
    since = before[-1].line if before else 0
    sleeps = {c.line for c in calls[:position] if c.kind == "sleep" and since <= c.line < call.line}
    dropped = {line for line in sleeps if _is_sleep_statement(tree, line)}
    edited = [text for number, text in enumerate(lines, 1) if number not in dropped]
    edited.insert(statement.lineno - 1 - sum(1 for line in dropped if line < statement.lineno), expectation)
    return _with_expect_imported(tree, edited), dropped


def _instead_words(dropped: set[int]) -> str:
    return f", instead of the fixed wait on line {min(dropped)}" if dropped else ""


def wait_for_response(path: str, source: str, calls: list[TestCall], trigger: TestCall, url: str) -> Fix:
    """Wait, at the end of the statement that starts it (``trigger``: an action, or the
    ``goto``), for the response to ``url``: the statement inside ``with page.expect_response(…)``.
    When ``trigger`` is a key of a ``press_sequentially`` before its last, the typing is split
    after that key, and only the keys up to it go inside: the keys after it are typed once the
    response has come (an answer for "ca" awaited before the "t" of "cat").

    A fixed sleep after the trigger stays: Playwright's response event comes when the response
    arrives, before the page's own handler has read its body and acted on it, which the sleep
    may still be waiting for (measured: autocomplete suggestions shown from ``response.json()``
    were missed 2 times in 20 without it). That is why :func:`wait_for_state` comes first."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    statement = _statement_at(tree, trigger.line)
    method = "goto" if trigger.call == LOAD_STATE else ACTIONS[trigger.call].method
    page = _page_at(tree, trigger.line, method)
    glob = "**" + (urlsplit(url).path or "/")
    indent = _indent(lines, statement)
    waiting = f"with {page}.expect_response({_literal(glob)}):\n"
    if statement.lineno > 1 and lines[statement.lineno - 2].strip() == waiting.strip():
        raise NoFix(f"the test already waits for the response to {glob} that its {method} starts, and the page's "
                    "events still race: the app must order them")
    own = lines[statement.lineno - 1:statement.end_lineno]
    typed, after = _typed_until(statement, own, _keys_before(calls, trigger))
    body = [f"    {text}" if text.strip() else text for text in typed]
    edited = [*lines[:statement.lineno - 1], f"{indent}{waiting}", *body, *after,
              *lines[statement.end_lineno or statement.lineno:]]
    summary = f"wait for the response to {glob} that the {method} starts"
    if after:
        summary += " before typing on"
    return Fix(path, source, "".join(edited), summary)


def _keys_before(calls: list[TestCall], trigger: TestCall) -> int:
    """How many keys the call on ``trigger``'s line typed before ``trigger`` (0 for a call that is
    not one of a run of key presses from one line)."""
    position = calls.index(trigger)
    keys = 0
    for call in reversed(calls[:position]):
        if call.line != trigger.line or not (call.kind == "sleep" or call.call == "press"):
            break
        keys += call.kind == "action"
    return keys if trigger.call == "press" else 0


def _typed_until(statement: ast.stmt, own: list[str], keys_before: int) -> tuple[list[str], list[str]]:
    """``own`` (the statement's lines) split in two when it is a ``press_sequentially`` of a
    literal text with keys after the one at ``keys_before``: the same call typing the text up to
    that key, and the same call typing the rest. Otherwise ``own`` whole, and nothing after."""
    value = statement.value if isinstance(statement, ast.Expr) else None
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and value.func.attr == "press_sequentially" and value.args):
        return own, []
    text = value.args[0]
    if not (isinstance(text, ast.Constant) and isinstance(text.value, str) and text.lineno == text.end_lineno
            and keys_before + 1 < len(text.value)):
        return own, []
    at, line = text.lineno - statement.lineno, own[text.lineno - statement.lineno]
    start, end = _character_columns(line, text.col_offset, text.end_col_offset or text.col_offset)

    def typing(part: str) -> list[str]:
        return [*own[:at], f"{line[:start]}{_literal(part)}{line[end:]}", *own[at + 1:]]

    return typing(text.value[:keys_before + 1]), typing(text.value[keys_before + 1:])


def _character_columns(line: str, *byte_columns: int) -> tuple[int, ...]:
    """:mod:`ast`'s columns are UTF-8 byte offsets; the same places as offsets into ``line``."""
    encoded = line.encode("utf-8")
    return tuple(len(encoded[:column].decode("utf-8")) for column in byte_columns)


def _shown(selector: str) -> str:
    return selector.removesuffix(_PAGE_LEVEL)


def as_json(fix: Fix | None, verified: bool, why: str) -> dict[str, Any]:
    """A fix as ``summary.json``'s ``flaky`` entries carry it."""
    if fix is None:
        return {"diff": None, "verified": False, "summary": None, "why": why}
    return {"diff": fix.diff, "verified": verified, "summary": fix.summary, "why": why}
