"""The text of a generated regression test (:class:`~webr4.witness.racetest.RaceTest`), for pytest
with pytest-playwright (:func:`python_test`) and for Playwright Test (:func:`typescript_test`).

Both read the same way: a short helper, ``Race``, holds the levers (responses held back by URL
path, the page's clock paused and run, an action taken early that lets the held responses go if
the app waits for them first), and the test lays out the race, one commented line per lever,
then asserts the correct outcome with web-first assertions. ``WEBR4_LEVERS=off`` switches every
lever off: the app then runs in its own order, and the test must pass. The page is loaded from
the test runner's base URL (pytest-playwright's ``--base-url``, Playwright Test's ``baseURL``),
else from the origin webr4 recorded.
"""

from __future__ import annotations

import json
import textwrap
from typing import Any, Callable

from webr4.rundir.outputs import EXPORTED_TEST_MARK, EXPORTED_TEST_WORDS
from webr4.witness.asserted_outcome import Check
from webr4.witness.race_helper import PYTHON_HELPER, TYPESCRIPT_HELPER
from webr4.witness.racetest import RaceTest, Step

LEVERS_SWITCH = "WEBR4_LEVERS"
"""The environment variable that switches a generated test's levers off (``off``)."""

def _needs(test: RaceTest) -> set[str]:
    """Which parts of the helper ``test`` uses (the tags of the helper's lines)."""
    kinds = {step.kind for step in test.steps}
    early = any(step.early for step in test.steps)
    needs = {tag for tag, used in (("held", bool(test.held)), ("clock", test.clock),
                                   ("arrived", "arrived" in kinds or early or bool(test.held)), ("early", early),
                                   ("errors", any(check.kind == "errors" for check in test.checks))) if used}
    return needs | ({"paths"} if needs & {"held", "arrived"} else set())


def _helper(template: str, test: RaceTest) -> list[str]:
    """The helper's lines that ``test`` uses: a line tagged ``tag|`` only when it needs ``tag``
    (a block opens with no blank line, and one left empty closes on its opening line, as the
    formatters write it)."""
    needs, lines = _needs(test), list[str]()
    for line in template.format(origin=_literal(test.origin), switch=LEVERS_SWITCH).splitlines():
        tag, bar, rest = line.partition("|")
        if bar and " " not in tag and not tag.startswith(("/", "*")):
            if tag not in needs:
                continue
            line = rest
        opened = bool(lines) and lines[-1].endswith("{")
        if opened and line.strip() == "}":
            lines[-1] += "}"
        elif not (opened and not line.strip()):
            lines.append(line)
    return lines


def _literal(value: Any) -> str:
    """A string, number or list as a Python and TypeScript literal alike (double quotes)."""
    return json.dumps(value, ensure_ascii=False)


def _locator(selector: str, first: bool = True, typescript: bool = False) -> str:
    """``page.locator(...)`` for ``selector``, on its first match (as webr4 acts and reads) unless
    it names one element by id: Playwright's locators refuse to act on several."""
    single = selector.startswith("#") and not any(c in selector[1:] for c in " >+~:.[#,")
    return f"page.locator({_py(selector)})" + ("" if single or not first else ".first()" if typescript else ".first")


def _py(value: Any) -> str:
    """A Python literal as ruff format writes it: double quotes, unless the text holds more double
    quotes than single ones."""
    if isinstance(value, str) and value.count('"') > value.count("'"):
        return repr(value) if not value.count("'") else _literal(value)
    return _literal(value)


LINE_LENGTH = 88
"""ruff format's (and Black's) line length, which the generated Python keeps to."""
PRINT_WIDTH = 80
"""Prettier's line length, which the generated TypeScript keeps to."""


def _fitted(line: str, width: int = LINE_LENGTH, end: str = ")") -> list[str]:
    """``line`` (indented, ending in a call, then ``end``) as ruff format (``end`` ``)``) or
    Prettier (``end`` ``);``, a trailing comma after the arguments) splits a call too long for
    ``width``: its arguments on a line of their own."""
    if len(line) <= width or not line.endswith(end):
        return [line]
    tail = end.removeprefix(")")
    line = line.removesuffix(tail)
    indent = line[:len(line) - len(line.lstrip())]
    depth, opening = 0, -1
    for index in range(len(line) - 1, -1, -1):  # the parenthesis the last one closes
        depth += {")": 1, "(": -1}.get(line[index], 0)
        if depth == 0:
            opening = index
            break
    if opening <= len(indent):
        return [line + tail]
    inside = line[opening + 1:-1]
    if not tail:
        return [line[:opening + 1], f"{indent}    {inside}", f"{indent})"]
    return [line[:opening + 1], *(f"{indent}  {argument}," for argument in _arguments(inside)), f"{indent}){tail}"]


def _arguments(text: str) -> list[str]:
    """A call's arguments (``text``, between its parentheses), split at the commas outside
    brackets and string literals."""
    arguments, depth, quote, start = [], 0, "", 0
    for index, char in enumerate(text):
        if quote:
            quote = "" if char == quote and text[index - 1] != "\\" else quote
        elif char in "\"'`":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            arguments.append(text[start:index].strip())
            start = index + 1
    return arguments + [text[start:].strip()]


def _docstring(test: RaceTest, runner: str, width: int) -> list[str]:
    """The test's opening words, wrapped at ``width``: the race in one sentence, then the levers."""
    levers = (f"The levers force this order against the live app: the test fails while the race is there and "
              f"passes once it is fixed, and with {LEVERS_SWITCH}=off (the app's own order). Run: {runner}")
    return [*(line for paragraph in (test.sentence(), "", levers)
              for line in textwrap.wrap(paragraph, width, break_on_hyphens=False, break_long_words=False) or [""])]


def python_test(test: RaceTest, file_name: str) -> str:
    """The pytest file of ``test`` (``file_name``: its name, for the run line)."""
    doc = "\n".join(_docstring(test, f"pytest {file_name} [--base-url URL]", LINE_LENGTH))
    needs = _needs(test)
    playwright = [name for name, used in (("Error", bool(needs & {"held", "early", "arrived"})),
                                          ("Locator", test.clock), ("Page", True),
                                          ("Route", "held" in needs), ("expect", True)) if used]
    lines = [f"{EXPORTED_TEST_MARK}.", f'"""{doc}\n"""', "",
             "from __future__ import annotations", "", "import os",
             *(["from collections.abc import Callable"] if needs & {"held", "early"} else []),
             *(["from datetime import datetime, timedelta"] if test.clock else []),
             *(["from typing import Any"] if "early" in needs else []),
             f"from urllib.parse import {'urljoin, urlsplit' if 'paths' in needs else 'urljoin'}", "",
             f"from playwright.sync_api import {', '.join(playwright)}", ""]
    lines += _helper(PYTHON_HELPER, test)
    lines += ["", "", f"def test_{test.name}(page: Page, base_url: str | None) -> None:",
              "    race = Race(page)"]
    for held in test.held:
        lines += [f"    # Hold {held.file} back until {held.until}.",
                  f"    {held.name} = race.hold({_py(held.path)})"]
    if test.clock:
        lines += ["    # The page's timers fire only when the test runs its clock.", "    race.pause_clock()"]
    lines += [f"    url = urljoin(base_url or RECORDED_AT, {_py(test.path)})",
              '    page.goto(url, wait_until="commit" if LEVERS else "load")']
    lines += [f"    {line}" for step in test.steps for line in _python_step(step)]
    lines += ["    race.done()"]
    lines += [f"    {_python_check(check)}" for check in test.checks]
    return "\n".join(fitted for line in lines for fitted in _fitted(line)) + "\n"


def _python_step(step: Step) -> list[str]:
    comment = [f"# {step.why[:1].upper() + step.why[1:]}."] if step.why else []
    if step.kind == "act" and step.call is not None:
        call, target = step.call, _locator(step.call.selector)
        args = "".join(f", {_py(a)}" for a in call.args)
        if step.early:
            held = ", ".join(step.early)
            return comment + [f"race.early({target}.{call.method}{args}, held=[{held}])"]
        return comment + [f"{target}.{call.method}({args.removeprefix(', ')})"]
    if step.kind == "key-down" and step.call is not None and step.early:
        return [f"race.early({_locator(step.call.selector)}.focus, held=[{', '.join(step.early)}])",
                f"page.keyboard.down({_py(step.call.args[0])})"]
    if step.kind == "key-down" and step.call is not None:
        return [f"{_locator(step.call.selector)}.focus()",
                f"page.keyboard.down({_py(step.call.args[0])})"]
    if step.kind == "key-up" and step.call is not None:
        return comment + [f"page.keyboard.up({_py(step.call.args[0])})"]
    if step.kind == "wait-load":
        return [f"page.wait_for_load_state({_py(step.state)})"]
    if step.kind == "arrived":
        return [f"race.arrived({_py(step.path)})"]
    if step.kind == "release":
        return comment + [f"race.release({step.name})"]
    return comment + [f"race.run_clock({', '.join(_clock_arguments(step))})"]


def _clock_arguments(step: Step, typescript: bool = False) -> list[str]:
    """A ``run-clock`` step's arguments: the time, what must show, what the clock may not pass."""
    shows = [_locator(step.shows, typescript=typescript)] if step.shows else []
    at_most = [str(int(step.at_most))] if shows and step.at_most is not None else []
    return [str(int(round(step.ms))), *shows, *at_most]


def _assertion(check: Check) -> tuple[str, list[str]]:
    """The web-first assertion of an element check, in Python's spelling (``to_have_text``,
    ``not_to_be_checked``), and its arguments as literals."""
    assert check.read is not None
    kind, expected = check.kind, check.expected
    if kind == "count":
        return "to_have_count", [str(int(expected))]
    if kind in ("checked", "visible"):
        return {("checked", True): "to_be_checked", ("checked", False): "not_to_be_checked",
                ("visible", True): "to_be_visible", ("visible", False): "to_be_hidden"}[kind, bool(expected)], []
    if kind == "attribute":
        return "to_have_attribute", [_py(check.read.name), _py(expected)]
    return f"to_have_{kind}", [_py(expected)]


def _python_check(check: Check) -> str:
    if check.kind == "url":
        return "expect(page).to_have_url(url)"
    if check.kind == "errors":
        return f"assert race.errors == {_py(check.expected)}"
    assert check.read is not None
    name, args = _assertion(check)
    return f"expect({_locator(check.read.selector, first=check.kind != 'count')}).{name}({', '.join(args)})"


def typescript_test(test: RaceTest, file_name: str) -> str:
    """The Playwright Test file of ``test`` (``file_name``: its name, for the run line)."""
    doc = _docstring(test, f"npx playwright test {file_name}", PRINT_WIDTH - 3)
    lines = [f"// {EXPORTED_TEST_WORDS}.", "/**", *[f" * {line}".rstrip() for line in doc], " */",
             f'import {{ test, expect,{" type Locator," if test.clock else ""} type Page'
             f'{", type Route" if test.held else ""} }} from "@playwright/test";']
    lines += _helper(TYPESCRIPT_HELPER, test)
    opening = f"test({_py(test.title)}, async ({{ page, baseURL }}) => {{"
    if len(opening) > PRINT_WIDTH:
        opening = f"test({_py(test.title)}, async ({{\n  page,\n  baseURL,\n}}) => {{"
    lines += ["", opening, "  const race = new Race(page);"]
    names = {held.name: _camel(held.name) for held in test.held}
    for held in test.held:
        lines += [f"  // Hold {held.file} back until {held.until}.",
                  f"  const {names[held.name]} = await race.hold({_py(held.path)});"]
    if test.clock:
        lines += ["  // The page's timers fire only when the test runs its clock.", "  await race.pauseClock();"]
    lines += [f"  const url = new URL({_py(test.path)}, baseURL ?? RECORDED_AT).href;",
              '  await page.goto(url, { waitUntil: LEVERS ? "commit" : "load" });']
    lines += [f"  {line}" for step in test.steps for line in _typescript_step(step, names)]
    lines += ["  await race.done();"]
    lines += [f"  {_typescript_check(check)}" for check in test.checks]
    lines += ["});"]
    return "\n".join(fitted for line in lines for fitted in _fitted(line, PRINT_WIDTH, ");")) + "\n"


def _camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(part[:1].upper() + part[1:] for part in rest)


_TS_METHODS = {"select_option": "selectOption", "press_sequentially": "pressSequentially"}


def _typescript_step(step: Step, names: dict[str, str]) -> list[str]:
    comment = [f"// {step.why[:1].upper() + step.why[1:]}."] if step.why else []
    if step.kind == "act" and step.call is not None:
        call, target = step.call, _locator(step.call.selector, typescript=True)
        method = _TS_METHODS.get(call.method, call.method)
        args = [_py(a) for a in call.args]
        if step.early:
            held = "".join(f", {names[name]}" for name in step.early)
            return comment + [f"await race.early((o) => {target}.{method}({', '.join([*args, 'o'])}){held});"]
        return comment + [f"await {target}.{method}({', '.join(args)});"]
    if step.kind == "key-down" and step.call is not None and step.early:
        held = "".join(f", {names[name]}" for name in step.early)
        return [f"await race.early((o) => {_locator(step.call.selector, typescript=True)}.focus(o){held});",
                f"await page.keyboard.down({_py(step.call.args[0])});"]
    if step.kind == "key-down" and step.call is not None:
        return [f"await {_locator(step.call.selector, typescript=True)}.focus();",
                f"await page.keyboard.down({_py(step.call.args[0])});"]
    if step.kind == "key-up" and step.call is not None:
        return comment + [f"await page.keyboard.up({_py(step.call.args[0])});"]
    if step.kind == "wait-load":
        return [f"await page.waitForLoadState({_py(step.state)});"]
    if step.kind == "arrived":
        return [f"await race.arrived({_py(step.path)});"]
    if step.kind == "release":
        return comment + [f"await race.release({names[step.name]});"]
    return comment + [f"await race.runClock({', '.join(_clock_arguments(step, typescript=True))});"]


def _typescript_check(check: Check) -> str:
    if check.kind == "url":
        return "await expect(page).toHaveURL(url);"
    if check.kind == "errors":
        return f"expect(race.errors).toEqual({_py(check.expected)});"
    assert check.read is not None
    name, args = _assertion(check)
    method = ("not." if name.startswith("not_") else "") + _camel(name.removeprefix("not_"))
    target = _locator(check.read.selector, first=check.kind != "count", typescript=True)
    return f"await expect({target}).{method}({', '.join(args)});"


WRITERS: dict[str, Callable[[RaceTest, str], str]] = {"python": python_test, "typescript": typescript_test}
