"""A flaky test in words: the failing orders of one race said once, with how many there are."""

from __future__ import annotations

from webr4.deflake.words import in_words


def _order(message: str, url: str, status: str = "confirmed") -> dict:
    return {"line": 11, "message": message, "fault": "test", "confirmation": {"status": status},
            "racing": {"words": f"inner_text on #results raced fetch GET {url} response", "url": url}}


def test_orders_of_one_race_are_said_once_with_their_count() -> None:
    entry = {"test": "test_search.py::test_search", "sequences": 28, "fix": None,
             "flaky": [_order("AssertionError: assert [] == ['Cat bed']", "/ca.json"),
                       _order("AssertionError: assert ['Dog'] == ['Cat bed']", "/c.json"),
                       _order("AssertionError: assert ['Cat'] == ['Cat bed']", "/ca.json")]}
    lines = in_words(entry)
    assert lines[0] == "test_search.py::test_search fails in 3 of 28 explored orders"
    assert lines[1] == "  line 11: AssertionError: assert [] == ['Cat bed'] (and 1 more order(s) with this race)"
    assert [line for line in lines if "raced" in line] == [
        "    inner_text on #results raced fetch GET /ca.json response (test's fault); plain Chromium with /ca.json "
        "slow: confirmed",
        "    inner_text on #results raced fetch GET /c.json response (test's fault); plain Chromium with /c.json "
        "slow: confirmed"]
