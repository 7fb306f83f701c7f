"""A Dask worker killed in the middle of a campaign loses nothing: the executions it held run
again elsewhere, and the campaign ends with the verdicts an undisturbed one gives.

The cluster is this process's, so that the test can find its workers and kill one; the campaign
reaches it as any remote cluster (``--cluster tcp://…``), and ships it each session."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from webr4.serve import serve

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "tests" / "sweep" / "pages"
HANG_GUARD_S = 600


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with serve(PAGES) as url:
        yield url


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """A client of a local cluster of two single-threaded worker processes, each under a nanny
    that starts it again when it dies."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        yield client


def source(directory: Path, base: str) -> Path:
    """A campaign of two pages: three responses that write one list, and two that write one field."""
    directory.mkdir()
    listed = directory / "campaign.txt"
    listed.write_text(f"{base}racing-xhr/?requests=3\n{base}named-races/\n")
    return listed


def start(listed: Path, run: Path, address: str) -> subprocess.Popen[str]:
    """The campaign of ``listed`` into ``run`` on the cluster at ``address``: its progress as JSON
    lines on its stdout, its stderr (closing lines, Dask's warnings) into ``run``'s sibling file."""
    with open(run.with_suffix(".stderr"), "w") as stderr:
        return subprocess.Popen([sys.executable, "-m", "webr4", "campaign", str(listed), "--out", str(run),
                                 "--cluster", address, "--bound", "1", "--confirm", "none", "--progress", "json"],
                                stdout=subprocess.PIPE, stderr=stderr, text=True,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})


def verdicts(run: Path) -> dict[str, Counter[tuple[str, str, str]]]:
    """Each entry's reversals as a multiset of (first, second, verdict)."""
    found = {}
    for entry in json.loads((run / "campaign.json").read_text())["entries"]:
        summary = json.loads((run / entry["run"] / "summary.json").read_text())
        found[entry["name"]] = Counter((r["first"], r["second"], r["verdict"]) for r in summary["reversals"])
    return found


def kill_on_the_next_task(flag: Path) -> Any:
    """A worker plugin: the first worker to start a task once ``flag`` exists takes the flag and
    kills its own process (SIGKILL) as the task begins, so the kill always lands in the middle
    of an execution, whatever the machine's speed; its nanny starts a new worker, with no
    browser yet, which finds the flag taken."""
    pytest.importorskip("distributed")
    from distributed import WorkerPlugin

    class KillOnTheNextTask(WorkerPlugin):
        def transition(self, key: Any, start: str, finish: str, **kwargs: Any) -> None:
            if finish != "executing":
                return
            try:
                os.rename(flag, flag.with_suffix(".taken"))
            except OSError:  # no flag yet, or another worker took it
                return
            os.kill(os.getpid(), signal.SIGKILL)

    return KillOnTheNextTask()


def test_a_worker_killed_mid_campaign_loses_no_execution(base, client, tmp_path):
    listed = source(tmp_path / "flows", base)
    address = client.scheduler.address
    calm = start(listed, tmp_path / "calm", address)
    calm.communicate(timeout=HANG_GUARD_S)
    assert calm.returncode == 1, (tmp_path / "calm.stderr").read_text()

    flag = tmp_path / "kill-next"
    client.register_plugin(kill_on_the_next_task(flag), name="kill-on-the-next-task")
    disturbed = start(listed, tmp_path / "disturbed", address)
    guard = threading.Timer(HANG_GUARD_S, disturbed.kill)  # a hang fails the test rather than blocking it
    guard.start()
    try:
        for line in disturbed.stdout or ():  # the next task after the first judged sequence kills its worker
            if json.loads(line)["event"] == "sequence" and not flag.with_suffix(".taken").exists():
                flag.touch()
        disturbed.wait()
    finally:
        guard.cancel()
    assert flag.with_suffix(".taken").exists(), "no execution started after the first judged sequence"
    assert disturbed.returncode == 1, (tmp_path / "disturbed.stderr").read_text()
    expected = verdicts(tmp_path / "calm")
    assert verdicts(tmp_path / "disturbed") == expected
    assert not any(verdict == "error" for counts in expected.values() for (_, _, verdict) in counts)
