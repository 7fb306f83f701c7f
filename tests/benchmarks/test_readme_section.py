"""A generated section replaces exactly the text between its markers, in the page that holds it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.readme_section import END, README, START, MarkersMissing, replace_between, update_readme
from benchmarks.registry import BENCHMARKS

_plain = st.text(alphabet=st.characters(blacklist_characters="<"), max_size=40)


@given(_plain, _plain, _plain, _plain)
def test_only_the_text_between_the_markers_changes(head: str, old: str, tail: str, body: str) -> None:
    text = f"{head}{START}{old}{END}{tail}"
    assert replace_between(text, body) == f"{head}{START}\n{body.strip()}\n{END}{tail}"


def test_replacing_twice_gives_the_same_text() -> None:
    once = replace_between(f"a\n{START}\nold\n{END}\nb\n", "new")
    assert replace_between(once, "new") == once


@pytest.mark.parametrize("text", ["no markers", f"{START} only the start", f"{END} then {START}"])
def test_missing_or_misordered_markers_are_one_clear_error(text: str) -> None:
    with pytest.raises(MarkersMissing, match="page.md needs the lines"):
        replace_between(text, "body", name="page.md")


def test_the_section_goes_into_the_page_it_is_given(tmp_path) -> None:
    page = tmp_path / "page.md"
    page.write_text(f"# Title\n\n{START}\nold\n{END}\n\nafter\n")
    update_readme("new table", (START, END), page)
    assert page.read_text() == f"# Title\n\n{START}\nnew table\n{END}\n\nafter\n"


def test_a_page_without_the_markers_is_named_in_the_error(tmp_path) -> None:
    page = tmp_path / "page.md"
    page.write_text("no markers here\n")
    with pytest.raises(MarkersMissing, match="page.md needs the lines"):
        update_readme("table", (START, END), page)
    assert page.read_text() == "no markers here\n"


_TABLES = [(benchmark.name, table) for benchmark in BENCHMARKS for table in benchmark.tables]


@pytest.mark.parametrize(("writer", "table"), _TABLES, ids=[f"{writer}:{table.page.name}" for writer, table in _TABLES])
def test_every_benchmark_page_holds_its_markers_once_and_in_order(writer, table) -> None:
    text = table.page.read_text()
    start, end = table.markers
    assert text.count(start) == 1 and text.count(end) == 1, f"{writer} writes {table.page}, which lacks its markers"
    assert text.index(start) < text.index(end)


def test_the_readme_keeps_the_comparison() -> None:
    assert any(table.page == README and table.markers == (START, END) for _, table in _TABLES)
