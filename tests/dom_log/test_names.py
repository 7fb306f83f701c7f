"""Naming objects for people: the access log says how each object is reached, and
:func:`~webr4.browser.naming.format_names` writes that in the page's terms."""

from __future__ import annotations

import pytest

from webr4.browser.naming import format_names

pytestmark = pytest.mark.browser

# Page code as the rewriter would instrument it, calling the access log directly.
REACHED = """() => {
  const log = __webr4.log;
  const store = { count: 0 };
  log.w("s1:1", "store", 7, store);                 // held by variable store of closure scope 7
  log.pw("s1:2", store, "count", 1);
  const tally = new (class Tally {})();
  log.pw("s1:3", tally, "n", 1);                    // never stored where the log sees it
  log.pw("s1:4", document.querySelector("p > span"), "textContent", "x");
  const app = { cart: { items: [{ qty: 0 }] } };
  log.w("s1:5", "app", 0, app);                     // a global
  const item = log.p("s1:6", log.p("s1:7", log.p("s1:8", app, "cart"), "items"), 0);
  log.pw("s1:9", item, "qty", 2);
  const module = { total: 0 };
  log.w("s2:1", "cart", "ms2", module);             // a module's top-level variable
  log.pw("s2:2", module, "total", 3);
  const ids = [store, tally, document.querySelector("p > span"), item, module]
    .map((o) => Number(/^o:(\\d+)$/.exec(log.digest(o))[1]));
  return log.names(ids, []);
}"""
SITES = {"s1:1": "http://h/js/app.js:14:7", "s1:3": "http://h/js/app.js:7:10"}


def test_objects_are_named_by_how_the_page_reaches_them(open_page):
    page = open_page("<!doctype html><p>Total: <span>0</span></p>")
    answer = page.evaluate(REACHED)
    names = format_names(answer, lambda site: SITES.get(site or ""), {"s2": "http://h/js/store.js"})
    assert sorted(names.values()) == sorted([
        "closure at app.js:14:7 › store",
        "(Tally object first seen at app.js:7:10)",
        "body>p>span",
        "window.app.cart.items[0]",
        "module store.js › cart",
        "closure at app.js:14:7",  # the scope the first chain starts in
        "module store.js",
    ])
