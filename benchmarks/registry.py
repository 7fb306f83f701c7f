"""The registry of benchmark sections: each one's module, the corpora it measures, whether it is
quick or long, and what it writes.

A section is a module ``benchmarks.<name>`` with a function ``run(sites: list[Path]) -> Section``
(``sites``: the bundled sites and those given on the command line; a section of another corpus
ignores them). Quick sections run on every ``python -m benchmarks`` (``make bench``) and share
``benchmarks/results/latest.{md,json}``, each under its name; long ones (minutes to hours, npm
packages installed on first use) run only when named with ``--only`` and each writes
``benchmarks/results/<name>.{md,json}``. A section's documentation tables are replaced with its
:attr:`~benchmarks.section.Section.docs` when it gives one. The one-off tools of
``benchmarks/profiling/`` are not sections.

Importing this module imports no section: ``python -m benchmarks --list`` prints it cheaply.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from pathlib import Path

from benchmarks import corpora
from benchmarks.corpora import Corpus
from benchmarks.readme_section import BENCHMARK_PAGES, README, DocsTable
from benchmarks.section import Section

RESULTS = Path(__file__).resolve().parent / "results"
LATEST = RESULTS / "latest"
"""The quick sections' results file (``.md`` and ``.json``), one part per section."""


@dataclass(frozen=True)
class Benchmark:
    """One section: ``name`` is its module's and ``--only``'s; ``tables`` are the documentation
    tables it fills; ``also_writes`` names any other file it writes itself."""

    name: str
    corpora: tuple[Corpus, ...]
    long: bool = False
    tables: tuple[DocsTable, ...] = ()
    also_writes: tuple[str, ...] = ()

    @property
    def module(self) -> str:
        return f"benchmarks.{self.name}"

    @property
    def results(self) -> Path:
        """The stem of the results file the section's figures go to (``.md`` and ``.json``)."""
        return RESULTS / self.name if self.long else LATEST

    def run(self, sites: list[Path]) -> Section:
        """Measure: the module's ``run``."""
        section: Section = import_module(self.module).run(sites)
        return section

    def publish(self, section: Section) -> None:
        """Write a long section's results file, and every section's documentation tables when
        ``section`` gives their body (the quick sections' results file is written by the harness,
        all of them at once)."""
        if self.long:
            section.write(self.results)
        if section.docs is not None:
            for table in self.tables:
                table.write(section.docs)

    def describe(self) -> str:
        """One line for ``--list``."""
        writes = [f"{self.results.relative_to(RESULTS.parent.parent)}.{{md,json}}"
                  + ("" if self.long else f" [{self.name}]")]
        writes += [f"{table.page.relative_to(RESULTS.parent.parent)} ({table.name})" for table in self.tables]
        writes += list(self.also_writes)
        return (f"{self.name:<22} {'long' if self.long else 'quick':<5}  "
                f"corpus: {', '.join(c.name for c in self.corpora):<30}  writes: {'; '.join(writes)}")


def _page(name: str, table: str) -> DocsTable:
    return DocsTable(BENCHMARK_PAGES / name, table)


BENCHMARKS: tuple[Benchmark, ...] = (
    # Quick, in the order of latest.md.
    Benchmark("controlled_execution", (corpora.SITES,)),
    Benchmark("floor", (corpora.SITES,)),
    Benchmark("sweep_cost", (corpora.SITES,)),
    Benchmark("confirmation", (corpora.SITES,)),
    Benchmark("rewrite_speed", (corpora.NPM_LIBRARIES, corpora.REAL_APPS)),
    Benchmark("evaluation", (corpora.SITES,),
              tables=(DocsTable(README, "compare"), _page("index.md", "compare"))),
    Benchmark("scaling", (corpora.GENERATED,), also_writes=("benchmarks/results/scaling.png",)),
    Benchmark("parallel", (corpora.GENERATED,)),
    Benchmark("planning_cost", (corpora.GENERATED,)),
    Benchmark("race_detection", (corpora.GENERATED,)),
    Benchmark("cpu_heavy", (corpora.CPU_HEAVY,)),
    # Long, run by name.
    Benchmark("real_apps", (corpora.REAL_APPS,), long=True, tables=(_page("real-apps.md", "real_apps"),)),
    Benchmark("real_web", (corpora.REAL_WEB,), long=True, tables=(_page("real-web.md", "real_web"),)),
    Benchmark("loader_apps", (corpora.TODOMVC_EXAMPLES,), long=True),
    Benchmark("wc_apps", (corpora.TODOMVC_EXAMPLES,), long=True),
    Benchmark("budget", (corpora.SITES, corpora.REAL_APPS), long=True, tables=(_page("budget.md", "budget"),)),
    Benchmark("check_cost", (corpora.REAL_APPS, corpora.REAL_WEB), long=True,
              tables=(_page("real-apps.md", "check_cost"),)),
    Benchmark("deflake", (corpora.FLAKY,), long=True, tables=(_page("deflake.md", "deflake"),)),
    Benchmark("regression_tests", (corpora.REAL_APPS, corpora.TODOMVC_EXAMPLES), long=True),
    Benchmark("campaign", (corpora.REAL_APPS,), long=True),
    Benchmark("deflake_suite", (corpora.FLAKY,), long=True),
)


def by_name() -> dict[str, Benchmark]:
    return {benchmark.name: benchmark for benchmark in BENCHMARKS}
