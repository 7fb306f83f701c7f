"""Where webr4's non-Python files are: the injected JavaScript, the bundled sites, the report
templates. They live at the top of the source tree and ship inside the package (see
``pyproject.toml``); this module finds them in either layout."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

_SOURCE_ROOT = Path(__file__).resolve().parent.parent
# kind -> (directory in the source tree, package it ships as)
_LAYOUT = {
    "js": ("instrument_js", "webr4._js"),
    "sites": ("sites", "webr4._sites"),
    "reports": ("reports", "webr4._reports"),
}


@cache
def resource_dir(kind: str) -> Path:
    """The directory holding ``kind`` ("js", "sites" or "reports")."""
    directory, package = _LAYOUT[kind]
    in_tree = _SOURCE_ROOT / directory
    if in_tree.is_dir():
        return in_tree
    return Path(str(resources.files(package)))


@cache
def javascript(name: str) -> str:
    """The text of ``instrument_js/<name>``."""
    return (resource_dir("js") / name).read_text(encoding="utf-8")
