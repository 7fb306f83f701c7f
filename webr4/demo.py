"""``make demo``: record a bundled site, sweep its reversals, confirm the harmful ones in plain
Chromium, write the HTML report, and print what ``webr4 check`` prints: the sequences, the
verdicts, the confirmations, each confirmed race in a sentence, and the report's path.

    python -m webr4.demo [--site two-xhr] [--out runs/demo] [--bound 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
from pathlib import Path

from webr4.checking import Checked, SweepOptions, check
from webr4.sweep.settings import SweepSettings
from webr4.errors import Webr4Error
from webr4.resources import resource_dir
from webr4.rundir.run import RunDir
from webr4.serve import serve


async def _demo(site: str, out: Path, bound: int) -> Checked:
    sites = resource_dir("sites")
    actions = json.loads((sites / site / "expected.json").read_text())["session"]
    if out.exists():
        shutil.rmtree(out)  # the demo's own directory: a fresh run each time
    with serve(sites) as base:
        checked = await check(f"{base}{site}/", out, actions, options=SweepOptions(SweepSettings(bound=bound)))
    return checked


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default="two-xhr", help="a folder of sites/ (default: two-xhr)")
    parser.add_argument("--out", type=Path, default=Path("runs/demo"))
    parser.add_argument("--bound", type=int, default=1)
    args = parser.parse_args(argv)
    if not (resource_dir("sites") / args.site / "expected.json").is_file():
        print(f"webr4: no bundled site named {args.site!r}; see 'webr4 sites list'", file=sys.stderr)
        return 2
    try:
        checked = asyncio.run(_demo(args.site, args.out, args.bound))
    except Webr4Error as error:
        print(f"webr4: {error}", file=sys.stderr)
        return 2
    for line in checked.summary.closing_lines():
        print(line)
    run = RunDir(args.out)
    for reversal in checked.summary.confirmed():
        story = run.witness(reversal.id).story
        if story.is_file():
            print(f"race: {story.read_text(encoding='utf-8').strip()}")
    print(f"report: {checked.report.resolve()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
