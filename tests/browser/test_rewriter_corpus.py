"""The rewriter's corpus of tricky constructs behaves the same in Chromium, rewritten or not.

``tests/instrument/test_corpus.py`` proves this under Node; here every corpus program runs as a
real page: classic scripts inline (the document rewriter's path) and the handler-body program
as a real ``onclick`` attribute, and the module program as a module importing its neighbour. A
plain script before each program
turns ``console.log`` into lines appended to ``<pre id=out>``, so the printed output ends up in the
final DOM. Each page runs once plain and once instrumented; the ``#out`` text must be identical,
the instrumented run may raise no exception the plain run does not, and it must log more
accesses. Three more pages exercise inline handler attributes clicked by the harness.
"""

from __future__ import annotations

import asyncio
import html
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from webr4.browser.actions import UserAction, parse_actions
from webr4.browser.driver import Driver
from webr4.execution import AccessLog, Capture, Execution
from webr4.serve import serve

pytestmark = pytest.mark.browser

CORPUS = Path(__file__).resolve().parent.parent / "instrument" / "corpus"
DEPENDENCY = 'export let counter = 0;\nexport function bump() { counter++; }\nexport default "dflt";\n'

PRINT_SHIM = r"""
(function () {
  var pre = document.getElementById("out");
  function show(v) {
    if (typeof v === "string") return v;
    if (typeof v === "bigint") return v + "n";
    if (typeof v === "function") return "[Function: " + (v.name || "(anonymous)") + "]";
    if (typeof v === "symbol" || v === null || typeof v !== "object") return String(v);
    try { return JSON.stringify(v); } catch (e) { return Object.prototype.toString.call(v); }
  }
  function print() {
    var parts = [];
    for (var i = 0; i < arguments.length; i++) parts.push(show(arguments[i]));
    var line = document.createElement("div");
    line.textContent = parts.join(" ");
    pre.appendChild(line);
  }
  console.log = print;
  window.print = print;
  window.addEventListener("error", function (e) { print("THROWN " + e.message); });
  window.addEventListener("unhandledrejection", function (e) {
    var r = e.reason;
    print("REJECTED " + (r && typeof r === "object" ? r.name + ": " + r.message : String(r)));
  });
})();
"""


@dataclass(frozen=True)
class Case:
    name: str
    page: str  # the file name of the page in the served directory
    actions: tuple[UserAction, ...] = ()


def _page(body: str) -> str:
    return ("<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>corpus</title></head><body>\n"
            "<pre id=\"out\"></pre>\n<script>" + PRINT_SHIM + "</script>\n" + body + "\n</body></html>\n")


def _inline(source: str) -> str:
    assert not re.search(r"</script|<!--", source, re.I), "the program cannot be inlined as is"
    return "<script>\n" + source + "\n</script>"


def _handler_page(source: str) -> str:
    """``handler_body.js`` as the onclick attribute of a button, called the way Node's runner
    calls it (``this`` the element, an event of type click) so its return value can be printed."""
    attribute = html.escape(source.strip(), quote=True).replace("\n", "&#10;")
    return _page(
        f'<button id="button1" value="v" onclick="{attribute}">go</button>\n'
        "<script>\nvar button = document.getElementById(\"button1\"); button.clicks = 0;\n"
        "console.log(button.onclick(new MouseEvent(\"click\")), button.clicks);\n</script>"
    )


CLICK = tuple(parse_actions([{"click": "#b"}]))

HANDLER_PAGES = {
    # `this` is the element; bare names resolve through the element's scope (id, tagName, value).
    "handler-this": (
        '<button id="b" value="val" data-n="1" onclick="'
        "this.dataset.n = +this.dataset.n + 1; this.textContent = 'clicked ' + this.id;"
        " print(this === document.getElementById('b'), this.tagName, id, tagName, value, this.dataset.n)"
        '">go</button>'
    ),
    # `event` is the click the harness performed.
    "handler-event": (
        '<button id="b" onclick="'
        "var kind = event.type; print(kind, event.target.id, event.currentTarget === this,"
        " event instanceof MouseEvent, event.isTrusted, typeof event.preventDefault)"
        '">go</button>'
    ),
    # A global declared by a page script, read and written from the handler; the handler's own
    # `var` stays local.
    "handler-global": (
        "<script>var counter = 1; var history2 = []; function record(v) { history2.push(v); return v; }</script>\n"
        '<button id="b" onclick="'
        "var local = counter; counter += 41; window.total = record(counter * 2);"
        " print(local, counter, total, history2.join(), typeof local === 'number' &amp;&amp; !('local' in window))"
        '">go</button>'
    ),
}

def _build(directory: Path) -> dict[str, Case]:
    cases: dict[str, Case] = {}
    for path in sorted(CORPUS.iterdir()):
        source = path.read_text(encoding="utf-8")
        page = path.stem + ".html"
        if path.suffix == ".mjs":
            (directory / "dep.mjs").write_text(DEPENDENCY, encoding="utf-8")
            (directory / path.name).write_text(re.sub(r'from "dep"', 'from "./dep.mjs"', source), encoding="utf-8")
            body = f'<script type="module" src="{path.name}"></script>'
        elif path.stem.startswith("handler"):
            body = None
            (directory / page).write_text(_handler_page(source), encoding="utf-8")
        else:
            body = _inline(source)
        if body is not None:
            (directory / page).write_text(_page(body), encoding="utf-8")
        cases[path.name] = Case(path.name, page)
    for name, body in HANDLER_PAGES.items():
        (directory / (name + ".html")).write_text(_page(body), encoding="utf-8")
        cases[name] = Case(name, name + ".html", CLICK)
    return cases


PARALLEL = 4  # executions in flight at once on the session's Chromium (each in its own context)


@pytest.fixture(scope="module")
def runs(driver, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Execution, Execution]]:
    """Every page, plain and instrumented, run a few at a time on the session's driver; keeps the
    module well within a minute."""
    directory = tmp_path_factory.mktemp("rewriter-corpus")
    cases = list(_build(directory).values())
    with serve(directory) as base:
        limit = asyncio.Semaphore(PARALLEL)

        async def run_all(shared: Driver) -> list[Execution]:
            async def run(case: Case, instrument: bool) -> Execution:
                async with limit:  # every access: a one-event program's are all held back otherwise
                    return await shared.execute(base + case.page, actions=case.actions,
                                                capture=Capture(accesses=AccessLog.FULL, rewrite_scripts=instrument))

            return await asyncio.gather(*(run(case, flag) for case in cases for flag in (False, True)))

        done = driver.run(run_all)
    return {case.name: (done[2 * i], done[2 * i + 1]) for i, case in enumerate(cases)}


def out_text(dom: str) -> list[str]:
    """The lines inside ``<pre id="out">`` in a DOM captured by ``capture_dom.js``."""
    lines = dom.splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("<pre") and 'id="out"' in line)
    pad = lines[start][: len(lines[start]) - len(lines[start].lstrip())]
    end = lines.index(pad + "</pre>", start)
    return [html.unescape(line.strip()) for line in lines[start + 1:end]
            if not line.strip().startswith(("<div", "</div"))]


def exceptions(execution: Execution) -> Counter[str]:
    return Counter(e.message for e in execution.trace.errors if e.kind in ("exception", "unhandledrejection"))


def accesses(execution: Execution) -> int:
    return sum(len(step.accesses) for step in execution.trace.steps)


# Corpus cases that behave differently in the browser once rewritten: name -> reason.
NAMES = [p.name for p in sorted(CORPUS.iterdir())] + list(HANDLER_PAGES)


@pytest.mark.parametrize("name", NAMES)
def test_same_output_in_chromium(runs: dict[str, tuple[Execution, Execution]], name: str) -> None:
    plain, instrumented = runs[name]
    assert plain.trace.truncated is None and instrumented.trace.truncated is None
    expected = out_text(plain.dom)
    assert expected, "the program printed nothing"
    assert not [line for line in expected if line.startswith(("THROWN", "REJECTED"))], expected
    assert out_text(instrumented.dom) == expected
    extra = exceptions(instrumented) - exceptions(plain)
    assert not extra, f"exceptions only when rewritten: {dict(extra)}"
    assert accesses(instrumented) > accesses(plain), "the rewritten program logged no accesses"
