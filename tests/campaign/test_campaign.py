"""Campaigns run with a real Chromium on two tiny pages: one with a harmful race, one with none.
The overview, each entry's own run, the exit status, an interrupt and ``--resume``, a cluster."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Iterator

import pytest
from click.testing import CliRunner

from webr4.cli import main
from webr4.serve import serve

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "tests" / "sweep" / "pages"
SMALL = ("--max-sequences", "3", "--bound", "1", "--workers", "1")


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with serve(PAGES) as url:
        yield url


def flows(directory: Path, base: str) -> Path:
    """A campaign directory of two actions files: ``racy`` (two responses write one list) and
    ``calm`` (one response alone)."""
    directory.mkdir()
    for name, requests in (("racy", 2), ("calm", 1)):
        (directory / f"{name}.json").write_text(json.dumps({"url": f"{base}racing-xhr/?requests={requests}"}))
    return directory


def campaign(run: Path) -> dict:
    return json.loads((run / "campaign.json").read_text())


def start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "webr4", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_a_campaign_of_a_racy_and_a_calm_page(base, tmp_path):
    run, junit = tmp_path / "run", tmp_path / "junit.xml"
    result = CliRunner().invoke(main, ["campaign", str(flows(tmp_path / "flows", base)), "--out", str(run), *SMALL,
                                       "--progress", "quiet", "--junit", str(junit)])  # confirms the harmful one
    assert result.exit_code == 1, result.output
    assert result.output.splitlines()[:3] == [
        "calm: 0 harmful (1 sequences: no reversals; exhausted)",
        "racy: 1 harmful (2 sequences: 1 harmful; exhausted); in plain Chromium: 1 confirmed",
        "campaign: 1 of 2 entries with a harmful race"]
    entries = {entry["name"]: entry for entry in campaign(run)["entries"]}
    assert {name: (e["status"], e["counts"], e["confirmations"]) for name, e in entries.items()} == {
        "calm": ("finished", {}, {}), "racy": ("finished", {"harmful": 1}, {"confirmed": 1})}
    for name, entry in entries.items():  # each entry's run is a run of its own, with its own report
        assert entry["report"] == f"sessions/{name}/report/index.html" and (run / entry["report"]).is_file()
        assert json.loads((run / entry["run"] / "summary.json").read_text())["status"] == "finished"
    overview = (run / "report" / "index.html").read_text()
    assert 'href="../sessions/racy/report/index.html"' in overview and "1 confirmed" in overview
    assert [suite.get("name") for suite in ET.parse(junit).getroot()] == ["calm", "racy"]
    again = CliRunner().invoke(main, ["replay", str(run / "sessions" / "racy"), "1"])
    assert again.exit_code == 0, again.output  # the entry's run replays as a check's does


def test_an_interrupted_campaign_resumes_only_what_it_had_not_finished(base, tmp_path):
    source = tmp_path / "campaign.txt"
    source.write_text(f"{base}racing-xhr/?requests=2\n{base}racing-xhr/?requests=1  # the calm one\n")
    run = tmp_path / "run"
    process = start("campaign", str(source), "--out", str(run), *SMALL, "--confirm", "none", "--progress", "json")
    assert process.stdout is not None
    for line in process.stdout:  # the first entry ran to its end: stop as the second begins
        if json.loads(line)["entry"] == "racing-xhr-2":
            process.send_signal(signal.SIGINT)
            break
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert stderr.splitlines()[-1] == (
        f"interrupted; what was explored is kept in {run}, continue with: webr4 campaign {source} --out {run} "
        "--confirm none --progress json --workers 1 --max-sequences 3 --bound 1 --resume")
    assert [e["status"] for e in campaign(run)["entries"]] == ["finished", "interrupted"]
    first = run / "sessions" / "racing-xhr" / "webr4.sqlite"
    kept = hashlib.sha256(first.read_bytes()).hexdigest()

    resumed = start("campaign", str(source), "--out", str(run), *SMALL, "--confirm", "none", "--progress", "json",
                    "--resume")
    stdout, stderr = resumed.communicate(timeout=120)
    assert resumed.returncode == 1, stderr
    assert {json.loads(line)["entry"] for line in stdout.splitlines()} == {"racing-xhr-2"}
    assert hashlib.sha256(first.read_bytes()).hexdigest() == kept  # nothing of the finished entry ran again
    assert [e["status"] for e in campaign(run)["entries"]] == ["finished", "finished"]


def test_on_a_cluster_entries_run_side_by_side(base, tmp_path):
    pytest.importorskip("distributed")
    run = tmp_path / "run"
    process = start("campaign", str(flows(tmp_path / "flows", base)), "--out", str(run), "--cluster", "local:2",
                    "--max-sequences", "3", "--confirm", "none", "--progress", "json")
    stdout, stderr = process.communicate(timeout=180)
    assert process.returncode == 1, stderr
    events = [(record["entry"], record["event"]) for record in map(json.loads, stdout.splitlines())]
    # the second entry began before the first had finished: both ran on the one cluster at once
    assert events.index(("racy", "phase")) < events.index(("calm", "finish"))
    assert [e["status"] for e in campaign(run)["entries"]] == ["finished", "finished"]
