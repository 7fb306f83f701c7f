"""What a benchmark section produces, and the site folders the benchmarks run on."""

from __future__ import annotations

import json
import platform
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webr4.serve import serve


@dataclass(frozen=True)
class Section:
    """One benchmark's results: a title, a Markdown table for people and its data for programs."""

    title: str
    markdown: str
    data: Any

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


def find_sites(*directories: Path) -> list[Path]:
    """Every folder directly inside ``directories`` with an ``index.html`` and an ``expected.json``."""
    return [site for directory in directories for site in sorted(directory.iterdir())
            if (site / "index.html").is_file() and (site / "expected.json").is_file()]


@contextmanager
def served(sites: list[Path]) -> Iterator[dict[Path, str]]:
    """Serve the folders holding ``sites`` on loopback; yields each site's URL."""
    with ExitStack() as stack:
        bases = {parent: stack.enter_context(serve(parent)) for parent in {site.parent for site in sites}}
        yield {site: f"{bases[site.parent]}{site.name}/" for site in sites}
