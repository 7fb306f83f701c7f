"""Run every benchmark, print the tables and write ``benchmarks/results/latest.{md,json}``."""

from __future__ import annotations

import asyncio
import json
import platform
from dataclasses import asdict
from pathlib import Path

from benchmarks import controlled_execution, rewrite_speed, sweep_cost
from webr4.resources import resource_dir

RESULTS = Path(__file__).resolve().parent / "results"


def main() -> None:
    sites = sorted(p for p in resource_dir("sites").iterdir() if (p / "expected.json").is_file())
    costs = asyncio.run(controlled_execution.measure(sites))
    sweeps = asyncio.run(sweep_cost.measure(sites))
    rewrites = rewrite_speed.measure()
    text = ("## Controlled execution vs plain Playwright load\n\n" + controlled_execution.table(costs) + "\n\n"
            "## Full k = 1 sweep per site\n\n" + sweep_cost.table(sweeps) + "\n\n"
            "## Access-logging rewriter\n\n" + rewrite_speed.table(rewrites) + "\n")
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "latest.md").write_text(text)
    (RESULTS / "latest.json").write_text(json.dumps({
        "machine": platform.platform(),
        "controlled_execution": [asdict(c) | {"ratio": c.ratio} for c in costs],
        "sweeps": [asdict(c) | {"per_sequence_s": c.per_sequence_s, "ratio": c.ratio} for c in sweeps],
        "rewrite_speed": [{"input": n, "bytes": b, "seconds": t} for n, b, t in rewrites],
    }, indent=1))


if __name__ == "__main__":
    main()
