"""Accesses through browser APIs are logged at the documented locations."""

from __future__ import annotations

import pytest

from .conftest import logged

pytestmark = pytest.mark.browser  # every test here drives Chromium

PAGE = """<!doctype html><html><body>
<div id="price">$10</div>
<ul id="list"><li>one</li></ul>
<p>first</p><p>second <span>inner</span></p>
<input id="name" value="">
<button id="buy">Buy</button>
</body></html>"""


def test_get_element_by_id_reads_the_id(open_page):
    page = open_page(PAGE)
    assert logged(page, "document.getElementById('price'); document.querySelector('#list')") == [
        ["r", "dom:#price", None, None], ["r", "dom:#list", None, None]]


def test_text_content_write_on_price(open_page):
    page = open_page(PAGE)
    entries = logged(page, "const el = document.getElementById('price'); el.textContent = '$12'")
    assert ["w", "dom:#price.textContent", None, "s:$12"] in entries
    assert logged(page, "document.getElementById('price').innerHTML")[-1] == ["r", "dom:#price.textContent", None, None]


def test_reflecting_properties_write_their_attribute(open_page):
    page = open_page(PAGE)
    entries = logged(page, "const buy = document.getElementById('buy'); buy.hidden = true; buy.disabled = buy.hidden")
    assert ["w", "dom:#buy.hidden", None, "b:true"] in entries
    assert ["r", "dom:#buy.hidden", None, None] in entries
    assert ["w", "dom:#buy.disabled", None, "b:true"] in entries
    assert logged(page, "document.getElementById('buy').setAttribute('hidden', '')") == [
        ["r", "dom:#buy", None, None], ["w", "dom:#buy.hidden", None, "s:"]]


def test_elements_without_id_have_a_path(open_page):
    page = open_page(PAGE)
    entries = logged(page, "document.querySelectorAll('span')[0].textContent = 'x'")
    assert entries[0] == ["r", "dom:sel:span", None, None]
    assert ["r", "dom:body>p:nth-of-type(2).children", None, None] in entries
    assert ["w", "dom:body>p:nth-of-type(2)>span.textContent", None, "s:x"] in entries


def test_nodes_of_a_shadow_root_are_named_through_its_host(open_page):
    page = open_page(PAGE)
    entries = logged(page, """const root = document.getElementById('price').attachShadow({ mode: 'open' });
        root.innerHTML = '<b id=amount>10</b><i>EUR</i>';
        root.querySelector('i').textContent = 'USD';
        root.getElementById('amount').setAttribute('title', 'amount');""")
    writes = [e[1] for e in entries if e[0] == "w"]
    assert writes[:2] == ["dom:#price>#shadow-root.textContent", "dom:#price>#shadow-root.children"]
    assert "dom:#price>#shadow-root>i.textContent" in writes
    assert "dom:#price>#shadow-root>#amount.title" in writes


def test_attributes_class_style_and_dataset(open_page):
    page = open_page(PAGE)
    entries = logged(page, """const el = document.getElementById('price');
        el.setAttribute('title', 'Price'); el.removeAttribute('title');
        el.classList.add('sale'); el.style.color = 'red'; el.dataset.currencyCode = 'EUR';""")
    writes = [e for e in entries if e[0] == "w"]
    assert writes == [
        ["w", "dom:#price.title", None, "s:Price"],
        ["w", "dom:#price.title", None, "u"],
        ["w", "dom:#price.className", None, None],
        ["w", "dom:#price.style", None, "s:red"],
        ["w", "dom:#price.data-currency-code", None, "s:EUR"],
    ]


def test_append_child_writes_the_parent_and_the_new_id(open_page):
    page = open_page(PAGE)
    entries = logged(page, """const li = document.createElement('li'); li.id = 'two';
        document.getElementById('list').appendChild(li);""")
    assert ["w", "dom:#list.children", None, None] in entries
    # The existence write comes from a MutationObserver, after the call.
    assert entries[-1] == ["w", "dom:#two", None, None]
    assert ["w", "dom:#two", None, None] in logged(page, "document.getElementById('two').remove()")


def test_replace_children_writes_the_parent_and_the_old_parent_of_a_moved_node(open_page):
    page = open_page(PAGE)
    entries = logged(page, """const span = document.querySelector('span');
        document.getElementById('list').replaceChildren(document.createElement('li'), span);""")
    assert ["w", "dom:#list.children", None, None] in entries
    assert ["w", "dom:body>p:nth-of-type(2).children", None, None] in entries
    assert logged(page, "document.getElementById('list').children.length")[-1] == [
        "r", "dom:#list.children", None, None]


def test_listener_write_and_click_dispatch_read(open_page):
    page = open_page(PAGE)
    added = logged(page, "document.getElementById('buy').addEventListener('click', () => {})")
    assert added == [["r", "dom:#buy", None, None], ["w", "handler:#buy.click", None, None]]
    logged(page, "document.onclick = () => {}")
    page.click("#buy")
    entries = page.evaluate("__webr4.log.flush()")
    assert ["r", "handler:#buy.click", None, None] in entries
    assert ["r", "handler:document.click", None, None] in entries
    assert ["r", "handler:body.click", None, None] not in entries


def test_local_storage_items(open_page):
    page = open_page(PAGE)
    entries = logged(page, """localStorage.setItem('cart', '3'); localStorage.getItem('cart');
        localStorage.seen = 1; sessionStorage.tab; localStorage.clear()""")
    assert entries[:4] == [
        ["w", "storage:local.cart", None, "s:3"],
        ["r", "storage:local.cart", None, None],
        ["w", "storage:local.seen", None, "n:1"],
        ["r", "storage:session.tab", None, None],
    ]
    # clear() writes every item, in the storage's own order.
    assert sorted(map(tuple, entries[4:])) == [("w", "storage:local.cart", None, "u"),
                                               ("w", "storage:local.seen", None, "u")]


def test_cookie(open_page):
    page = open_page(PAGE)
    entries = logged(page, "document.cookie = 'theme=dark; path=/'; document.cookie")
    assert entries == [["w", "cookie:theme", None, "s:theme=dark; path=/"], ["r", "cookie:*", None, None]]


def test_user_typing_writes_the_value(open_page):
    page = open_page(PAGE)
    page.fill("#name", "Ada")
    assert ["w", "dom:#name.value", None, "s:Ada"] in page.evaluate("__webr4.log.flush()")
    assert logged(page, "document.getElementById('name').value") == [
        ["r", "dom:#name", None, None], ["r", "dom:#name.value", None, None]]


def test_nothing_is_logged_while_disabled(open_page):
    page = open_page(PAGE)
    assert logged(page, """__webr4.log.enabled = false;
        document.getElementById('price').textContent = 'x'; localStorage.a = 1;""") == []


def test_js_and_dom_entries_keep_their_order(open_page):
    page = open_page(PAGE)
    entries = logged(page, """const log = __webr4.log, o = {};
        log.pws('s:1', o, 'a', 1);
        document.getElementById('price');
        log.pws('s:2', o, 'b', 2);""")
    assert [e[1] for e in entries] == ["prop:1.a", "dom:#price", "prop:1.b"]
