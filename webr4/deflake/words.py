"""A deflake run's tests in words: what the command line prints, and CI's failure messages."""

from __future__ import annotations

from typing import Any


def in_words(entry: dict[str, Any]) -> list[str]:
    """A test's failing orders and its fix, as lines for a person."""
    lines = [f"{entry['test']} fails in {len(entry['flaky'])} of {entry['sequences']} explored orders"]
    for orders in alike(entry["flaky"]):
        order = representative(orders)
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


def alike(orders: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The failing orders in groups of one race: the same failing line, racing pair, fault and
    plain-Chromium word (what the test read may differ), in the order each group first came."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for order in orders:
        key = (order["line"], order["racing"]["words"], order["fault"], order["confirmation"]["status"])
        groups.setdefault(key, []).append(order)
    return list(groups.values())


def representative(orders: list[dict[str, Any]]) -> dict[str, Any]:
    """The order that speaks for a race's orders: the one with the race's regression tests, else the first."""
    return next((o for o in orders if o.get("regression")), orders[0])
