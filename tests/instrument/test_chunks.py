"""Parse-chunk markers keep the page's source locations, stay out of the head, and go only where
the chosen model puts a boundary."""

from __future__ import annotations

from webr4.instrument.cache import CachedRewriter
from webr4.instrument.chunks import MARKER_PATH, ChunkModel, split_into_chunks
from webr4.instrument.page import prepare_document

PAGE = """<!DOCTYPE html>
<html><head><script src="head.js"></script><script async src="a.js"></script></head>
<body>
  <h1 id="title">Hi</h1>
  <button onclick="go()">Go</button>
  <script src="late.js"></script>
  <script defer src="d.js"></script>
</body></html>
"""
ELEMENT = ChunkModel("element")


def _chunks_before(html: str, model: ChunkModel) -> list[str]:
    """The text that starts each chunk after the head (up to its first line end)."""
    doc = split_into_chunks(html, "http://site/", "tok", model)
    pieces = doc.html.split(MARKER_PATH)[1:]
    return [piece.split("</script>", 1)[1].strip().split("\n")[0] for piece in pieces]


def test_element_markers_start_in_body_and_preserve_line_numbers():
    doc = split_into_chunks(PAGE, "http://site/dir/page.html", "tok", ELEMENT)
    head, _, body = doc.html.partition("<body>")
    assert MARKER_PATH not in head
    assert doc.chunks == body.count(MARKER_PATH) == 4  # h1 (at body start), button, two scripts
    original, rewritten = PAGE.splitlines(), doc.html.splitlines()
    assert len(rewritten) == len(original)
    for before, after in zip(original, rewritten):
        for token in ("<button", "<h1", "late.js"):
            if token in before:
                assert after.index(token) == before.index(token)


def test_yield_model_splits_only_before_a_parser_blocking_script():
    doc = split_into_chunks(PAGE, "http://site/dir/page.html", "tok")
    assert doc.chunks == 1
    assert _chunks_before(PAGE, ChunkModel()) == ['<script src="late.js"></script>']
    assert len(doc.html.splitlines()) == len(PAGE.splitlines())


def test_yield_model_never_separates_an_element_from_the_inline_script_after_it():
    page = '<html><body><input id="name">\n<script>document.getElementById("name").focus()</script></body></html>'
    doc = split_into_chunks(page, "http://site/", "tok")
    assert (doc.chunks, doc.html) == (0, page)
    assert doc.positions.original_offset(page.index("<script>")) == page.index("<script>")
    assert split_into_chunks(page, "http://site/", "tok", ELEMENT).chunks == 2  # the input, the script


def test_yield_model_splits_before_the_first_script_after_a_stylesheet():
    page = ('<html><head></head><body><p id="a">a</p>\n<link rel="stylesheet" href="s.css">\n<p id="b">b</p>\n'
            '<script>one()</script>\n<script>two()</script></body></html>')
    assert _chunks_before(page, ChunkModel()) == ["<script>one()</script>"]


def test_yield_model_splits_long_documents_where_more_bytes_may_arrive():
    rows = "".join(f'<p id="r{i}">{"x" * 200}</p>\n' for i in range(100))  # about 21 KB
    page = f"<html><body>\n{rows}</body></html>"
    doc = split_into_chunks(page, "http://site/", "tok", ChunkModel(arrival_kb=8))
    assert doc.chunks == 2  # the first tags after 8 KB and after 16 KB
    assert split_into_chunks(page, "http://site/", "tok").chunks == 1  # after 16 KB
    assert split_into_chunks(page, "http://site/", "tok", ChunkModel(arrival_kb=64)).chunks == 0


def test_only_parser_blocking_scripts_are_served_at_once():
    doc = split_into_chunks(PAGE, "http://site/dir/page.html", "tok")
    assert doc.blocking_scripts == ["http://site/dir/head.js", "http://site/dir/late.js"]


def test_a_page_without_body_content_is_not_split():
    for model in (ChunkModel(), ELEMENT):
        doc = split_into_chunks("<p>plain text", "http://site/", "tok", model)
        assert (doc.chunks, doc.html) == (0, "<p>plain text")


def test_module_roots_and_their_static_imports_are_known():
    page = ('<body><script type="module" src="app.mjs"></script>'
            '<script type="module">import {a} from "./lib/a.js"; import "lodash";</script></body>')
    doc = split_into_chunks(page, "http://site/dir/index.html", "tok")
    assert doc.module_scripts == ["http://site/dir/app.mjs", "http://site/dir/lib/a.js"]
    assert doc.blocking_scripts == []


def test_data_arrival_is_counted_in_the_delivered_document_not_its_rewritten_copy():
    # About 10 KB as delivered; rewriting the inline script for the access log makes it longer.
    script = "<script>" + "".join(f"var v{i} = {{a: 1}}; v{i}.a = v{i}.a + 1;\n" for i in range(300)) + "</script>"
    page = f"<html><body>\n{script}\n" + "".join(f'<p id="p{i}">x</p>\n' for i in range(10)) + "</body></html>"
    assert len(page) < 16 * 1024
    plain = prepare_document(page, "http://site/", None, ChunkModel())
    rewritten = prepare_document(page, "http://site/", CachedRewriter(), ChunkModel())
    assert len(rewritten.chunked.html) > 16 * 1024  # past the first arrival had it counted there
    assert rewritten.chunked.chunks == plain.chunked.chunks == 0


def test_each_chunk_says_what_the_parser_waits_for_before_it():
    page = ('<html><head><script src="head.js"></script></head><body><p id="a">a</p>\n'
            '<script src="js/late.js?v=2"></script>\n<link rel="stylesheet" href="/s.css">\n<p id="b">b</p>\n'
            '<script>one()</script>\n<script src="http://cdn.example/lib.js"></script></body></html>')
    doc = split_into_chunks(page, "http://site/dir/index.html", "tok")
    assert doc.waits == ["script /dir/js/late.js?v=2", "style sheet /s.css", "script http://cdn.example/lib.js"]
    element = split_into_chunks(page, "http://site/dir/index.html", "tok", ELEMENT)
    # R4's element model also stops where no browser waits: there the chunk waits for nothing
    assert element.waits == [None, "script /dir/js/late.js?v=2", None, None, None,
                             "script http://cdn.example/lib.js"]


def test_a_long_document_waits_for_its_next_bytes():
    page = "<html><body>" + "".join(f"<p>{'x' * 1000}</p>\n" for _ in range(20)) + "</body></html>"
    assert split_into_chunks(page, "http://site/", "tok").waits == ["more of the document"]
