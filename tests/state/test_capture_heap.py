"""capture_heap.js in Chromium: page globals, cycles as $ref, built-ins left out."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from playwright.async_api import async_playwright

from webr4.browser.launch import launch
from webr4.resources import javascript

PAGE = """<!doctype html><body><button id="go" class="big">Go</button><script>
var cart = {items: [1, 2], owner: {name: 'a'}};
window.self_ref = {}; self_ref.me = self_ref;
function f() {}
var shared = {x: 1}; var holder = {a: shared, b: shared};
var deep = {l1: {l2: {l3: {l4: {l5: 1}}}}};
var pollTimer = setTimeout(function () {}, 1000);
var when = new Date(0), button = document.getElementById('go');
var big = []; for (var i = 0; i < 3000; i++) big.push(i);
var m = new Map([['k', {v: 1}]]);
class Cart { constructor() { this.n = 2; } }
var typed = new Cart();
var __webr4_private = 1;
</script></body>"""


async def _capture() -> dict[str, Any]:
    async with async_playwright() as p:
        browser = await launch(p)
        try:
            page = await browser.new_page()
            await page.set_content(PAGE)
            builtins = javascript("window_builtins.js")
            return await page.evaluate(f"() => ({javascript('capture_heap.js')})(({builtins})())")
        finally:
            await browser.close()


@pytest.mark.browser
def test_capture_heap_in_chromium() -> None:
    heap = asyncio.run(_capture())
    assert heap["cart"]["items"] == [1, 2] and heap["cart"]["owner"] == {"name": "a"}
    assert heap["self_ref"] == {"me": {"$ref": "window.self_ref"}}
    assert heap["f"] == "<function f>"
    assert heap["holder"] == {"a": {"$ref": "window.shared"}, "b": {"$ref": "window.shared"}}
    assert heap["deep"]["l1"]["l2"]["l3"] == {"l4": "<depth limit>"}
    assert heap["pollTimer"] == "<timer id>" and heap["when"] == "<date>" and heap["button"] == "<node button#go.big>"
    assert heap["m"] == {"$map": [["k", {"v": 1}]]}
    assert heap["typed"] == {"$class": "Cart", "n": 2}
    assert heap["big"][-1] == "<2800 more>" and heap["big"][199] == 199 and len(heap["big"]) == 201
    for builtin in ("document", "location", "setTimeout", "Array", "navigator", "window", "name"):
        assert builtin not in heap
    assert not any(k.startswith("__webr4") for k in heap)
