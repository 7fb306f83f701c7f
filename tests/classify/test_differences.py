"""Differences as short items: one per changed thing, capped, the same on one line."""

from __future__ import annotations

from webr4.classify.differences import MAX_ITEMS, describe_differences, differences_line
from webr4.state.categories.dom import DomDiff, Hunk, short_path
from webr4.state.categories.heap import HeapChange, HeapDiff
from webr4.state.categories.multiset import MultisetDiff
from webr4.state.categories.screenshot import ScreenshotDiff
from webr4.state.diff import StateDiff


def _hunk(path: str, before: list[str], after: list[str]) -> Hunk:
    return Hunk(1, 1, before, after, [path])


def test_each_category_becomes_concrete_items() -> None:
    diff = StateDiff(
        exceptions=MultisetDiff(lost=[("ReferenceError: x is not defined", None)],
                                new=[("Uncaught TypeError: Cannot set properties of null (setting 'value')",
                                      "http://127.0.0.1:8000/js/app.js:12:5")]),
        dom=DomDiff([
            _hunk("html > body > div#log", ["    a &amp; b"], ["    b"]),
            _hunk("html > body > form#signup > input#c1", ['<input id="c1" (checked)="false">'],
                  ['<input id="c1" (checked)="true">']),
            _hunk("html > body > ul > li:nth-of-type(2)", [], ["<li>", "  two", "</li>"]),
        ]),
        screenshot=ScreenshotDiff(True, True, 963, 0.01, (8, 19, 127, 86)),
        console=MultisetDiff(new=["Failed to load cart"]),
        network=MultisetDiff(lost=["GET http://127.0.0.1:8000/a.json?v=1"], new=["POST http://127.0.0.1:8000/b"]),
        pending=MultisetDiff(new=["setTimeout 100ms at app.js:3:1"]),
        heap=HeapDiff([HeapChange("window.app.total", "values_changed", 1, 2),
                       HeapChange("window.app.cart", "dictionary_item_added", None, {"n": 1})], 2),
    )
    assert describe_differences(diff) == {
        "exceptions": ["new Uncaught TypeError: Cannot set properties of null (setting 'value') at app.js:12:5",
                       "gone ReferenceError: x is not defined"],
        "dom": ['#log: "a & b" → "b"', '#c1: checked "false" → "true"',
                "body > ul > li:nth-of-type(2): added <li> two </li>"],
        "screenshot": ["963 pixels changed in 119×67 at (8, 19)"],
        "console": ["new: Failed to load cart"],
        "network": ["new POST /b", "missing GET /a.json?v=1"],
        "pending": ["left pending: setTimeout 100ms at app.js:3:1"],
        "heap": ["window.app.total: 1 → 2", "window.app.cart added"],
    }


def test_an_element_whose_attributes_and_text_changed_is_one_item_naming_each_change() -> None:
    hunk = _hunk("html > body > p > span#price", ['<span data-source="member" id="price">', "  $39.00"],
                 ['<span data-source="list" id="price">', "  $49.00"])
    replaced = _hunk("html > body > p#note", ["<em>", "  old"], ["<strong>", "  new"])
    assert describe_differences(StateDiff(dom=DomDiff([hunk, replaced])))["dom"] == [
        '#price: data-source "member" → "list", "$39.00" → "$49.00"',
        '#note: "<em> old" → "<strong> new"',
    ]


def test_items_are_capped_and_the_rest_counted() -> None:
    hunks = [_hunk(f"html > body > p#p{i}", [f"{i}" * 200], ["x"]) for i in range(MAX_ITEMS + 2)]
    heap = HeapDiff([HeapChange(f"window.v{i}", "values_changed", i, i + 1) for i in range(3)], total=250)
    described = describe_differences(StateDiff(dom=DomDiff(hunks), heap=heap))
    assert len(described["dom"]) == MAX_ITEMS + 1 and described["dom"][-1] == "… 2 more in diff.json"
    assert described["dom"][0] == '#p0: "' + "0" * 59 + '…" → "x"'
    assert described["heap"][-1] == "… 247 more in diff.json"
    line = differences_line(described)
    assert line.startswith('dom: #p0: "0') and "(+5 more)" in line and line.endswith("(+248 more)")


def test_a_category_stored_as_words_by_an_older_run_is_shown_as_it_is() -> None:
    assert differences_line({"dom": "3 changed region(s)"}) == "dom: 3 changed region(s)"
    assert differences_line({}) == "none"


def test_element_paths_start_at_the_nearest_id() -> None:
    assert short_path("html > body > form#signup > input") == "form#signup > input"
    assert short_path("html > body > form#signup > input#email") == "#email"
    assert short_path("html > body > p > span") == "body > p > span"

