"""Every function of webr4 fits on a screen: at most :data:`MAX_FUNCTION_LINES` lines.

A longer function does several things; split it by what they are (helpers whose names say what
they do). Ruff checks the other measures of size, complexity and statements (``pyproject.toml``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

MAX_FUNCTION_LINES = 60
"""From the first decorator, or the ``def``, to the last line of the body, both included."""

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "webr4"


def function_lengths(source: str) -> Iterator[tuple[int, str, int]]:
    """Each function and method of ``source``, nested ones too: its first line, its qualified
    name and its length in lines."""

    def visit(node: ast.AST, prefix: str) -> Iterator[tuple[int, str, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                first = min([child.lineno, *(decorator.lineno for decorator in child.decorator_list)])
                last = child.end_lineno if child.end_lineno is not None else child.lineno
                yield first, prefix + child.name, last - first + 1
                yield from visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                yield from visit(child, f"{prefix}{child.name}.")
            else:
                yield from visit(child, prefix)

    yield from visit(ast.parse(source), "")


def test_no_function_is_longer_than_a_screen():
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 100, f"expected webr4's modules under {PACKAGE}"
    too_long = [f"{path.relative_to(REPO)}:{line} {name}: {length} lines"
                for path in modules
                for line, name, length in function_lengths(path.read_text(encoding="utf-8"))
                if length > MAX_FUNCTION_LINES]
    assert not too_long, f"functions over {MAX_FUNCTION_LINES} lines:\n" + "\n".join(too_long)


def test_lengths_count_decorators_and_nested_functions():
    source = ("class A:\n"
              "    @staticmethod\n"
              "    @cache\n"
              "    def f():\n"
              "        def g():\n"
              "            pass\n"
              "        return g\n")
    assert list(function_lengths(source)) == [(2, "A.f", 6), (5, "A.f.g", 2)]
