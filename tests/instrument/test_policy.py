"""The page's Content Security Policy, amended to let run exactly what webr4 serves in its place."""

from __future__ import annotations

import base64
import hashlib

from webr4.instrument.page import prepare_document
from webr4.instrument.chunks import ChunkModel
from webr4.instrument.policy import HarnessCode, amend_meta_policies, amend_policies

MARKERS = "https://webr4-parse.invalid/__webr4__/chunk/"
NOTICE = "https://app.test/__webr4__/module"
HARNESS = HarnessCode("N", MARKERS, {"served();": "own();", "servedHandler()": "ownHandler()"}, NOTICE)


def _hash(code: str, algorithm: str = "sha256") -> str:
    digest = hashlib.new(algorithm, code.encode()).digest()
    return f"'{algorithm}-{base64.b64encode(digest).decode()}'"


def test_the_directive_in_force_for_script_elements_gets_the_harness_nonce():
    assert amend_policies("default-src 'self'; script-src 'self' 'nonce-p'", HARNESS) == (
        f"default-src 'self' {NOTICE}; script-src 'self' 'nonce-p' 'nonce-N'")
    assert amend_policies("script-src 'none'; script-src-elem 'strict-dynamic' 'nonce-p'", HARNESS) == (
        "script-src 'none'; script-src-elem 'strict-dynamic' 'nonce-p' 'nonce-N'")


def test_where_unsafe_inline_is_in_force_the_markers_are_allowed_by_url_not_by_a_nonce():
    # a nonce would switch 'unsafe-inline' off for the page's own inline scripts
    assert amend_policies("script-src 'self' 'unsafe-inline'", HARNESS) == (
        f"script-src 'self' 'unsafe-inline' {MARKERS}")


def test_rewritten_code_is_allowed_where_and_only_where_its_own_hash_is():
    policy = (f"script-src {_hash('own();')} {_hash('other();')}; "
              f"script-src-attr 'unsafe-hashes' {_hash('ownHandler()', 'sha384')}")
    assert amend_policies(policy, HARNESS) == (
        f"script-src {_hash('own();')} {_hash('other();')} {_hash('served();')} 'nonce-N'; "
        f"script-src-attr 'unsafe-hashes' {_hash('ownHandler()', 'sha384')} {_hash('servedHandler()', 'sha384')}")


def test_a_hash_in_base64url_without_padding_is_recognised():
    own = _hash("own();").strip("'").rstrip("=").replace("+", "-").replace("/", "_")
    assert _hash("served();") in amend_policies(f"script-src '{own}'", HARNESS)


def test_none_gives_way_to_the_added_sources_and_other_directives_are_left_alone():
    assert amend_policies("connect-src 'none'; img-src 'none'", HARNESS) == f"connect-src {NOTICE}; img-src 'none'"
    assert amend_policies("img-src 'self', script-src 'self'", HARNESS) == "img-src 'self', script-src 'self' 'nonce-N'"
    assert amend_policies("sandbox; report-uri /r", HARNESS) == "sandbox; report-uri /r"


def test_a_meta_policy_is_amended_in_place_and_the_page_keeps_its_own_text():
    document = """<head><meta http-equiv="content-security-policy" content="script-src 'self'"><title>t</title>"""
    amended = amend_meta_policies(document, HARNESS)
    served = "script-src 'self' 'nonce-N'"
    assert amended.html == document.replace("script-src 'self'", served)
    assert amended.originals == {served: "script-src 'self'"}
    assert amended.positions.original_offset(amended.html.index("<title>")) == document.index("<title>")


def test_a_prepared_document_carries_its_nonce_on_every_inserted_script_and_in_its_policies():
    page = "<!doctype html><head><meta http-equiv=Content-Security-Policy content=\"script-src 'self'\"></head>" \
           "<body><p>a</p><script src=/a.js></script><p>b</p></body>"
    prepared = prepare_document(page, "https://app.test/", None, ChunkModel())
    nonce = prepared.harness.nonce
    assert prepared.html.count(f'nonce="{nonce}"') == prepared.html.count("<script") - 1  # all but the page's
    assert f"content=\"script-src 'self' 'nonce-{nonce}'\"" in prepared.html
    assert prepared.policy("script-src 'self'") == f"script-src 'self' 'nonce-{nonce}'"
