"""The real-web corpus file is well-formed and its table honest, without npm or Chromium."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.corpora import WEB_FILE, load_pages
from benchmarks.real_web import PageResult, chosen, dom_differences, table

KINDS = {"API console", "documentation site generator", "presentation framework", "code editor",
         "rich-text editor", "chart library demo", "map library demo", "web-components app", "dashboard"}


def _broken(tmp_path: Path, change: dict[str, object], index: int = 0) -> Path:
    raw = json.loads(WEB_FILE.read_text())
    raw["pages"][index].update(change)
    path = tmp_path / "corpus.json"
    path.write_text(json.dumps(raw))
    return path


def test_the_corpus_has_twelve_pages_or_more_of_every_kind_asked_for() -> None:
    corpus = load_pages()
    assert len(corpus.pages) >= 12
    assert {page.kind for page in corpus.pages} >= KINDS
    assert all(page.steps for page in corpus.pages)


def test_every_package_a_page_shows_is_installed_and_every_installed_one_is_shown() -> None:
    corpus = load_pages()
    assert {page.package for page in corpus.pages} == set(corpus.packages)


@pytest.mark.parametrize("spec", ["quill", "quill@^2.0.3", "quill@latest", "quill@2"])
def test_a_package_not_pinned_to_one_version_is_refused(tmp_path: Path, spec: str) -> None:
    raw = json.loads(WEB_FILE.read_text())
    raw["packages"][0] = spec
    path = tmp_path / "corpus.json"
    path.write_text(json.dumps(raw))
    with pytest.raises(ValueError, match="pinned to one version"):
        load_pages(path)


def test_a_page_from_a_package_the_corpus_does_not_install_is_named(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="shows quill@1.3.7, which the corpus does not install"):
        load_pages(_broken(tmp_path, {"package": "quill@1.3.7"}))


def test_a_host_page_must_exist_and_a_shipped_page_must_be_its_packages(tmp_path: Path) -> None:
    name = load_pages().pages[0].name
    with pytest.raises(ValueError, match=f"pages/{name}/missing.html is not in"):
        load_pages(_broken(tmp_path, {"page": f"pages/{name}/missing.html"}))
    with pytest.raises(ValueError, match="must be node_modules/"):
        load_pages(_broken(tmp_path, {"page": "node_modules/leaflet/index.html"}))


def test_a_session_not_in_webr4s_action_format_is_named(tmp_path: Path) -> None:
    name = load_pages().pages[0].name
    with pytest.raises(ValueError, match=f"page '{name}' has a bad session"):
        load_pages(_broken(tmp_path, {"session": [{"tap": "#x"}]}))


def test_a_page_missing_a_field_is_named(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="lacks kind"):
        load_pages(_broken(tmp_path, {"kind": ""}))


def test_pages_are_chosen_by_name_and_an_unknown_name_is_refused() -> None:
    corpus = load_pages()
    first, second = corpus.pages[0].name, corpus.pages[1].name
    assert [page.name for page in chosen(corpus, f"{second}, {first}")] == [first, second]
    assert chosen(corpus, None) == list(corpus.pages)
    with pytest.raises(ValueError, match="lacks: nowhere"):
        chosen(corpus, "nowhere")


def test_dom_noise_among_plain_captures_and_renamed_ids_are_no_difference() -> None:
    plain = ['<p id="a1">\n  12:00:01\n</p>\n<label for="a1">\n</label>',
             '<p id="a1">\n  12:00:02\n</p>\n<label for="a1">\n</label>']
    assert dom_differences(plain, '<p id="b7">\n  12:00:09\n</p>\n<label for="b7">\n</label>') == []
    assert dom_differences(plain, '<p id="a1">\n  12:00:09\n</p>\n<span>\n</span>') != []


def test_a_failed_page_and_a_differing_dom_are_said_in_the_table() -> None:
    fine = PageResult("chart", "chart library demo", "chart.js@4.6.1", plain_s=1.0, dom=[], record_s=1.5,
                      sweep_s=6.0, sequences=3, stop_reason="exhausted", run_dir_bytes=2_000_000,
                      verdicts={"harmless": 2})
    differs = PageResult("docs", "documentation site generator", "docsify@4.13.1", plain_s=1.0,
                         dom=["body > div: style \"a\" → \"b\""], record_s=1.0, sweep_s=4.0, sequences=2,
                         stop_reason="exhausted", run_dir_bytes=1_000_000, verdicts={"harmless": 1, "error": 1},
                         failures=["2: the page crashed"])
    failed = PageResult("editor", "rich-text editor", "quill@2.0.3", plain_s=1.0, error="explore: failed")
    text = table([fine, differs, failed])
    assert "| chart | chart library demo | chart.js@4.6.1 | same | 0 / 2 / 0 / 0 |" in text
    assert "differs: body > div: style" in text
    assert "**failed** (explore: failed)" in text
    assert "- docs 2: the page crashed" in text
    assert text.endswith("failed: editor; error verdicts: docs; final DOM differs from plain Chromium: docs.")
    assert table([fine]).endswith("without an error verdict, each ending with plain Chromium's DOM.")
