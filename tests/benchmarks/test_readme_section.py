"""The generated README section replaces exactly the text between its markers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.readme_section import END, START, MarkersMissing, replace_between

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
    with pytest.raises(MarkersMissing, match="README.md needs the lines"):
        replace_between(text, "body")
