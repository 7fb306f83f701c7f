"""Run the benchmarks, print their tables and write ``benchmarks/results/latest.{md,json}``.

``python -m benchmarks [--only NAME ...] [SITES_DIR ...]``: every quick section of the registry
(:mod:`benchmarks.registry`) runs on the bundled sites plus every site folder (``index.html`` and
``expected.json``) found in the directories given. With ``--only``, the quick sections not run
keep their previous figures in the results files. The long sections run only when named with
``--only``; each writes ``benchmarks/results/<name>.{md,json}`` of its own; a run without
``--only`` ends by printing their last measured tables. ``--list`` prints the registry.
"""

from __future__ import annotations

import argparse
import json
import platform
from pathlib import Path

from benchmarks.corpora import bundled_sites, find_sites
from benchmarks.registry import BENCHMARKS, LATEST, RESULTS, Benchmark, by_name
from benchmarks.section import Section


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("sites", nargs="*", type=Path, help="more directories of sites to measure")
    parser.add_argument("--only", action="append", choices=sorted(by_name()), help="run just this section")
    parser.add_argument("--list", action="store_true", help="print the sections, their corpora and what they write")
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(benchmark.describe() for benchmark in BENCHMARKS))
        return
    missing = [str(d) for d in args.sites if not d.is_dir()]
    if missing:
        parser.error(f"not a directory: {', '.join(missing)}")
    sites = bundled_sites() + find_sites(*args.sites)
    RESULTS.mkdir(exist_ok=True)
    quick = [b for b in BENCHMARKS if not b.long]
    long = [b for b in BENCHMARKS if b.long]
    for benchmark in long:
        if args.only and benchmark.name in args.only:
            benchmark.publish(benchmark.run(sites))
    if args.only and not set(args.only) & {b.name for b in quick}:
        return
    _run_quick(quick, args.only, sites)
    if not args.only:
        _print_last(long)


def _run_quick(quick: list[Benchmark], only: list[str] | None, sites: list[Path]) -> None:
    """Run the quick sections (those of ``only``, when given) and write ``latest.{md,json}``, the
    sections not run keeping their previous figures."""
    previous = _previous()
    results: dict[str, Section] = {}
    for benchmark in quick:
        if only and benchmark.name not in only:
            if benchmark.name in previous:
                results[benchmark.name] = previous[benchmark.name]
            continue
        section = results[benchmark.name] = benchmark.run(sites)
        benchmark.publish(section)
        print(f"## {section.title}\n\n{section.markdown}\n", flush=True)
    text = "\n".join(f"## {s.title}\n\n{s.markdown}\n" for s in results.values())
    LATEST.with_suffix(".md").write_text(text)
    LATEST.with_suffix(".json").write_text(json.dumps(
        {"machine": platform.platform(), "sections": {name: s.to_json() for name, s in results.items()}}, indent=1))


def _print_last(long: list[Benchmark]) -> None:
    """Print the last measured table of each long section (``make bench`` shows the corpus
    figures without spending tens of minutes on them)."""
    for benchmark in long:
        stored = benchmark.results.with_suffix(".md")
        if stored.is_file():
            print(f"{stored.read_text().rstrip()}\n\n(last measured; rerun with --only {benchmark.name})\n",
                  flush=True)


def _previous() -> dict[str, Section]:
    try:
        raw = json.loads(LATEST.with_suffix(".json").read_text())
        return {name: Section.from_json(s) for name, s in raw.get("sections", {}).items()}
    except (OSError, ValueError, KeyError):
        return {}


if __name__ == "__main__":
    main()
