"""The HTML page of one exploration: every reversal with its verdict and screenshot pair.

Everything from the site is escaped by Jinja2's autoescaping: a hostile page cannot run script
in the report.
"""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from webr4.resources import resource_dir
from webr4.sweep.explore import Summary

_ORDER = {"harmful": 0, "error": 1, "heap-only": 2, "harmless": 3}


def write_sweep_page(out: Path, site: str, summary: Summary) -> Path:
    """Write ``out/report/index.html`` (harmful reversals first); return its path."""
    env = Environment(loader=FileSystemLoader(resource_dir("reports")), autoescape=select_autoescape(["j2", "html"]))
    page = env.get_template("sweep.html.j2").render(
        site=site, url=summary.url, bound=summary.bound, counts=summary.counts, noise=summary.noise,
        outcomes=sorted(summary.reversals, key=lambda r: (_ORDER.get(r.verdict, 9), r.index)))
    path = out / "report" / "index.html"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
    return path
