"""Form controls and focus are logged as the state the browser keeps: one location per control,
per radio group and for the focused element, whichever API or user action touches it."""

from __future__ import annotations

import pytest

from webr4.browser.actions import _USER_CHOOSES, _USER_CHOOSES_NONE

from .conftest import logged

pytestmark = pytest.mark.browser  # every test here drives Chromium

PAGE = """<!doctype html><html><body>
<form id="order">
  <input id="agree" type="checkbox">
  <input id="basic" type="radio" name="plan" value="basic" checked>
  <input id="pro" type="radio" name="plan" value="pro">
  <select id="currency"><option>USD</option><optgroup><option>EUR</option></optgroup></select>
  <input id="name"> <input id="locked" value="fixed" readonly> <input id="off" type="checkbox" disabled>
</form>
<form id="other"><input id="elsewhere" type="radio" name="plan"></form>
</body></html>"""


def writes(entries: list[list]) -> list[list]:
    return [e for e in entries if e[0] == "w"]


def user_entries(page) -> list[list]:
    return page.evaluate("__webr4.log.flush()")


def test_a_user_click_on_a_checkbox_reads_then_writes_it(open_page):
    page = open_page(PAGE)
    page.evaluate("__webr4.log.flush()")
    page.click("#agree")
    entries = [e for e in user_entries(page) if e[1] == "dom:#agree.checked"]
    assert entries == [["r", "dom:#agree.checked", None, None], ["w", "dom:#agree.checked", None, "b:true"]]


def test_script_and_user_meet_on_the_checkbox(open_page):
    page = open_page(PAGE)
    assert writes(logged(page, "document.getElementById('agree').checked = 1")) == [
        ["w", "dom:#agree.checked", None, "b:true"]]


def test_a_radio_group_is_one_location(open_page):
    page = open_page(PAGE)
    script = writes(logged(page, "document.getElementById('pro').checked = true"))
    assert script == [["w", "dom:#order.radio:plan", None, "s:#pro"]]
    page.click("#basic")
    user = [e for e in user_entries(page) if e[1].startswith("dom:#order.radio")]
    assert user == [["r", "dom:#order.radio:plan", None, None], ["w", "dom:#order.radio:plan", None, "s:#basic"]]
    # A radio of the same name in another form is another group.
    other = writes(logged(page, "document.getElementById('elsewhere').checked = true"))
    assert other == [["w", "dom:#other.radio:plan", None, "s:#elsewhere"]]


def test_every_way_to_choose_in_a_select_writes_its_value(open_page):
    page = open_page(PAGE)
    entries = writes(logged(page, """const s = document.getElementById('currency');
        s.selectedIndex = 1; s.value = 'USD'; s.options[1].selected = true;"""))
    assert entries == [
        ["w", "dom:#currency.value", None, "s:EUR"],
        ["w", "dom:#currency.value", None, "s:USD"],
        ["w", "dom:#currency.value", None, "s:EUR"],
    ]
    assert logged(page, "document.getElementById('currency').selectedIndex")[-1] == [
        "r", "dom:#currency.value", None, None]


def test_a_user_choice_writes_the_select_value(open_page):
    page = open_page(PAGE)
    page.evaluate("__webr4.log.flush()")
    page.locator("#currency").evaluate(_USER_CHOOSES)
    page.select_option("#currency", "EUR")
    page.evaluate(_USER_CHOOSES_NONE)
    chosen = [e for e in user_entries(page) if e[1] == "dom:#currency.value"]
    assert chosen == [["w", "dom:#currency.value", None, "s:EUR"]]
    # Untrusted events a script dispatches are not the user's.
    assert writes(logged(page, "document.getElementById('currency').dispatchEvent(new Event('input'))")) == []


def test_focus_is_one_location(open_page):
    page = open_page(PAGE)
    page.evaluate("__webr4.log.flush()")
    page.click("#name")
    assert writes(user_entries(page)) == [["w", "dom:document.activeElement", None, "s:#name"]]
    page.keyboard.type("A")
    typed = user_entries(page)
    focus_read = typed.index(["r", "dom:document.activeElement", None, None])
    assert typed.index(["w", "dom:#name.value", None, "s:A"]) > focus_read
    focus = "dom:document.activeElement"
    assert [e for e in logged(page, "document.getElementById('agree').focus()") if e[1] == focus] == [
        ["w", focus, None, "s:#agree"]]
    assert [e for e in logged(page, "document.getElementById('agree').blur()") if e[1] == focus] == [
        ["w", focus, None, "s:body"]]
    assert logged(page, "document.activeElement") == [["r", "dom:document.activeElement", None, None]]


def test_controls_the_user_cannot_change_get_no_user_write(open_page):
    page = open_page(PAGE)
    page.evaluate("__webr4.log.flush()")
    page.click("#locked")
    page.keyboard.type("x")
    page.click("#off", force=True)
    entries = user_entries(page)
    assert [e for e in entries if e[1] in ("dom:#locked.value", "dom:#off.checked")] == []
    assert page.evaluate("[document.getElementById('locked').value, document.getElementById('off').checked]") == [
        "fixed", False]


FORM_SUITE = """() => {
  const $ = (id) => document.getElementById(id);
  const out = [];
  $('pro').checked = true; out.push($('basic').checked, $('pro').checked, $('elsewhere').checked);
  $('elsewhere').checked = true; out.push($('pro').checked);
  $('currency').selectedIndex = 1; out.push($('currency').value, $('currency').options[1].selected);
  $('currency').options[0].selected = true; out.push($('currency').selectedIndex);
  $('currency').value = 'nope'; out.push($('currency').selectedIndex);
  $('name').focus(); out.push(document.activeElement.id); $('name').blur(); out.push(document.activeElement.tagName);
  return out;
}"""


def test_the_form_apis_behave_as_in_plain_chromium(open_page):
    results = [open_page(PAGE, logged=flag).evaluate(FORM_SUITE) for flag in (False, True)]
    assert results[0] == results[1]


def test_autofocus_writes_the_focused_element(open_page):
    html = '<!doctype html><html><body><input id="first"><input id="search" autofocus></body></html>'
    plain = open_page(html, logged=False)
    plain.wait_for_function("document.activeElement.id === 'search'")
    page = open_page(html)
    page.wait_for_function("document.activeElement.id === 'search'")
    entries = page.evaluate("__webr4.log.flush()")
    assert ["w", "dom:document.activeElement", None, "s:#search"] in entries
