"""Places written short: the forms every output shows for sites, URLs and property paths."""

from __future__ import annotations

import base64

import pytest

from webr4.places import LONGEST_NAME, member_path, short_name, short_site, short_url, short_words


@pytest.mark.parametrize(("keys", "path"), [
    (["items", "2", "qty"], ".items[2].qty"),
    (["$el", "_x"], ".$el._x"),
    (["data-id", "01", ""], '["data-id"]["01"][""]'),
    ([], ""),
])
def test_a_member_path_is_written_as_javascript_accessors(keys: list[str], path: str) -> None:
    assert member_path(keys) == path


@pytest.mark.parametrize(("site", "short"), [
    ("http://host/js/cart.js:40:15", "cart.js:40:15"),
    ("http://host/shop/:12:5", "/shop/:12:5"),
    ("http://host/js/cart.js", "cart.js"),
    ("inline", "inline"),
    (None, "an unknown site"),
    ("", "an unknown site"),
])
def test_a_site_keeps_its_scripts_last_segment_and_position(site: str | None, short: str) -> None:
    assert short_site(site) == short


def test_a_url_ending_with_a_slash_keeps_its_path() -> None:
    assert short_url("http://host/a/b.js?v=2") == "b.js"
    assert short_url("http://host/shop/") == "/shop/"


SCRIPT = "data:text/javascript;base64," + base64.b64encode(b"window.x = 1;" * 100).decode()


@pytest.mark.parametrize(("name", "short"), [
    (SCRIPT, "data:text/javascript (1,300 bytes)"),
    ("data:," + "%41" * 100, "data:text/plain (100 bytes)"),
    ("data:text/html,<p>hi</p>", "data:text/html,<p>hi</p>"),  # short enough to read whole
    ("#cart", "#cart"),
])
def test_a_data_url_is_its_media_type_and_size(name: str, short: str) -> None:
    assert short_name(name) == short


def test_a_long_name_is_cut_in_its_middle_to_a_line_s_share() -> None:
    url = "https://shop.example/" + "a/" * 10_000 + "cart.js"
    short = short_name(url)
    assert short.startswith("https://shop.example/a/a/") and short.endswith("/cart.js (20,028 characters)")
    assert len(short.split(" (")[0]) == LONGEST_NAME and "…" in short
    assert short_url(url) == "cart.js" and short_url(SCRIPT) == "data:text/javascript (1,300 bytes)"


def test_only_the_long_words_of_a_message_are_cut_and_their_quotes_stay() -> None:
    selector = "#" + "x" * 5_000
    message = f"step 2 (click on '{selector}') never happened; {SCRIPT}, then data:,ok"
    assert short_words(message) == (f"step 2 (click on '{short_name(selector)}') never happened; "
                                    "data:text/javascript (1,300 bytes), then data:,ok")
    assert len(short_words(message)) < 250
