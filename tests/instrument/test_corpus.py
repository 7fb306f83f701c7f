"""Tricky constructs: each corpus program prints the same under Node plain and rewritten."""

from __future__ import annotations

from pathlib import Path

import pytest
from jsrun import Job, Outcome, run_jobs

from webr4.instrument import rewrite

CORPUS = Path(__file__).with_name("corpus")
DEPENDENCY = 'export let counter = 0;\nexport function bump() { counter++; }\nexport default "dflt";\n'


def _kind(path: Path) -> str:
    if path.suffix == ".mjs":
        return "module"
    return "handler" if path.stem.startswith("handler") else "script"


def _jobs(path: Path, log: bool) -> Job:
    kind = _kind(path)
    source = path.read_text(encoding="utf-8")
    modules = {"dep": DEPENDENCY}
    if log:
        source = rewrite(source, path.name, module=kind == "module", handler=kind == "handler").code
        modules = {"dep": rewrite(DEPENDENCY, "dep.mjs", script_id="dep", module=True).code}
    return Job(source, kind, log, modules if kind == "module" else {})


PROGRAMS = sorted(CORPUS.iterdir())


@pytest.fixture(scope="module")
def outcomes() -> dict[str, tuple[Outcome, Outcome]]:
    jobs = [job for path in PROGRAMS for job in (_jobs(path, False), _jobs(path, True))]
    results = run_jobs(jobs)
    return {path.name: (results[2 * i], results[2 * i + 1]) for i, path in enumerate(PROGRAMS)}


@pytest.mark.parametrize("name", [path.name for path in PROGRAMS])
def test_same_output(outcomes: dict[str, tuple[Outcome, Outcome]], name: str) -> None:
    plain, instrumented = outcomes[name]
    assert plain.output, "the program printed nothing"
    assert instrumented.output == plain.output
    assert instrumented.log, "the rewritten program logged nothing"


@pytest.mark.parametrize("name", [path.name for path in PROGRAMS if _kind(path) == "script"])
def test_rewritten_parses_and_keeps_lines(name: str) -> None:
    source = (CORPUS / name).read_text(encoding="utf-8")
    code = rewrite(source, name).code
    assert code.count("\n") == source.count("\n")
