"""Which scripts are a library's, and the app's sites before a library's."""

from __future__ import annotations

import json
import re

import pytest

from webr4.libraries import LIBRARY_PATH, app_first, is_library

PAGE = "http://shop.test/cart/"


@pytest.mark.parametrize(("url", "library"), [
    ("http://shop.test/cart/app.js", False),
    ("http://shop.test/cart/", False),
    ("http://shop.test/js/minimal.js", False),
    ("http://shop.test/js/jquery.min.js", True),
    ("http://shop.test/js/lodash-min.js", True),
    ("http://shop.test/node_modules/react/index.js", True),
    ("http://shop.test/vendor/helpers.js", True),
    ("http://cdn.test/app.js", True),
    ("https://shop.test/cart/app.js", True),
])
def test_a_library_is_another_origin_or_a_library_path(url: str, library: bool) -> None:
    assert is_library(url, PAGE) is library


def test_the_runtime_reads_the_same_pattern() -> None:
    assert re.compile(LIBRARY_PATH.pattern).pattern == LIBRARY_PATH.pattern
    assert json.loads(json.dumps(LIBRARY_PATH.pattern)) == LIBRARY_PATH.pattern  # sent as JSON, read by RegExp


def test_app_first_keeps_each_part_in_order() -> None:
    urls = ["http://cdn.test/a.js", "http://shop.test/b.js", "http://shop.test/vendor/c.js", "http://shop.test/d.js"]
    assert app_first(urls, str, PAGE) == [urls[1], urls[3], urls[0], urls[2]]
