"""Replacing the generated parts of the documentation: the text between two marker comments.

A benchmark that ran in full has its table written into the page that holds it: the comparison
into ``README.md`` and the overview of the benchmarks in ``docs/``, every other table into its
page of ``docs/benchmarks/``. The registry (:mod:`benchmarks.registry`) names each section's
:class:`DocsTable` entries; the section gives the body (:attr:`benchmarks.section.Section.docs`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
BENCHMARK_PAGES = REPO / "docs" / "benchmarks"
START, END = "<!-- compare:start -->", "<!-- compare:end -->"


class MarkersMissing(ValueError):
    """The text lacks the start marker, the end marker, or has them in the wrong order."""


def replace_between(text: str, body: str, start: str = START, end: str = END, name: str = "the page") -> str:
    """``text`` with everything between ``start`` and ``end`` (markers kept) replaced by ``body``;
    ``name`` is the file the text came from, for the error."""
    head, found, rest = text.partition(start)
    if not found or end not in rest:
        raise MarkersMissing(f"{name} needs the lines {start} and {end} (in that order)")
    return f"{head}{start}\n{body.strip()}\n{end}{rest.partition(end)[2]}"


def update_readme(body: str, markers: tuple[str, str], page: Path) -> None:
    """Write ``body`` between ``markers`` (start and end) of ``page``: ``README.md`` or a page of
    the documentation."""
    name = str(page.relative_to(REPO)) if page.is_relative_to(REPO) else str(page)
    page.write_text(replace_between(page.read_text(), body, *markers, name=name))


@dataclass(frozen=True)
class DocsTable:
    """A generated table: the text of ``page`` between ``<!-- NAME:start -->`` and ``<!-- NAME:end -->``."""

    page: Path
    name: str

    @property
    def markers(self) -> tuple[str, str]:
        return f"<!-- {self.name}:start -->", f"<!-- {self.name}:end -->"

    def write(self, body: str) -> None:
        """Replace the table with ``body`` (:class:`MarkersMissing` when the page lacks its markers)."""
        update_readme(body, self.markers, self.page)
