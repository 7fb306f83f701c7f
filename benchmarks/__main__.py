"""Run the benchmarks, print their tables and write ``benchmarks/results/latest.{md,json}``.

``python -m benchmarks [--only NAME ...] [SITES_DIR ...]``: every section runs on the bundled
sites plus every site folder (``index.html`` and ``expected.json``) found in the directories
given. Each section is a module in :data:`SECTIONS` with a ``run(sites) -> Section`` function.
With ``--only``, the sections not run keep their previous figures in the results files. The
sections in :data:`SEPARATE` are long and run only when named with ``--only``; each writes
``benchmarks/results/<name>.{md,json}`` of its own; a run without ``--only`` ends by printing
their last measured tables.
"""

from __future__ import annotations

import argparse
import json
import platform
from pathlib import Path
from types import ModuleType

from benchmarks import (
    budget, check_cost, confirmation, controlled_execution, cpu_heavy, deflake, evaluation, floor, loader_apps,
    parallel, planning_cost, race_detection, real_apps, real_web, regression_tests, rewrite_speed, scaling,
    sweep_cost, wc_apps,
)
from benchmarks.section import Section, find_sites
from webr4.resources import resource_dir

RESULTS = Path(__file__).resolve().parent / "results"

SECTIONS = {
    "controlled_execution": controlled_execution,
    "floor": floor,
    "sweep_cost": sweep_cost,
    "confirmation": confirmation,
    "rewrite_speed": rewrite_speed,
    "evaluation": evaluation,
    "scaling": scaling,
    "parallel": parallel,
    "planning_cost": planning_cost,
    "race_detection": race_detection,
    "cpu_heavy": cpu_heavy,
}
SEPARATE = {
    "real_apps": real_apps,
    "real_web": real_web,
    "loader_apps": loader_apps,
    "wc_apps": wc_apps,
    "budget": budget,
    "check_cost": check_cost,
    "deflake": deflake,
    "regression_tests": regression_tests,
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("sites", nargs="*", type=Path, help="more directories of sites to measure")
    parser.add_argument("--only", action="append", choices=sorted({*SECTIONS, *SEPARATE}),
                        help="run just this section")
    args = parser.parse_args(argv)
    missing = [str(d) for d in args.sites if not d.is_dir()]
    if missing:
        parser.error(f"not a directory: {', '.join(missing)}")
    sites = find_sites(resource_dir("sites"), *args.sites)
    RESULTS.mkdir(exist_ok=True)
    for name, module in SEPARATE.items():
        if args.only and name in args.only:
            module.run(sites).write(RESULTS / name)
    if args.only and not set(args.only) & set(SECTIONS):
        return
    previous = _previous()
    results: dict[str, Section] = {}
    for name, module in SECTIONS.items():
        if args.only and name not in args.only:
            if name in previous:
                results[name] = previous[name]
            continue
        results[name] = module.run(sites)
        print(f"## {results[name].title}\n\n{results[name].markdown}\n", flush=True)
    text = "\n".join(f"## {s.title}\n\n{s.markdown}\n" for s in results.values())
    (RESULTS / "latest.md").write_text(text)
    (RESULTS / "latest.json").write_text(json.dumps(
        {"machine": platform.platform(), "sections": {name: s.to_json() for name, s in results.items()}}, indent=1))
    if not args.only:
        _print_last(SEPARATE)


def _print_last(sections: dict[str, ModuleType]) -> None:
    """Print the last measured table of each long section (``make bench`` shows the corpus
    figures without spending tens of minutes on them)."""
    for name in sections:
        stored = RESULTS / f"{name}.md"
        if stored.is_file():
            print(f"{stored.read_text().rstrip()}\n\n(last measured; rerun with --only {name})\n", flush=True)


def _previous() -> dict[str, Section]:
    try:
        raw = json.loads((RESULTS / "latest.json").read_text())
        return {name: Section.from_json(s) for name, s in raw.get("sections", {}).items()}
    except (OSError, ValueError, KeyError):
        return {}


if __name__ == "__main__":
    main()
