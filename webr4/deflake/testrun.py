"""A pytest test item under ``deflake``: its function and fixtures, and fresh plain pages for it.

The pytest plugin (:mod:`webr4.pytest_plugin`) hands each collected test here when
``--webr4-deflake RUN`` is given; the test's own fixtures (pytest-playwright's ``page``, the
project's ``conftest.py``) are set up by pytest as usual.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from webr4.deflake.results import test_dir, write_entry
from webr4.deflake.session import TestFailsAlone, TestUnderDeflake, deflake_test
from webr4.errors import Webr4Error


def _context_args(item: pytest.Function) -> dict[str, Any]:
    """pytest-playwright's ``browser_context_args`` for the item (base URL, viewport, …), else none."""
    try:
        value = item._request.getfixturevalue("browser_context_args")
    except pytest.FixtureLookupError:
        return {}
    return dict(value) if isinstance(value, dict) else {}


def under_deflake(item: pytest.Function, run: Path, bound: int, budget: float | None) -> TestUnderDeflake:
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
                            item.config.rootpath, bound, budget)


def deflake_item(item: pytest.Function, run: Path, bound: int, budget: float | None = None) -> None:
    """Deflake ``item``, write its entry into ``run`` and fail the item when an order fails it."""
    test = under_deflake(item, run, bound, budget)
    try:
        entry = deflake_test(test, test_dir(run, item.nodeid))
    except TestFailsAlone as alone:
        write_entry(run, {"test": item.nodeid, "status": "fails-alone", "message": str(alone), "flaky": []})
        pytest.fail(str(alone), pytrace=False)
    except Webr4Error as error:
        write_entry(run, {"test": item.nodeid, "status": "error", "message": str(error), "flaky": []})
        pytest.fail(f"webr4 could not deflake {item.nodeid}: {error}", pytrace=False)
    write_entry(run, entry)
    if entry["flaky"]:
        pytest.fail("\n".join(in_words(entry)), pytrace=False)


def in_words(entry: dict[str, Any]) -> list[str]:
    """A test's failing orders and its fix, as lines for a person."""
    lines = [f"{entry['test']} fails in {len(entry['flaky'])} of {entry['sequences']} explored orders"]
    for orders in _alike(entry["flaky"]):
        order = next((o for o in orders if o.get("regression")), orders[0])
        racing, proof = order["racing"], order["confirmation"]
        more = f" (and {len(orders) - 1} more order(s) with this race)" if len(orders) > 1 else ""
        lines.append(f"  line {order['line']}: {order['message']}{more}")
        lines.append(f"    {racing['words']} ({order['fault']}'s fault); plain Chromium with "
                     f"{racing['url'] or 'no slow response'} slow: {proof['status']}")
        regression = order.get("regression") or {}
        if regression.get("pytest"):
            lines.append(f"    the race as a test against the live app, failing until the app is fixed: "
                         f"{regression['pytest']} (pytest), {regression['playwright_test']} (Playwright Test)")
        elif regression:
            lines.append(f"    no test of the race: {regression['why']}")
    fix = entry.get("fix")
    if fix and fix.get("summary"):
        state = "verified" if fix["verified"] else f"not verified: {fix['why']}"
        lines.append(f"  fix ({state}): {fix['summary']}")
    elif fix:
        lines.append(f"  no fix: {fix['why']}")
    return lines


def _alike(orders: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The failing orders in groups of one race: the same failing line, racing pair, fault and
    plain-Chromium word (what the test read may differ), in the order each group first came."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for order in orders:
        key = (order["line"], order["racing"]["words"], order["fault"], order["confirmation"]["status"])
        groups.setdefault(key, []).append(order)
    return list(groups.values())
