"""A rewritten script maps every position back to the source exactly, however long its lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from webr4.instrument import rewrite
from webr4.instrument.cache import CachedRewriter
from webr4.instrument.document import instrument_document
from webr4.instrument.positions import PositionMap

CORPUS = sorted((Path(__file__).parent / "corpus").glob("*.js"))
MINIFIED = "".join(f"var é={{a:1}};é.a=é.a+1;function f(x){{return x.b+é.a}}/*k{n}*/"
                   f"setTimeout(function(){{f({{b:'ü'}})}},0);"
                   for n in range(400))


def _check_copied_runs(source: str, code: str, positions: PositionMap) -> None:
    """Every run copies source text to the code unchanged, and the runs come in source order."""
    end = 0
    for rewritten, original, length in positions.runs:
        assert code[rewritten : rewritten + length] == source[original : original + length]
        assert original >= end
        end = original + length


@pytest.mark.parametrize("path", CORPUS + [None], ids=[p.stem for p in CORPUS] + ["minified"])
def test_every_copied_run_is_the_source_text(path: Path | None) -> None:
    source = path.read_text() if path is not None else MINIFIED
    result = rewrite(source, "https://site/a.js")
    _check_copied_runs(source, result.code, result.positions)


def test_a_position_on_a_long_minified_line_maps_to_its_source_column() -> None:
    result = rewrite(MINIFIED, "https://site/a.js")
    assert len(result.code.split("\n")) == 1
    for n in range(0, 400, 37):
        mark = f"/*k{n}*/"
        assert result.original_column(1, result.code.index(mark) + 1) == MINIFIED.index(mark) + 1


def test_inline_scripts_of_a_document_map_back_exactly() -> None:
    html = f"<html><body>\n<p onclick=\"f({{b: 1}})\">x</p>\n<script>{MINIFIED}</script>\n</body></html>"
    document = instrument_document(html, "https://site/", CachedRewriter(), "d")
    _check_copied_runs(html, document.html, document.positions)
    assert document.positions.original_offset(document.html.index("/*k399*/")) == html.index("/*k399*/")


def test_a_stored_map_reads_back_the_same() -> None:
    positions = rewrite(MINIFIED, "https://site/a.js").positions
    assert PositionMap.from_deltas(positions.deltas()).runs == positions.runs
