"""A browser that dies under a sweep, with a real Chromium: an execution lost to it is run again on
a new browser, so the sweep ends as an undisturbed one does; it never becomes an ``error`` verdict."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest
from click.testing import CliRunner

from webr4.cli import main
from webr4.rundir.run import RunDir
from webr4.serve import serve

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "tests" / "sweep" / "pages"


@pytest.fixture(scope="module")
def racing_url() -> Iterator[str]:
    with serve(PAGES) as base:
        yield base + "racing-xhr/"


@pytest.fixture(scope="module")
def undisturbed(racing_url, tmp_path_factory) -> dict:
    """The verdicts of a sweep nothing disturbed."""
    run = tmp_path_factory.mktemp("undisturbed") / "run"
    result = CliRunner().invoke(main, ["check", racing_url, "--out", str(run), "--workers", "1", "--progress", "quiet",
                                       "--confirm", "none"])
    assert result.exit_code == 1, result.output
    return _verdicts(run)


def _verdicts(run: Path) -> dict:
    summary = json.loads((run / "summary.json").read_text())
    return {"status": summary["status"], "stop_reason": summary["stop_reason"],
            "verdicts": [(r["first"], r["second"], r["verdict"]) for r in summary["reversals"]]}


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # as a background job of a shell script has it


def _browsers(root: int) -> list[int]:
    """The Chromium processes below ``root`` that have no Chromium parent (one per browser)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue

    def below(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == root:
                return True
        return False

    def chromium(pid: int) -> bool:
        try:
            return b"chrom" in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0]
        except OSError:
            return False

    return [pid for pid in parents if below(pid) and chromium(pid) and not chromium(parents.get(pid, 0))]


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process tree from /proc")
# Each death once, one in the sweep's own process and one in worker processes (each case is a
# full check: all four pairs cost the suite 20 s more and found nothing the two do not).
@pytest.mark.parametrize(("death", "workers"), [("sigint-to-the-group", "1"), ("browser-killed", "2")],
                         ids=["sigint-to-the-group-1", "browser-killed-2"])
def test_a_browser_that_dies_under_the_sweep_changes_no_verdict(racing_url, undisturbed, tmp_path, death, workers):
    run = tmp_path / "run"
    process = subprocess.Popen([sys.executable, "-m", "webr4", "check", racing_url, "--out", str(run),
                                "--workers", workers, "--progress", "json", "--confirm", "none"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                               preexec_fn=_ignore_sigint, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert process.stdout is not None
    for line in process.stdout:
        if json.loads(line)["event"] == "sequence":
            break
    if death == "sigint-to-the-group":
        os.killpg(process.pid, signal.SIGINT)  # webr4 ignores it; Playwright's drivers and browsers do not
    else:
        browsers = _browsers(process.pid)
        assert len(browsers) == int(workers)
        for pid in browsers:  # as the out-of-memory killer would
            os.kill(pid, signal.SIGKILL)
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 1 and "harmful" in stderr.splitlines()[0], stderr
    closing = RunDir(run).read_summary().closing_lines()
    assert stderr.splitlines()[:-1] == closing  # the closing lines of --progress json, the report's, nothing else
    assert _verdicts(run) == undisturbed


def test_a_browser_lost_again_on_a_new_one_stops_the_sweep_as_interrupted(racing_url, tmp_path, monkeypatch):
    from webr4.browser.driver import Driver

    execute = Driver.execute

    async def dying(self, url, plan=(), **options):  # every replay's browser dies under it; the recording's lives
        if not options.get("live_network", True):
            await self.browser.close()
        return await execute(self, url, plan, **options)

    monkeypatch.setattr(Driver, "execute", dying)
    run = tmp_path / "run"
    result = CliRunner().invoke(main, ["check", racing_url, "--out", str(run), "--workers", "1"])
    assert result.exit_code == 130
    assert result.stderr == ("interrupted: the browser died during an execution, and again on a new browser; what "
                             f"was explored is kept in {run}, continue with: webr4 check {racing_url} --out {run} "
                             "--workers 1 --resume\n")
    assert (run / "session" / "session.json").is_file() and (run / "webr4.sqlite").is_file()
    assert not (run / "summary.json").exists()  # lost in the seed replays: no verdict was written
