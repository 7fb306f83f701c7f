"""Parse-chunk markers keep the page's source locations and stay out of the head."""

from __future__ import annotations

from webr4.instrument.chunks import MARKER_PATH, split_into_chunks

PAGE = """<!DOCTYPE html>
<html><head><script src="head.js"></script><script async src="a.js"></script></head>
<body>
  <h1 id="title">Hi</h1>
  <button onclick="go()">Go</button>
  <script src="late.js"></script>
  <script defer src="d.js"></script>
</body></html>
"""


def test_markers_start_in_body_and_preserve_line_numbers():
    doc = split_into_chunks(PAGE, "http://site/dir/page.html", "tok")
    head, _, body = doc.html.partition("<body>")
    assert MARKER_PATH not in head
    assert doc.chunks == body.count(MARKER_PATH) == 4  # h1 (at body start), button, two scripts
    original, rewritten = PAGE.splitlines(), doc.html.splitlines()
    assert len(rewritten) == len(original)
    for before, after in zip(original, rewritten):
        for token in ("<button", "<h1", "late.js"):
            if token in before:
                assert after.index(token) == before.index(token)


def test_only_parser_blocking_scripts_are_served_at_once():
    doc = split_into_chunks(PAGE, "http://site/dir/page.html", "tok")
    assert doc.blocking_scripts == ["http://site/dir/head.js", "http://site/dir/late.js"]


def test_a_page_without_body_content_is_not_split():
    doc = split_into_chunks("<p>plain text", "http://site/", "tok")
    assert (doc.chunks, doc.html) == (0, "<p>plain text")


def test_module_roots_and_their_static_imports_are_known():
    page = ('<body><script type="module" src="app.mjs"></script>'
            '<script type="module">import {a} from "./lib/a.js"; import "lodash";</script></body>')
    doc = split_into_chunks(page, "http://site/dir/index.html", "tok")
    assert doc.module_scripts == ["http://site/dir/app.mjs", "http://site/dir/lib/a.js"]
    assert doc.blocking_scripts == []
