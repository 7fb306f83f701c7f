"""The command line at the edges, with a real Chromium: sweeps interrupted before they began,
resumed with other settings, odd inputs. Each case checks the exit status, the one line on stderr
and what is left on disk."""

from __future__ import annotations

import json
import os
import shlex
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Iterator

import pytest
from click.testing import CliRunner

from tests.route_server import route_server
from webr4.cli import main
from webr4.serve import serve

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "tests" / "sweep" / "pages"

SLOW_PAGE = b"""<!doctype html><title>slow</title><p id="out">waiting</p>
<script>
setTimeout(() => { document.getElementById("out").textContent = "timer"; }, 5);
fetch("/slow").then(r => r.text()).then(t => { document.getElementById("out").textContent = t; });
</script>"""


@pytest.fixture(scope="module")
def racing_url() -> Iterator[str]:
    """Five XHRs whose handlers write one list: a sweep of many sequences, several harmful."""
    with serve(PAGES) as base:
        yield base + "racing-xhr/"


def start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "webr4", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})


def stored_settings(run: Path) -> dict:
    with sqlite3.connect(run / "webr4.sqlite") as db:
        return json.loads(db.execute("SELECT value FROM meta WHERE key = 'settings'").fetchone()[0])


def summary(run: Path) -> dict:
    return json.loads((run / "summary.json").read_text())


def test_an_interrupt_while_recording_keeps_the_sweep_settings_and_prints_them(tmp_path):
    run = tmp_path / "run"
    asked = threading.Event()

    def respond(path: str) -> tuple[str, bytes] | None:
        if path == "/":
            return "text/html", SLOW_PAGE
        if path == "/slow":
            late = not asked.is_set()  # the first recording's: the signal lands while it is awaited
            asked.set()
            time.sleep(10 if late else 0)
            return "text/plain", b"late"
        return None

    with route_server(respond) as base:
        process = start("check", base + "/", "--out", str(run), "--bound", "2", "--max-sequences", "2",
                        "--workers", "1", "--progress", "quiet")
        assert asked.wait(120), process.communicate()[1]
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=120)
        assert process.returncode == 130
        resume = f"webr4 check {base}/ --out {run} --progress quiet --workers 1 --max-sequences 2 --bound 2 --resume"
        assert stderr.splitlines() == [f"interrupted; what was explored is kept in {run}, continue with: {resume}"]
        assert not (run / "session").exists()
        assert (stored_settings(run)["bound"], stored_settings(run)["max_sequences"]) == (2, 2)

        resumed = CliRunner().invoke(main, shlex.split(resume)[1:])
        assert resumed.exit_code in (0, 1), resumed.output
    done = summary(run)
    assert (done["status"], done["bound"], done["sequences_explored"]) == ("finished", 2, 2)


def test_resume_names_every_stored_setting_that_wins(racing_url, tmp_path):
    run = tmp_path / "run"
    first = CliRunner().invoke(main, ["check", racing_url, "--out", str(run), "--workers", "1", "--max-sequences", "2",
                                      "--mask", "#a", "--rules", "heap-only", "--progress", "quiet",
                                      "--confirm", "none"])
    assert first.exit_code in (0, 1), first.output
    again = CliRunner().invoke(main, ["check", racing_url, "--out", str(run), "--resume", "--workers", "1",
                                      "--mask", "#b", "--mask-heap", "window.x", "--rules", "dom-and-render-diff",
                                      "--parse-chunks", "element", "--seed", "3", "--progress", "quiet",
                                      "--confirm", "none"])
    assert again.exit_code in (0, 1), again.output
    assert again.stderr.splitlines() == [
        "note: resuming with the recorded session's settings: seed 0 (not 3), parse-chunks 'yield' (not 'element')",
        "note: resuming with the stored settings: rules ['heap-only'] (not ['dom-and-render-diff']), "
        "mask ['#a'] (not ['#b']), mask-heap [] (not ['window.x'])"]
    assert stored_settings(run)["mask"]["selectors"] == ["#a"] and summary(run)["sequences_explored"] == 2


def test_two_checks_on_one_out_at_once_one_says_the_other_is_using_it(racing_url, tmp_path):
    run = tmp_path / "run"
    command = ("check", racing_url, "--out", str(run), "--workers", "1", "--max-sequences", "3", "--progress", "quiet",
               "--confirm", "none")
    first, second = start(*command), start(*command)
    ended = [(process.wait(timeout=300), process.communicate()[1]) for process in (first, second)]
    assert sorted(status for status, _ in ended) == [1, 2], ended
    assert [stderr for status, stderr in ended if status == 2] == [
        f"Error: another webr4 is using {run}; wait for it to end, or choose another --out\n"]
    assert summary(run)["status"] == "finished" and summary(run)["sequences_explored"] == 3
    assert sorted(path.name for path in run.iterdir()) == ["noise.json", "report", "reversals", "sequences",
                                                           "session", "summary.json", "webr4.sqlite"]


def test_a_run_in_use_is_refused_before_anything_is_judged_of_it(racing_url, tmp_path):
    run = tmp_path / "run"
    first = start("check", racing_url, "--out", str(run), "--workers", "1", "--progress", "json", "--confirm", "none")
    assert first.stdout is not None
    while json.loads(first.stdout.readline())["event"] != "start":  # until the sweep has begun
        pass
    for args in (["check", racing_url, "--out", str(run), "--resume"], ["explore", str(run / "session"),
                                                                        "--out", str(run), "--resume"]):
        result = CliRunner().invoke(main, args)
        assert (result.exit_code, result.stderr) == (
            2, f"Error: another webr4 is using {run}; wait for it to end, or choose another --out\n")
    first.communicate(timeout=300)
    assert first.returncode == 1 and summary(run)["status"] == "finished"
