"""Where webr4's non-Python files are: the injected JavaScript, the bundled sites, the report
templates, the example tests. They live at the top of the source tree and ship inside the package (see
``pyproject.toml``); this module finds them in either layout. A checkout is recognised by its
``pyproject.toml`` beside the package, so an installed webr4 never picks up an unrelated
``sites/`` or ``reports/`` directory that another distribution left in ``site-packages``.

The files are read from the file system (the sites are served over HTTP, the templates loaded
by path), so an installed webr4 must be unpacked, as pip and pipx always install wheels.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE_ROOT = Path(__file__).resolve().parent
_SOURCE_ROOT = _PACKAGE_ROOT.parent
# kind -> (directory in the source tree, directory inside the installed package)
_LAYOUT = {
    "js": ("instrument_js", "_js"),
    "sites": ("sites", "_sites"),
    "reports": ("reports", "_reports"),
    "examples": ("examples", "_examples"),
}


@cache
def resource_dir(kind: str) -> Path:
    """The directory holding ``kind`` ("js", "sites", "reports" or "examples")."""
    in_tree, installed = _LAYOUT[kind]
    source = _SOURCE_ROOT / in_tree
    if (_SOURCE_ROOT / "pyproject.toml").is_file() and source.is_dir():
        return source
    return _PACKAGE_ROOT / installed


@cache
def javascript(name: str) -> str:
    """The text of ``instrument_js/<name>``."""
    return (resource_dir("js") / name).read_text(encoding="utf-8")
