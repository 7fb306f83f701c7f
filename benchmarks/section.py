"""What a benchmark section produces: its results, and the body of its documentation tables."""

from __future__ import annotations

import json
import platform
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Section:
    """One benchmark's results: a title, a Markdown table for people and its data for programs.

    ``docs`` is what goes between the markers of the documentation tables the registry names for
    the section (:mod:`benchmarks.registry`), or None when the run measured less than those tables
    show (a corpus not installed, a subset chosen, an app that failed): they are then left as
    they are. It is not part of the results files."""

    title: str
    markdown: str
    data: Any
    docs: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "markdown": self.markdown, "data": self.data}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Section:
        return cls(raw["title"], raw["markdown"], raw["data"])

    def write(self, stem: Path) -> None:
        """Print the section and write it to ``stem.md`` and ``stem.json``."""
        print(f"## {self.title}\n\n{self.markdown}\n", flush=True)
        stem.with_suffix(".md").write_text(f"## {self.title}\n\n{self.markdown}\n")
        stem.with_suffix(".json").write_text(json.dumps(
            {"machine": platform.platform(), "section": self.to_json()}, indent=1))
