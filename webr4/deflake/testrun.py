"""A pytest test item under ``deflake``: its function and fixtures, and fresh plain pages for it.

The pytest plugin (:mod:`webr4.pytest_plugin`) hands each collected test here when
``--webr4-deflake RUN`` is given; the test's own fixtures (pytest-playwright's ``page``, the
project's ``conftest.py``) are set up by pytest as usual.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from webr4.deflake.results import read_entry, test_dir, write_entry
from webr4.deflake.session import TestFailsAlone, TestUnderDeflake, deflake_test
from webr4.deflake.words import in_words
from webr4.errors import Webr4Error


def _context_args(item: pytest.Function) -> dict[str, Any]:
    """pytest-playwright's ``browser_context_args`` for the item (base URL, viewport, …), else none."""
    try:
        value = item._request.getfixturevalue("browser_context_args")
    except pytest.FixtureLookupError:
        return {}
    return dict(value) if isinstance(value, dict) else {}


@dataclass(frozen=True)
class DeflakeOptions:
    """How a deflake run treats each test: its sweeps' conflict-reversal ``bound`` and ``budget``
    (seconds), where their executions run (``workers`` processes, or the Dask ``cluster``), and
    whether a test the run has judged already keeps its entry (``resume``)."""

    bound: int
    budget: float | None = None
    workers: int = 1
    cluster: str | None = None
    resume: bool = False


def under_deflake(item: pytest.Function, options: DeflakeOptions) -> TestUnderDeflake:
    """``item`` as deflake runs it: it takes pytest-playwright's ``page``, or its ``context`` and
    opens the page itself (:mod:`webr4.deflake.fixtures`)."""
    page: Any = item.funcargs.get("page")
    context: Any = item.funcargs.get("context")
    if page is None and context is not None:
        page = context.new_page()
    if page is None:
        pytest.fail(f"{item.nodeid} takes neither Playwright's 'page' nor its 'context' fixture: deflake follows "
                    "the page a test drives", pytrace=False)
    arguments = {name: item.funcargs[name] for name in item._fixtureinfo.argnames if name in item.funcargs}
    context_args = _context_args(item)

    def new_page() -> Any:
        return page.context.browser.new_context(**context_args).new_page()

    return TestUnderDeflake(item.nodeid, item.obj, arguments, Path(str(item.path)), new_page, page,
                            item.config.rootpath, options.bound, options.budget, options.workers, options.cluster)


def deflake_item(item: pytest.Function, run: Path, options: DeflakeOptions) -> None:
    """Deflake ``item``, write its entry into ``run`` and fail the item when an order fails it.
    With ``options.resume``, a test ``run`` has judged already keeps its entry and is not run
    again; one whose deflaking was cut short starts over."""
    kept = read_entry(run, item.nodeid) if options.resume else None
    if kept is not None:
        _fail_as_judged(kept)
        return
    shutil.rmtree(test_dir(run, item.nodeid), ignore_errors=True)  # what an interrupted one left
    test = under_deflake(item, options)
    try:
        entry = deflake_test(test, test_dir(run, item.nodeid))
    except TestFailsAlone as alone:
        entry = {"test": item.nodeid, "status": "fails-alone", "message": str(alone), "flaky": []}
    except Webr4Error as error:
        entry = {"test": item.nodeid, "status": "error", "message": str(error), "flaky": []}
    write_entry(run, entry)
    _fail_as_judged(entry)


def _fail_as_judged(entry: dict[str, Any]) -> None:
    """Fail the test being run as its ``entry`` judged it: when an order fails it, or it could not
    be deflaked."""
    if entry["status"] == "fails-alone":
        pytest.fail(entry["message"], pytrace=False)
    if entry["status"] == "error":
        pytest.fail(f"webr4 could not deflake {entry['test']}: {entry['message']}", pytrace=False)
    if entry["flaky"]:
        pytest.fail("\n".join(in_words(entry)), pytrace=False)
