"""webr4 on real web pages: libraries of many kinds from the npm registry, each with a user session.

The corpus (``benchmarks/real_web.json``) pins the npm packages and names, per page, its kind, the
package it shows, the page (a page the package ships, ``node_modules/<package>/...``, or a small
host page of this repository, ``pages/<name>/...`` from ``benchmarks/pages/real_web/<name>/``,
which loads the library's files from the installed package and its content from files beside
it, never from the internet) and a scripted session in webr4's action format. On first use the
packages are installed with npm into ``benchmarks/.cache/real_web`` (gitignored); without npm
or the registry the benchmark says so and measures nothing. The pages are served from one
loopback root holding ``node_modules`` and ``pages``.

Per page, in one run, pages one at a time, with one worker:

* the plain Playwright session (:func:`benchmarks.plain.plain_session`), median of
  :data:`PLAIN_REPEATS`: the baseline of the cost ratio;
* the final DOM of the session in plain Chromium (:func:`plain_doms`: two sessions, read a few
  times each once the page has settled) against the final DOM of webr4's recording, compared as
  webr4 compares two end states (:func:`webr4.state.categories.dom.diff_dom`, which ignores ids
  renamed alike everywhere, as ids from random sources are), what differs among plain Chromium's
  own reads masked as noise: ``same``, or the first differences;
* ``record``, then ``explore`` at bound 1 (:data:`MAX_SEQUENCES`, :data:`TIME_LIMIT_S`), then
  the harmful verdicts confirmed in plain Chromium (:func:`webr4.sweep.confirm.confirm_run`):
  the verdicts, the failure of each error verdict, seconds per execution and its ratio to the
  plain session, and the run directory's size.

``python -m benchmarks --only real_web`` writes ``benchmarks/results/real_web.{md,json}`` and the
table into ``docs/benchmarks/real-web.md`` (between ``<!-- real_web:start -->`` and
``<!-- real_web:end -->``); ``REAL_WEB_PAGES=name,name`` measures those pages alone and leaves that
page as it is.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Collection
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Browser
from playwright.async_api import Page as BrowserPage

from benchmarks.corpora import PageCorpus, WebPage, ensure_web_root, load_pages
from benchmarks.plain import PerExecution, in_fresh_context, perform_session, plain_browser, plain_session
from benchmarks.real_apps import directory_bytes
from benchmarks.section import Section
from webr4.browser.actions import UserAction
from webr4.browser.driver import Driver
from webr4.record.session import record
from webr4.resources import javascript
from webr4.rundir.execution_files import read_state
from webr4.serve import serve
from webr4.state.categories.dom import DOM, diff_dom
from webr4.state.renaming import find_renaming, rename
from webr4.sweep.confirm import confirm_run
from webr4.sweep.explore import explore
from webr4.sweep.settings import SweepSettings

PAGES_ENV = "REAL_WEB_PAGES"
MAX_SEQUENCES = 6
TIME_LIMIT_S = 300.0
PLAIN_REPEATS = 3
PLAIN_DOM_RUNS = 2
SETTLE_S = 6.0
CAPTURES = 4
CAPTURE_GAP_S = 0.4
"""Plain Chromium's final DOM: two sessions, each captured four times 0.4 s apart from 6 s after
its last step (past a page's 5 s idle timer); what differs among those eight captures is noise."""
SHOWN_DIFFERENCES = 3


@dataclass
class PageResult(PerExecution):
    """What one page gave; the recording and sweep figures are None when that stage did not run."""

    page: str
    kind: str
    package: str
    plain_s: float
    dom: list[str] | None = None  # the differences of webr4's final DOM from plain Chromium's; [] when the same
    record_s: float | None = None
    sweep_s: float | None = None
    sequences: int | None = None  # explored, the seed included
    stop_reason: str | None = None
    run_dir_bytes: int | None = None
    verdicts: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)  # why each error verdict's execution failed
    confirmations: dict[str, int] = field(default_factory=dict)  # harmful verdicts per plain-Chromium status
    error: str | None = None

    @property
    def run_mb(self) -> float | None:
        return None if self.run_dir_bytes is None else self.run_dir_bytes / 1e6

    def to_json(self) -> dict[str, Any]:
        return asdict(self) | {name: getattr(self, name) for name in ("executions", "per_execution_s", "ratio")}


def _one_line(error: BaseException) -> str:
    text = str(error).strip()
    return (text.splitlines()[0] if text else type(error).__name__)[:300]


async def plain_doms(browser: Browser, url: str, steps: list[UserAction]) -> list[str]:
    """The page's DOM (``capture_dom.js``, as webr4 captures it) after ``steps`` in a fresh
    context of ``browser``: :data:`CAPTURES` captures :data:`CAPTURE_GAP_S` apart, the first
    :data:`SETTLE_S` after the last step (webr4's end state comes once the page has nothing left
    to run, its timers included)."""
    async def captures(page: BrowserPage) -> list[str]:
        await perform_session(page, url, steps)
        await page.wait_for_timeout(SETTLE_S * 1000)
        doms = []
        for index in range(CAPTURES):
            if index:
                await page.wait_for_timeout(CAPTURE_GAP_S * 1000)
            doms.append(await page.evaluate(javascript("capture_dom.js")))
        return doms

    doms, _ = await in_fresh_context(browser, captures)
    return doms


def plain_noise(doms: list[str]) -> dict[str, Collection[Any]]:
    """The DOM mask of what differs between plain Chromium's own captures (a clock's text, a
    blinking caret, a drawn id no element carries), as webr4 masks what varies between its seed
    replays."""
    keys: set[str] = set()
    for other in doms[1:]:
        keys.update(DOM.noise(doms[0], other)["dom_keys"])
    return {"dom_keys": frozenset(keys), "selectors": ()}


def dom_differences(plain: list[str], recorded: str) -> list[str]:
    """The differences of ``recorded`` from the first of ``plain`` in webr4's words, leaving out
    what differs among ``plain`` (none when equal up to that and to ids renamed alike
    everywhere)."""
    noise = plain_noise(plain)
    lines = recorded.splitlines()
    recorded = "\n".join(rename(lines, find_renaming(lines, plain[0].splitlines())))  # the mask's paths name ids
    difference = diff_dom(DOM.mask(plain[0], noise), DOM.mask(recorded, noise))
    return DOM.items(difference) if difference else []


async def measure_page(driver: Driver, plain_chromium: Browser, page: WebPage, url: str, scratch: Path) -> PageResult:
    """The plain sessions, the DOM comparison, the recording, the sweep and the confirmation of
    one page; a failure ends the page's row with its error line (the next page still runs)."""
    steps = page.steps
    try:
        plain = statistics.median([await plain_session(plain_chromium, url, steps) for _ in range(PLAIN_REPEATS)])
        expected = [dom for _ in range(PLAIN_DOM_RUNS) for dom in await plain_doms(plain_chromium, url, steps)]
    except Exception as error:  # noqa: BLE001 - the page does not run even without webr4
        return PageResult(page.name, page.kind, page.package, float("nan"), error=f"plain session: {_one_line(error)}")
    result = PageResult(page.name, page.kind, page.package, plain)
    started = time.perf_counter()
    try:
        session = await record(driver, url, scratch / "session", page.session)
    except Exception as error:  # noqa: BLE001 - any failure is this page's figure, not the benchmark's end
        result.error = f"record: {_one_line(error)}"
        return result
    result.record_s = time.perf_counter() - started
    result.dom = dom_differences(expected, read_state(session.files.seed.state).dom)
    run_dir = scratch / "run"
    started = time.perf_counter()
    try:
        summary = await explore(driver, session, run_dir,
                                SweepSettings(max_sequences=MAX_SEQUENCES, time_limit=TIME_LIMIT_S))
        result.sweep_s = time.perf_counter() - started
        summary = await confirm_run(driver.browser, session, run_dir, "harmful")
    except Exception as error:  # noqa: BLE001 - as for the recording
        result.error = f"explore: {_one_line(error)}"
        return result
    result.sequences = summary.sequences
    result.stop_reason = summary.stop_reason
    result.verdicts = summary.counts
    result.failures = [f"{r.id}: {r.failure}" for r in summary.reversals if r.verdict == "error"]
    result.confirmations = dict(Counter(r.confirmation_status or "unchecked" for r in summary.harmful()))
    result.run_dir_bytes = directory_bytes(run_dir)
    return result


def chosen(corpus: PageCorpus, names: str | None) -> list[WebPage]:
    """The pages named in ``names`` (comma-separated), every page when None; ``ValueError``
    names a page the corpus lacks."""
    if names is None:
        return list(corpus.pages)
    wanted = [name.strip() for name in names.split(",") if name.strip()]
    unknown = sorted(set(wanted) - {page.name for page in corpus.pages})
    if unknown:
        raise ValueError(f"{PAGES_ENV} names pages the corpus lacks: {', '.join(unknown)}")
    return [page for page in corpus.pages if page.name in wanted]


async def measure(pages: list[WebPage], root: Path) -> list[PageResult]:
    results = []
    with serve(root) as base, tempfile.TemporaryDirectory(prefix="webr4-real-web-") as scratch:
        async with Driver() as driver, plain_browser() as plain_chromium:
            for page in pages:
                print(f"real_web: {page.name} ...", file=sys.stderr, flush=True)
                result = await measure_page(driver, plain_chromium, page, f"{base}{page.page}",
                                            Path(scratch) / page.name)
                results.append(result)
                print(f"real_web: {_row(result)}", file=sys.stderr, flush=True)
                shutil.rmtree(Path(scratch) / page.name, ignore_errors=True)
    return results


def _figure(value: float | int | None, spec: str) -> str:
    return "–" if value is None else format(value, spec)


def _dom(result: PageResult) -> str:
    if result.dom is None:
        return "–"
    if not result.dom:
        return "same"
    shown = "; ".join(result.dom[:SHOWN_DIFFERENCES]).replace("|", "\\|")
    more = len(result.dom) - SHOWN_DIFFERENCES
    return f"differs: {shown}" + (f" (and {more} more)" if more > 0 else "")


def _verdicts(result: PageResult) -> str:
    if result.error:
        return f"**failed** ({result.error})"
    counts = result.verdicts
    text = " / ".join(str(counts.get(kind, 0)) for kind in ("harmful", "harmless", "heap-only", "error"))
    return text if result.stop_reason in (None, "exhausted", "max-sequences") else f"{text} ({result.stop_reason})"


def _confirmed(result: PageResult) -> str:
    if not result.confirmations:
        return "–"
    return ", ".join(f"{count} {status}" for status, count in sorted(result.confirmations.items()))


def _row(r: PageResult) -> str:
    return (f"| {r.page} | {r.kind} | {r.package} | {_dom(r)} | {_verdicts(r)} | {_confirmed(r)} | "
            f"{_figure(r.per_execution_s, '.2f')} | {r.plain_s:.2f} | {_figure(r.ratio, '.1f')} | "
            f"{_figure(r.sequences, 'd')} | {_figure(r.run_mb, '.1f')} |")


def table(results: list[PageResult]) -> str:
    """The results as Markdown: a row per page, the median and worst ratio, the error verdicts'
    failures, and a closing line saying whether every page was recorded and swept without an
    error verdict with the DOM of plain Chromium."""
    lines = ["| page | kind | package | final DOM vs plain Chromium | harmful / harmless / heap-only / error | "
             "harmful in plain Chromium | s per execution | plain session (s) | ratio | sequences | run dir MB |",
             "|---|---|---|---|---|---|---:|---:|---:|---:|---:|"]
    lines += [_row(r) for r in results]
    ratios = [r.ratio for r in results if r.ratio is not None]
    if ratios:
        lines.append(f"| **median** | | | | | | | | {statistics.median(ratios):.1f} | | |")
        lines.append(f"| **worst** | | | | | | | | {max(ratios):.1f} | | |")
    failures = [f"- {r.page} {line}" for r in results for line in r.failures]
    if failures:
        lines += ["", "Error verdicts:", *failures]
    failed = [r.page for r in results if r.error]
    errors = [r.page for r in results if r.verdicts.get("error")]
    differ = [r.page for r in results if r.dom]
    problems = [f"{label}: {', '.join(names)}" for label, names in (
        ("failed", failed), ("error verdicts", errors), ("final DOM differs from plain Chromium", differ)) if names]
    lines.append("")
    lines.append("; ".join(problems) + "." if problems else
                 f"All {len(results)} pages were recorded and swept without an error verdict, "
                 "each ending with plain Chromium's DOM.")
    return "\n".join(lines)


def run(sites: list[Path]) -> Section:  # noqa: ARG001 - the corpus is its own set of pages
    """The benchmark section; with every page measured, the documentation's table is replaced too."""
    corpus = load_pages()
    names = os.environ.get(PAGES_ENV)
    pages = chosen(corpus, names)
    title = f"Real web pages: one session each, explore bound 1 --max-sequences {MAX_SEQUENCES}, one worker"
    root = ensure_web_root(corpus)
    if root is None:
        return Section(title, "Not measured: the npm packages of the corpus could not be installed.", [])
    results = asyncio.run(measure(pages, root))
    markdown = table(results)
    return Section(title, markdown, [r.to_json() for r in results], docs=markdown if names is None else None)
