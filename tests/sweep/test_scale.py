"""Sweeps at scale: worker-count independence, kill -9 and --resume, crashes, the Dask path."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import cast

import pytest
from click.testing import CliRunner

from webr4.browser.driver import Driver
from webr4.cli import main
from webr4.serve import serve
from webr4.sweep.backends import DaskCluster, InProcess, WorkerProcesses
from webr4.sweep.explore import explore
from webr4.rundir.runfiles import RunFiles
from webr4.record.session import Session, record
from webr4.rundir.store import RunStore

PAGES = Path(__file__).resolve().parent / "pages"
pytestmark = pytest.mark.browser


def _comparable(run: Path) -> dict:
    """summary.json without what legitimately varies between runs (timings, where it ran); the
    session, stored relative to the run, as the directory it names."""
    summary = json.loads((run / "summary.json").read_text())
    summary.pop("seconds")
    summary["session"] = str((run / summary["session"]).resolve())
    return summary


@pytest.fixture(scope="module")
def racing(driver, tmp_path_factory) -> tuple[Session, Path]:
    """A recorded session of four racing requests and its one-worker, in-process sweep (in the
    test session's shared browser)."""
    directory = tmp_path_factory.mktemp("racing")
    with serve(PAGES) as base:

        async def record_and_explore(shared: Driver) -> Session:
            session = await record(shared, base + "racing-xhr/?requests=4", directory / "session", [])
            await explore(shared, session, directory / "reference")
            return session

        session = driver.run(record_and_explore)
    assert len(json.loads((directory / "reference" / "summary.json").read_text())["reversals"]) >= 4
    return session, directory / "reference"


def test_two_worker_processes_explore_exactly_what_one_does(racing, tmp_path):
    session, reference = racing

    async def sweep() -> None:
        backend = WorkerProcesses(session, 2)
        try:
            await explore(backend, session, tmp_path / "run")
        finally:
            await backend.close()

    asyncio.run(sweep())
    assert _comparable(tmp_path / "run") == _comparable(reference)


def test_a_killed_sweep_resumes_without_running_finished_work_again(racing, tmp_path):
    session, reference = racing
    run = tmp_path / "run"
    command = [sys.executable, "-m", "webr4", "explore", str(session.directory), "--out", str(run),
               "--workers", "1", "--progress", "json"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    judged = 0
    for line in process.stdout:
        judged += json.loads(line)["event"] == "sequence"
        if judged == 2:
            break
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    process.stdout.close()
    store = RunStore.open(run)
    finished_before = store.finished_keys()
    store.close()
    assert not (run / "report").exists()  # it really died mid-sweep

    result = CliRunner().invoke(main, ["explore", str(session.directory), "--out", str(run), "--workers", "1",
                                       "--resume", "--progress", "quiet", "--confirm", "none"])
    assert result.exit_code == 1, result.output  # the page's races are harmful: exit status 1
    assert _comparable(run) == _comparable(reference)
    store = RunStore.open(run)
    attempts = store.attempts()
    store.close()
    assert all(attempts[key] == 1 for key in finished_before)
    assert len(finished_before) >= 4  # both seed replays and two judged children were kept


def test_resume_refuses_a_run_directory_without_a_sweep(racing, tmp_path):
    session, _ = racing
    result = CliRunner().invoke(main, ["explore", str(session.directory), "--out", str(tmp_path / "none"),
                                       "--resume", "--workers", "1"])
    assert result.exit_code == 2 and "no sweep to resume" in result.output and result.output.count("\n") == 1


class CrashingDriver:
    """A driver whose renderer crashes (CDP ``Page.crash``) in every run of the first child plan."""

    def __init__(self, driver: Driver, seed_plan: tuple[str, ...]) -> None:
        self._driver, self._seed_plan = driver, seed_plan
        self.victim: tuple[str, ...] | None = None
        self.crashes = 0

    @property
    def connected(self) -> bool:
        return self._driver.connected

    async def gone(self, grace_s: float = 2.0) -> bool:
        return await self._driver.gone(grace_s)

    async def execute(self, url: str, plan, **options):
        plan = tuple(plan)
        if self.victim is None and plan != self._seed_plan:
            self.victim = plan
        crash = asyncio.ensure_future(self._crash_renderer()) if plan == self.victim else None
        try:
            return await self._driver.execute(url, plan, **options)
        finally:
            if crash is not None:
                crash.cancel()

    async def _crash_renderer(self) -> None:
        while True:
            for context in self._driver.browser.contexts:
                for page in context.pages:
                    if not page.url.startswith("http"):
                        continue  # before the navigation commits, a new renderer would take over
                    session = await context.new_cdp_session(page)
                    self.crashes += 1
                    await session.send("Page.crash")
                    return
            await asyncio.sleep(0.02)


def test_a_renderer_crash_is_an_error_verdict_and_the_sweep_goes_on(racing, tmp_path):
    session, reference = racing

    async def sweep():
        async with Driver() as driver:
            crashing = CrashingDriver(driver, tuple(session.seed_trace().sequence))
            summary = await explore(InProcess(cast(Driver, crashing), session), session, tmp_path / "run")
            return crashing, summary

    crashing, summary = asyncio.run(sweep())
    assert crashing.crashes == 2  # the first attempt and its one retry
    verdicts = [r.verdict for r in summary.reversals]
    assert verdicts[0] == "error" and "error" not in verdicts[1:]
    assert len(summary.reversals) == len(json.loads((reference / "summary.json").read_text())["reversals"])


def test_a_page_that_keeps_navigating_away_does_not_stop_the_sweep(driver, tmp_path):
    async def sweep(shared: Driver):
        with serve(PAGES) as base:
            session = await record(shared, base + "location-loop/", tmp_path / "session", [])
        return await explore(shared, session, tmp_path / "run")

    summary = driver.run(sweep)
    assert summary.stop_reason == "exhausted" and summary.reversals
    with RunFiles(tmp_path / "run") as files:
        traces = [files.trace(index) for index in range(summary.sequences)]
    assert any(trace is not None and trace.navigation for trace in traces)


def test_a_local_dask_cluster_explores_what_one_worker_does(racing, tmp_path):
    pytest.importorskip("distributed")
    session, reference = racing

    async def sweep() -> None:
        backend = await DaskCluster.connect("local:2", session)
        try:
            assert backend.workers == 2
            await explore(backend, session, tmp_path / "run")
        finally:
            await backend.close()

    asyncio.run(sweep())
    assert _comparable(tmp_path / "run") == _comparable(reference)
