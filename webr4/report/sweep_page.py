"""The HTML page of one sweep: every reversal with its end-state comparison and screenshots.

Everything from the site is escaped by Jinja2's autoescaping: a hostile page cannot run script
in the report.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from jinja2 import Environment, FileSystemLoader, select_autoescape

from webr4.resources import resource_dir
from webr4.sweep.reversals import ReversalOutcome


def write_sweep_page(out: Path, *, site: str, url: str, bound: int, outcomes: Sequence[ReversalOutcome]) -> Path:
    """Write ``out/report/index.html``; return its path."""
    env = Environment(loader=FileSystemLoader(resource_dir("reports")), autoescape=select_autoescape(["j2", "html"]))
    page = env.get_template("sweep.html.j2").render(
        site=site, url=url, bound=bound, outcomes=sorted(outcomes, key=lambda o: (not o.differs, o.index)))
    path = out / "report" / "index.html"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
    return path
