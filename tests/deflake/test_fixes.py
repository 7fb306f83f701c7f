"""Fixes as source: a retrying assertion in place of the fixed sleep before a read that came too
early, its imports placed as the project's formatter would; a wait for the page's load before an
action that beat its scripts, never the same wait twice; typing that starts a request per key
split after the key whose answer must come first."""

from __future__ import annotations

import pytest

from webr4.deflake.awaited import Awaited
from webr4.deflake.fixes import NoFix, load_before_action, wait_before_read, wait_for_response, wait_for_state
from webr4.deflake.testlog import TestCall

SIGN_IN = '''def test_sign_in(page):
    page.click("#go")
    page.wait_for_timeout(700)
    assert page.url.endswith("/a/#/done")
'''


def test_an_early_read_of_the_url_waits_for_its_path_whatever_the_servers_origin() -> None:
    calls = [TestCall("action", 0, 2, "#go", "click"), TestCall("sleep", None, 3, call="wait_for_timeout"),
             TestCall("read", 2, 4, "html", "page.url", "http://127.0.0.1:5000/a/#/done")]
    fix = wait_before_read("test_sign_in.py", SIGN_IN, calls, calls[2])
    assert fix.after == '''import re

from playwright.sync_api import expect


def test_sign_in(page):
    page.click("#go")
    expect(page).to_have_url(re.compile(r"/a/#/done$"))
    assert page.url.endswith("/a/#/done")
'''


CART = '''"""The cart."""

from playwright.sync_api import Page


def test_cart(page: Page) -> None:
    page.click("#add")
    assert page.inner_text("#count") == "1"
'''


def test_expect_joins_the_tests_own_import_from_playwright() -> None:
    calls = [TestCall("action", 0, 7, "#add", "click"), TestCall("read", 1, 8, "#count >> nth=0", "inner_text", "1")]
    after = wait_before_read("test_cart.py", CART, calls, calls[1]).after
    assert after.splitlines()[2] == "from playwright.sync_api import Page, expect"
    assert '    expect(page.locator("#count")).to_have_text("1", use_inner_text=True)\n' in after


def test_a_wait_for_the_load_goes_before_typing_the_test_does_a_key_at_a_time() -> None:
    source = 'def test_post(page):\n    page.goto("/", wait_until="commit")\n' \
             '    page.get_by_placeholder("Comment").press_sequentially("Hi", delay=40)\n'
    fix = load_before_action("test_post.py", source, TestCall("action", 1, 3, 'internal:attr=[placeholder="Comment"i]',
                                                              "press"))
    assert fix.after.splitlines()[2] == "    page.wait_for_load_state()"


def test_a_second_identical_wait_for_the_load_is_refused() -> None:
    source = 'def test_post(page):\n    page.goto("/")\n    page.wait_for_load_state()\n    page.click("#post")\n'
    with pytest.raises(NoFix, match="already waits for the page's load"):
        load_before_action("test_post.py", source, TestCall("action", 1, 4, "#post", "click"))


SEARCH = '''def test_search(page):
    page.get_by_label("Search").press_sequentially("cat", delay=200)
'''


def _keys(line: int, text: str) -> list[TestCall]:
    """The calls a ``press_sequentially`` of ``text`` on ``line`` writes down: a press per key,
    the delay between them."""
    calls: list[TestCall] = []
    for number, _key in enumerate(text):
        if number:
            calls.append(TestCall("sleep", None, line, call="wait_for_timeout", args=[200]))
        calls.append(TestCall("action", number, line, "internal:label=\"Search\"i", "press"))
    return calls


def test_typing_waits_for_each_answer_it_needs_before_typing_on() -> None:
    calls = _keys(2, "cat")
    first = wait_for_response("test_search.py", SEARCH, calls, calls[2], "http://127.0.0.1:5000/api/ca.json")
    assert first.after == '''def test_search(page):
    with page.expect_response("**/api/ca.json"):
        page.get_by_label("Search").press_sequentially("ca", delay=200)
    page.get_by_label("Search").press_sequentially("t", delay=200)
'''
    second = wait_for_response("test_search.py", first.after, _keys(3, "ca"), _keys(3, "ca")[0],
                               "http://127.0.0.1:5000/api/c.json")
    assert second.after == '''def test_search(page):
    with page.expect_response("**/api/ca.json"):
        with page.expect_response("**/api/c.json"):
            page.get_by_label("Search").press_sequentially("c", delay=200)
        page.get_by_label("Search").press_sequentially("a", delay=200)
    page.get_by_label("Search").press_sequentially("t", delay=200)
'''


def test_a_wait_for_what_the_response_shows_replaces_the_sleep_before_the_key() -> None:
    source = ('from playwright.sync_api import Page\n\n\ndef test_city(page: Page) -> None:\n'
              '    page.get_by_label("City").fill("Ber")\n    page.wait_for_timeout(700)\n'
              '    page.keyboard.press("ArrowDown")\n')
    calls = [TestCall("action", 0, 5, 'internal:label="City"i', "fill"),
             TestCall("sleep", None, 6, call="wait_for_timeout"), TestCall("action", 1, 7, "#city", "press")]
    awaited = Awaited("#city", 'to_have_attribute("aria-expanded", "true")')
    fix = wait_for_state("test_city.py", source, calls, calls[2], awaited, "the response to /api/ber.json")
    assert fix.after.splitlines()[-3:] == [
        '    page.get_by_label("City").fill("Ber")',
        '    expect(page.locator("#city")).to_have_attribute("aria-expanded", "true")',
        '    page.keyboard.press("ArrowDown")']
    assert fix.after.splitlines()[0] == "from playwright.sync_api import Page, expect"
    with pytest.raises(NoFix, match="already waits"):
        wait_for_state("test_city.py", fix.after, calls, TestCall("action", 1, 7, "#city", "press"), awaited, "it")
