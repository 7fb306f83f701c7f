"""Running JavaScript under Node for the rewriter tests (see ``node_runner.js``)."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import asdict, dataclass, field
from pathlib import Path

from webr4.browser.accesslogs import access_log_source

RUNNER = Path(__file__).with_name("node_runner.js")
NODE = shutil.which("node") or "/usr/bin/node"


@dataclass(frozen=True)
class Job:
    """One program: ``kind`` is ``script``, ``module`` or ``handler``; ``log`` loads the access log."""

    code: str
    kind: str = "script"
    log: bool = False
    modules: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    output: list[str]
    log: list[list[str | None]] | None


def run_jobs(jobs: list[Job]) -> list[Outcome]:
    """Run every job in its own fresh context of one Node process."""
    completed = subprocess.run(
        [NODE, "--experimental-vm-modules", "--no-warnings", str(RUNNER)],
        input=json.dumps({"accessLog": access_log_source(), "jobs": [asdict(job) for job in jobs]}),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"node runner failed: {completed.stderr}")
    return [Outcome(item["output"], item["log"]) for item in json.loads(completed.stdout)]
