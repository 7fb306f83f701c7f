"""Installing the npm packages a benchmark measures, into a cache directory of its own."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path


def npm_install(prefix: Path, packages: Sequence[str], *, who: str, otherwise: str, timeout: float = 900,
                save: bool = True) -> bool:
    """``npm install`` ``packages`` under ``prefix``; True when they are there. When npm is missing,
    times out or fails, one line on stderr says so, starting with ``who`` and ending with what the
    benchmark does ``otherwise``, and the result is False."""
    npm = shutil.which("npm")
    if npm is None:
        print(f"{who}: npm is not installed; {otherwise}", file=sys.stderr)
        return False
    prefix.mkdir(parents=True, exist_ok=True)
    command = [npm, "install", "--no-audit", "--no-fund", *([] if save else ["--no-save"]), "--prefix", str(prefix),
               *packages]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        print(f"{who}: npm install timed out; {otherwise}", file=sys.stderr)
        return False
    if done.returncode != 0:
        print(f"{who}: npm install failed ({done.stderr.strip()[-200:]}); {otherwise}", file=sys.stderr)
        return False
    return True
