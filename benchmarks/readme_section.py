"""Replacing the generated part of ``README.md``: the text between two marker comments."""

from __future__ import annotations

from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
START, END = "<!-- compare:start -->", "<!-- compare:end -->"


class MarkersMissing(ValueError):
    """The text lacks the start marker, the end marker, or has them in the wrong order."""


def replace_between(text: str, body: str, start: str = START, end: str = END) -> str:
    """``text`` with everything between ``start`` and ``end`` (markers kept) replaced by ``body``."""
    head, found, rest = text.partition(start)
    if not found or end not in rest:
        raise MarkersMissing(f"README.md needs the lines {start} and {end} (in that order)")
    return f"{head}{start}\n{body.strip()}\n{end}{rest.partition(end)[2]}"


def update_readme(body: str, markers: tuple[str, str] = (START, END), readme: Path = README) -> None:
    """Write ``body`` between ``markers`` (start and end) of ``readme``."""
    readme.write_text(replace_between(readme.read_text(), body, *markers))
