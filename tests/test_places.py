"""Places written short: the forms every output shows for sites, URLs and property paths."""

from __future__ import annotations

import pytest

from webr4.places import member_path, short_site, short_url


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
