"""``make demo``: record a bundled site, sweep its reversals, write the HTML page, print its path.

    python -m webr4.demo [--site two-xhr] [--out runs/demo] [--bound 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
from pathlib import Path

from webr4.checking import SweepOptions, check
from webr4.sweep.settings import SweepSettings
from webr4.errors import Webr4Error
from webr4.resources import resource_dir
from webr4.serve import serve


async def _demo(site: str, out: Path, bound: int) -> Path:
    sites = resource_dir("sites")
    actions = json.loads((sites / site / "expected.json").read_text())["session"]
    if out.exists():
        shutil.rmtree(out)  # the demo's own directory: a fresh run each time
    with serve(sites) as base:
        checked = await check(f"{base}{site}/", out, actions, options=SweepOptions(SweepSettings(bound=bound)))
    return checked.report


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
        page = asyncio.run(_demo(args.site, args.out, args.bound))
    except Webr4Error as error:
        print(f"webr4: {error}", file=sys.stderr)
        return 2
    print(f"report: {page.resolve()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
