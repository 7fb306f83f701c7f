"""ARCHITECTURE.md's import rule ("Imports point one way" and the lines after it), checked on
every module of webr4.

An import is any ``import`` or ``from … import`` statement, at module level, in a function or
under ``TYPE_CHECKING``, and any ``importlib.import_module`` (or ``__import__``) of a literal
name. ``from package import name`` imports the submodule ``package.name`` when there is one.
Where the paragraph says a module imports something "not even through another module", the
check follows what importing it loads at run time: every import but those under
``TYPE_CHECKING``, and the packages each imported module sits in. A broken rule fails with one
line per offending import: the file and line, what it imports, and the rule.
"""

from __future__ import annotations

import ast
import re
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "webr4"
ARCHITECTURE = REPO / "ARCHITECTURE.md"

CHAIN: tuple[tuple[str, ...], ...] = (
    ("__init__", "__main__", "pytest_plugin", "pytest_chromium", "demo", "docformats"),
    ("cli",),
    ("deflake", "campaign"),
    ("checking",),
    ("report",),
    ("record", "sweep"),
    ("witness",),
    ("rundir",),
    ("browser", "engine", "state", "classify"),
    ("instrument",),
    ("config", "errors", "gcpause", "interrupts", "keydocs", "libraries", "resources", "runlock", "serve",
     "useractions", "version", "vocabulary"),
    ("execution", "trace", "access_summary", "timer_order", "places"),
)
"""The layers of ARCHITECTURE.md's chain, left to right: packages and root modules by their names
under ``webr4``, and ``__init__`` for the package itself (the public API)."""


@dataclass(frozen=True)
class Import:
    """One import of ``target`` (a dotted module name) by module ``source``, at ``path:line``."""

    source: str
    target: str
    path: Path
    line: int
    at_run_time: bool  # False under ``if TYPE_CHECKING:``

    def __str__(self) -> str:
        return f"{self.path.relative_to(REPO)}:{self.line} imports {self.target}"


def _dotted(name: str) -> str:
    """The module a name of the rules stands for: ``playwright``, ``webr4`` for ``__init__``, else
    ``webr4.name``."""
    return name if name == "playwright" else "webr4" if name == "__init__" else f"webr4.{name}"


def within(module: str, *packages: str) -> bool:
    """``module`` is one of ``packages`` (names under ``webr4``, ``__init__`` or ``playwright``) or
    inside one; ``__init__`` holds the package's own module alone."""
    return any(module == dotted or (dotted != "webr4" and module.startswith(dotted + "."))
               for dotted in map(_dotted, packages))


def place(module: str) -> str:
    """The name the chain gives the package or root module ``module`` of webr4 sits in."""
    return module.split(".")[1] if "." in module else "__init__"


@cache
def modules() -> dict[str, Path]:
    """Every module of webr4 by its dotted name (a package by its ``__init__.py``)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(REPO).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imported_name(node: ast.Call) -> str | None:
    """The literal name ``importlib.import_module`` or ``__import__`` is called with, if any."""
    func = node.func
    called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    first = node.args[0] if node.args else None
    if called in ("import_module", "__import__") and isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return None


class _Reader(ast.NodeVisitor):
    """Collects the imports of one module, telling those under ``TYPE_CHECKING`` apart."""

    def __init__(self, module: str, path: Path) -> None:
        self.module, self.path = module, path
        self.package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        self.imports: list[Import] = []
        self._typing_only = 0

    def _add(self, target: str, node: ast.stmt | ast.expr) -> None:
        self.imports.append(Import(self.module, target, self.path, node.lineno, not self._typing_only))

    def _absolute(self, name: str | None, level: int) -> str:
        if not level:
            return name or ""
        base = self.package.split(".")[: len(self.package.split(".")) - level + 1]
        return ".".join(base + ([name] if name else []))

    def visit_If(self, node: ast.If) -> None:
        if _is_type_checking(node.test):
            self._typing_only += 1
            for child in node.body:
                self.visit(child)
            self._typing_only -= 1
            for child in node.orelse:
                self.visit(child)
        else:
            self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = self._absolute(node.module, node.level)
        for alias in node.names:
            submodule = f"{base}.{alias.name}"
            self._add(submodule if submodule in modules() else base, node)

    def visit_Call(self, node: ast.Call) -> None:
        name = _imported_name(node)
        if name is not None:
            dots = len(name) - len(name.lstrip("."))
            self._add(self._absolute(name[dots:] or None, dots) if dots else name, node)
        self.generic_visit(node)


def read_imports(module: str, path: Path) -> list[Import]:
    """The imports of ``module``, whose source is ``path``."""
    reader = _Reader(module, path)
    reader.visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    return reader.imports


@cache
def imports() -> dict[str, list[Import]]:
    """The imports of every module of webr4, by importing module."""
    return {module: read_imports(module, path) for module, path in modules().items()}


def loads(module: str) -> Iterator[str]:
    """``module`` and the packages it sits in, all of which importing it runs."""
    parts = module.split(".")
    for end in range(1, len(parts) + 1):
        yield ".".join(parts[:end])


def run_time_path(start: str, forbidden: Callable[[str], bool]) -> list[Import] | None:
    """The shortest chain of run-time imports by which importing ``start`` loads a module
    ``forbidden`` accepts (a Playwright module counts as loaded when imported), or None."""
    came_by: dict[str, Import | None] = dict.fromkeys(loads(start))
    queue = deque(came_by)
    while queue:
        module = queue.popleft()
        for found in imports().get(module, ()):
            if not found.at_run_time:
                continue
            for target in loads(found.target):
                if target in came_by:
                    continue
                came_by[target] = found
                if forbidden(target):
                    chain = [found]
                    while (previous := came_by[chain[-1].source]) is not None:
                        chain.append(previous)
                    return chain[::-1]
                queue.append(target)
    return None


@dataclass(frozen=True)
class Rule:
    """Modules ``sources`` accepts never import one ``forbidden`` accepts (with ``transitive``,
    not even through other modules at run time); ``words`` quote the rule."""

    words: str
    sources: Callable[[str], bool]
    forbidden: Callable[[str], bool]
    transitive: bool = False

    def broken_by(self) -> list[str]:
        """One line for each import that breaks the rule."""
        lines = []
        for module in sorted(m for m in modules() if self.sources(m)):
            if self.transitive:
                chain = run_time_path(module, self.forbidden)
                if chain:
                    lines.append(f"{chain[0]}" + "".join(f", which loads {step.target} "
                                                         f"({step.path.relative_to(REPO)}:{step.line})"
                                                         for step in chain[1:]))
            else:
                lines += [str(found) for found in imports()[module] if self.forbidden(found.target)]
        return lines


def _in(*packages: str) -> Callable[[str], bool]:
    return lambda module: within(module, *packages)


def _chain_rules() -> Iterator[Rule]:
    for index, layer in enumerate(CHAIN[1:], start=1):
        left = [name for earlier in CHAIN[:index] for name in earlier]
        yield Rule(f"imports point one way: ({', '.join(layer)}) import nothing of {', '.join(left)}",
                   _in(*layer), _in(*left))


BOTTOM = CHAIN[-1]


def layer_of(name: str) -> tuple[str, ...]:
    """The layer of the chain that places ``name``."""
    return next(layer for layer in CHAIN if name in layer)


def of_webr4(module: str) -> bool:
    return module == "webr4" or module.startswith("webr4.")


RULES: tuple[Rule, ...] = (
    *_chain_rules(),
    Rule("record never imports sweep", _in("record"), _in("sweep")),
    *(Rule(f"{name} imports nothing else of its layer", _in(name),
           _in(*(other for other in layer_of(name) if other != name)))
      for name in ("browser", "engine", "state", "deflake", "campaign")),
    Rule("classify reads the state and the engine, never the browser", _in("classify"), _in("browser")),
    Rule("the last layer imports nothing of webr4 but itself", _in(*BOTTOM),
         lambda m: of_webr4(m) and not within(m, *BOTTOM)),
    Rule("rundir imports no browser, not even through another module", _in("rundir"),
         _in("browser", "playwright"), transitive=True),
    Rule("report imports no browser, not even through another module", _in("report"),
         _in("browser", "playwright"), transitive=True),
    Rule("the engine never imports the browser or Playwright", _in("engine"), _in("browser", "playwright")),
    Rule("witness never imports webr4/browser", _in("witness"), _in("browser")),
    Rule("witness imports nothing that imports the browser", _in("witness"), _in("browser"), transitive=True),
    Rule("webr4/witness/plain.py imports nothing of webr4", lambda m: m == "webr4.witness.plain",
         of_webr4),
    Rule("nothing at run time imports webr4/engine/testing/", lambda m: not within(m, "engine.testing"),
         _in("engine.testing")),
)


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.words)
def test_imports_keep_the_rule(rule: Rule) -> None:
    broken = rule.broken_by()
    assert not broken, f"{rule.words} (ARCHITECTURE.md, 'Imports point one way'), but:\n" + "\n".join(broken)


def test_the_chain_is_the_one_architecture_md_draws() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    drawn = re.search(r"Imports point one way[^`]*`([^`]+)`", text)
    assert drawn, "ARCHITECTURE.md no longer draws the chain of layers after 'Imports point one way'"
    layers = tuple(tuple(name.strip() for name in layer.strip().strip("()").split(","))
                   for layer in drawn.group(1).split("→"))
    assert layers == CHAIN


def test_every_name_a_rule_gives_is_a_module() -> None:
    named = {name for layer in CHAIN for name in layer} | {"rundir", "witness", "engine.testing"}
    missing = sorted(name for name in named if _dotted(name) not in modules())
    assert not missing, f"the rules name modules webr4 no longer has: {', '.join(missing)}"


def test_the_chain_places_every_package_and_root_module() -> None:
    placed = {name for layer in CHAIN for name in layer}
    unplaced = sorted({place(module) for module in modules()} - placed)
    assert not unplaced, (f"ARCHITECTURE.md's chain ('Imports point one way') places no layer for: "
                          f"{', '.join(unplaced)}")


def import_circle() -> list[Import] | None:
    """A chain of imports between modules of webr4 that leads back to where it started, or None."""
    graph = {module: [found for found in found_imports if found.target in modules() and found.target != module]
             for module, found_imports in imports().items()}
    done: set[str] = set()
    path: list[Import] = []
    on_path: dict[str, int] = {}

    def visit(module: str) -> list[Import] | None:
        on_path[module] = len(path)
        for found in graph[module]:
            if found.target in on_path:
                return path[on_path[found.target]:] + [found]
            if found.target not in done:
                path.append(found)
                circle = visit(found.target)
                if circle:
                    return circle
                path.pop()
        del on_path[module]
        done.add(module)
        return None

    for start in sorted(graph):
        if start not in done and (circle := visit(start)):
            return circle
    return None


def test_no_import_circle() -> None:
    circle = import_circle()
    assert circle is None, "webr4's imports go round in a circle (ARCHITECTURE.md, 'Imports point one way'):\n" + (
        "\n".join(map(str, circle)))


def test_every_kind_of_import_is_read(tmp_path: Path) -> None:
    source = tmp_path / "sample.py"
    source.write_text(
        "from __future__ import annotations\n"
        "import importlib\n"
        "from typing import TYPE_CHECKING\n"
        "from webr4 import trace\n"
        "from webr4.witness import plain\n"
        "from . import places\n"
        "if TYPE_CHECKING:\n"
        "    from webr4.execution import Execution\n"
        "def later():\n"
        "    import webr4.engine.hb\n"
        "    return importlib.import_module('webr4.rundir')\n",
        encoding="utf-8")
    found = {(i.target, i.line, i.at_run_time) for i in read_imports("webr4.sample", source)}
    assert found >= {("webr4.trace", 4, True), ("webr4.witness.plain", 5, True), ("webr4.places", 6, True),
                     ("webr4.execution", 8, False), ("webr4.engine.hb", 10, True), ("webr4.rundir", 11, True)}
