"""SIGINT (Ctrl-C: the whole process group) and SIGTERM (the process alone, or the whole group as
GNU ``timeout`` and container stops send it) at every moment of a check, confirmation in plain
Chromium included, with one and two workers and a real Chromium: exit status 130 and one line on
stderr, with the command that continues when there is something to continue; what the run
directory holds."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Iterator

import pytest

from tests.route_server import route_server
from webr4.serve import serve

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not Path("/proc/self/maps").is_file(), reason="reads /proc to find the moment")]

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "tests" / "sweep" / "pages"
SLOW_PAGE = b"""<!doctype html><title>slow</title><p id="out">waiting</p>
<script>fetch("/slow").then(r => r.text()).then(t => { document.getElementById("out").textContent = t; });</script>"""
MOMENTS = ["start-up", "recording", "seed", "sweep", "confirming", "after-the-summary"]


@pytest.fixture(scope="module")
def sites() -> Iterator[tuple[str, str, threading.Event]]:
    """The racing page, and a page whose one request takes ten seconds (set when it is asked for):
    far longer than a busy machine takes to deliver a signal sent then."""
    asked = threading.Event()

    def respond(path: str) -> tuple[str, bytes] | None:
        if path == "/":
            return "text/html", SLOW_PAGE
        if path == "/slow":
            asked.set()
            time.sleep(10)
            return "text/plain", b"late"
        return None

    with serve(PAGES) as racing, route_server(respond) as slow:
        yield racing + "racing-xhr/", slow + "/", asked


def _wait_for(moment: str, process: subprocess.Popen, run: Path, asked: threading.Event) -> None:
    assert process.stdout is not None and process.stderr is not None
    if moment == "start-up":  # the interpreter is up and the command line is being imported (sqlite3 comes early)
        while "_sqlite3" not in Path(f"/proc/{process.pid}/maps").read_text():
            time.sleep(0.005)
    elif moment == "recording":
        assert asked.wait(120)
    elif moment == "seed":  # the session is recorded and the sweep's store made: the seed replays run
        while not (run / "session" / "session.json").is_file():
            time.sleep(0.01)
    elif moment == "sweep":
        while json.loads(process.stdout.readline())["event"] != "sequence":
            pass
    elif moment == "confirming":  # a plain-Chromium witness runs (beside the sweep, or after it)
        while (line := json.loads(process.stdout.readline() or '{"event": "finish"}'))["event"] != "finish" and not (
                line["event"] == "confirmation" or line.get("phase") == "confirming in plain Chromium"):
            pass
    else:  # the closing lines are written and standard output closed: the process is on its way out
        process.stdout.read()
        while not process.stderr.readline().startswith("report: "):
            pass


def _signal(process: subprocess.Popen, signum: int, group: bool) -> None:
    if group:
        os.killpg(process.pid, signum)  # as Ctrl-C in a terminal, or timeout: the whole process group
    else:
        process.send_signal(signum)


CTRL_C, TERM, TIMEOUT = (signal.SIGINT, "1", True), (signal.SIGTERM, "2", False), (signal.SIGTERM, "2", True)
"""Ctrl-C with one worker, SIGTERM with two (to the process, and to the group as ``timeout`` sends it):
the ways a check is stopped, and both sweeps."""

# Start-up meets the first two; the later moments take them in turn, so each is met by each signal
# at some moment without a dozen full checks. Confirmation is off but where it is the moment: a
# sweep this small would end before the signal and leave it to the plain runs.
CASES = [("start-up", *CTRL_C), ("start-up", *TERM), ("recording", *TERM), ("seed", *CTRL_C), ("sweep", *TERM),
         ("sweep", *TIMEOUT), ("confirming", signal.SIGINT, "2", True), ("after-the-summary", *CTRL_C)]


@pytest.mark.parametrize(("moment", "signum", "workers", "group"), CASES,
                         ids=[f"{m}-{s.name}{'-group' if g else ''}-{w}-worker{'s' if w != '1' else ''}"
                              for m, s, w, g in CASES])
def test_a_signal_at_any_moment_is_status_130_and_one_line(sites, tmp_path, moment, signum, workers, group):
    racing, slow, asked = sites
    asked.clear()
    run = tmp_path / "run"
    url = slow if moment == "recording" else racing
    confirm = [] if moment == "confirming" else ["--confirm", "none"]  # confirming: the default, harmful ones
    process = subprocess.Popen([sys.executable, "-m", "webr4", "check", url, "--out", str(run), "--workers", workers,
                                "--max-sequences", "8", "--progress", "json", *confirm],
                               stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    _wait_for(moment, process, run, asked)
    _signal(process, signum, group)
    stderr = process.communicate(timeout=300)[1].splitlines()
    resume = (f"interrupted; what was explored is kept in {run}, continue with: webr4 check {url} --out {run} "
              f"{' '.join([*confirm, ''])}--progress json --workers {workers} --max-sequences 8 --resume")
    if moment == "start-up":
        assert (process.returncode, stderr) == (130, ["interrupted"])
        assert not run.exists()
    elif moment == "after-the-summary":  # the signal may come after the process ended: then it changed nothing
        assert (process.returncode, stderr) in ((1, []), (130, ["interrupted"]))
        assert json.loads((run / "summary.json").read_text())["status"] == "finished"
    elif moment == "confirming":  # the last witness may have ended as the signal came: then the run is over
        assert (process.returncode, stderr) in ((130, [resume]), (130, ["interrupted"]), (1, [])), stderr
    else:
        assert (process.returncode, stderr) == (130, [resume])
        assert (run / "webr4.sqlite").is_file()
        if moment == "recording":
            assert not (run / "session").exists()
        if moment == "sweep":
            # Under load the last reversals may be judged before the signal lands: the sweep is then
            # complete and only what follows it was cut (resume does that part).
            assert json.loads((run / "summary.json").read_text())["status"] in ("interrupted", "finished")
