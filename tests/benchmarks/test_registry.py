"""The registry names every benchmark section once, and no two sections write the same place."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import benchmarks
from benchmarks.__main__ import main
from benchmarks.corpora import CORPORA
from benchmarks.registry import BENCHMARKS, LATEST

PACKAGE = Path(benchmarks.__file__).parent


def _defines_run(path: Path) -> bool:
    tree = ast.parse(path.read_text())
    return any(isinstance(node, ast.FunctionDef) and node.name == "run" for node in tree.body)


def test_the_registry_names_every_section_module_and_nothing_else() -> None:
    sections = {f"benchmarks.{path.stem}" for path in PACKAGE.glob("*.py") if _defines_run(path)}
    assert sorted(b.module for b in BENCHMARKS) == sorted(sections)
    for benchmark in BENCHMARKS:
        assert callable(importlib.import_module(benchmark.module).run), benchmark.name


def test_each_section_writes_a_results_file_and_tables_of_its_own() -> None:
    long = [b.results for b in BENCHMARKS if b.long]
    assert len(set(long)) == len(long) and LATEST not in long
    assert len({b.name for b in BENCHMARKS}) == len(BENCHMARKS)
    tables = [(table.page, table.name) for b in BENCHMARKS for table in b.tables]
    assert len(set(tables)) == len(tables)


def test_every_section_names_corpora_the_corpora_module_knows() -> None:
    for benchmark in BENCHMARKS:
        assert benchmark.corpora and all(CORPORA.get(c.name) is c for c in benchmark.corpora), benchmark.name


def test_no_section_reaches_into_private_internals() -> None:
    for benchmark in BENCHMARKS:
        tree = ast.parse((PACKAGE / f"{benchmark.name}.py").read_text())
        imported = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        assert not {m for m in imported if "._" in m or m == "unittest.mock"}, benchmark.name
        names = [alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names]
        assert not [name for name in names if name.startswith("_")], benchmark.name
        private = [node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
                   and node.attr.startswith("_") and not node.attr.startswith("__")
                   and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))]
        assert not private, f"{benchmark.name} reads {', '.join(private)}"


def test_list_prints_every_section_with_its_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--list"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == [b.name for b in BENCHMARKS]
    assert "corpus: real_apps" in next(line for line in lines if line.startswith("real_apps "))
