"""Sweeps stopped from outside, and failures in the middle of one, with a real Chromium: the exit
status, the one line on stderr, what the run directory says afterwards, and what is left running."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator

import pytest
from click.testing import CliRunner

from webr4.cli import main
from webr4.serve import serve

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "tests" / "sweep" / "pages"


@pytest.fixture(scope="module")
def racing_url() -> Iterator[str]:
    """Five XHRs whose handlers write one list: a sweep of many sequences, several harmful."""
    with serve(PAGES) as base:
        yield base + "racing-xhr/"


def start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "webr4", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})


def wait_for_sequences(process: subprocess.Popen, count: int) -> list[str]:
    """Read ``--progress json`` lines until ``count`` sequences were judged; the phases said before."""
    assert process.stdout is not None
    judged, phases = 0, []
    for line in process.stdout:
        record = json.loads(line)
        judged += record["event"] == "sequence"
        phases += [record["phase"]] if record["event"] == "phase" else []
        if judged == count:
            return phases
    raise AssertionError(f"the sweep ended before {count} sequences: {process.stderr.read() if process.stderr else ''}")


def summary(run: Path) -> dict:
    return json.loads((run / "summary.json").read_text())


def export(run: Path) -> int:
    return CliRunner().invoke(main, ["export", str(run)]).exit_code


def test_ctrl_c_stops_with_130_says_how_to_resume_and_resume_finishes(racing_url, tmp_path):
    run = tmp_path / "run"
    process = start("check", racing_url, "--out", str(run), "--workers", "1", "--progress", "json")
    assert wait_for_sequences(process, 2) == ["recording", "replaying the seed"]
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130
    assert stderr.splitlines()[-1] == (f"interrupted; what was explored is kept in {run}, continue with: "
                                       f"webr4 check {racing_url} --out {run} --progress json --workers 1 --resume")
    assert "Traceback" not in stderr
    stopped = summary(run)
    assert stopped["status"] == "interrupted" and stopped["stop_reason"] is None and stopped["truncated"] is None
    assert stopped["sandbox"] == ("off (running as root)" if os.geteuid() == 0 else "on")
    assert export(run) == 2

    resumed = CliRunner().invoke(main, ["check", racing_url, "--out", str(run), "--resume", "--workers", "1",
                                        "--progress", "quiet", "--confirm", "none"])
    assert resumed.exit_code == 1, resumed.output  # the page's races are harmful
    done = summary(run)
    assert done["status"] == "finished" and done["stop_reason"] == "exhausted"
    assert done["sequences_explored"] > stopped["sequences_explored"]
    assert export(run) == 1


def _descendants(root: int) -> dict[int, str]:
    """Every live process below ``root``: pid → command line."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found: dict[int, str] = {}
    stack = [root]
    while stack:
        for child in children.get(stack.pop(), []):
            found[child] = _cmdline(child)
            stack.append(child)
    return found


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its exit status waits to be collected


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process tree from /proc")
def test_workers_and_their_browsers_die_with_a_killed_sweep(racing_url, tmp_path):
    run = tmp_path / "run"
    process = start("check", racing_url, "--out", str(run), "--workers", "2", "--progress", "json")
    wait_for_sequences(process, 1)
    tree = _descendants(process.pid)
    assert sum("chromium" in line or "chrome" in line for line in tree.values()) >= 2, tree  # two browsers run
    process.kill()
    process.wait()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(_alive(pid) for pid in tree):
        time.sleep(0.2)
    assert [tree[pid] for pid in tree if _alive(pid)] == []
    assert summary(run)["status"] == "running"  # a kill -9 leaves no chance to say more: not "finished"
    assert export(run) == 2


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process tree from /proc")
def test_sigterm_is_an_interrupt_and_takes_the_workers_along(racing_url, tmp_path):
    run = tmp_path / "run"
    process = start("check", racing_url, "--out", str(run), "--workers", "2", "--progress", "json")
    wait_for_sequences(process, 1)
    tree = _descendants(process.pid)
    process.terminate()
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130 and "Traceback" not in stderr
    assert stderr.splitlines()[-1].startswith(f"interrupted; what was explored is kept in {run}, continue with: ")
    assert summary(run)["status"] == "interrupted"
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(_alive(pid) for pid in tree):
        time.sleep(0.2)
    assert [tree[pid] for pid in tree if _alive(pid)] == []


def test_check_resume_finishes_from_the_session_a_stopped_check_left(racing_url, tmp_path):
    run = tmp_path / "run"
    assert CliRunner().invoke(main, ["record", racing_url, "--out", str(run / "session")]).exit_code == 0
    result = CliRunner().invoke(main, ["check", racing_url + "?other", "--out", str(run), "--resume",
                                       "--workers", "1", "--progress", "quiet", "--confirm", "none"])
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines()[0] == (f"note: resuming the session recorded from {racing_url}; "
                                             f"the URL given ({racing_url}?other) is ignored")
    assert summary(run)["status"] == "finished"


def test_resume_says_which_stored_settings_win(racing_url, tmp_path):
    run = tmp_path / "run"
    first = CliRunner().invoke(main, ["check", racing_url, "--out", str(run), "--workers", "1", "--max-sequences",
                                      "2", "--progress", "quiet", "--confirm", "none"])
    assert first.exit_code in (0, 1), first.output
    again = CliRunner().invoke(main, ["explore", str(run / "session"), "--out", str(run), "--resume", "--workers", "1",
                                      "--bound", "2", "--max-sequences", "3", "--progress", "quiet",
                                      "--confirm", "none"])
    assert again.exit_code in (0, 1), again.output
    assert again.stderr.splitlines()[0] == ("note: resuming with the stored settings: bound 1 (not 2), "
                                            "max-sequences 2 (not 3)")
    assert summary(run)["sequences_explored"] == 2


def test_a_script_that_exits_is_status_2_not_its_own(racing_url, tmp_path):
    script = tmp_path / "flow.py"
    script.write_text("import sys\n\ndef run(page):\n    page.click('h1')\n    sys.exit(3)\n")
    result = CliRunner().invoke(main, ["check", racing_url, "--script", str(script), "--out", str(tmp_path / "run")])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert result.output.splitlines()[-1] == \
        f"Error: script {script} called sys.exit(3) in run(page) (line 5, in run); let run return instead"
    assert not (tmp_path / "run").exists()


def test_a_selector_with_a_syntax_error_is_named_as_such(racing_url, tmp_path):
    actions = tmp_path / "actions.json"
    actions.write_text(json.dumps([{"click": "#log["}]))
    result = CliRunner().invoke(main, ["record", racing_url, "--actions", str(actions), "--out", str(tmp_path / "s")])
    assert result.exit_code == 2
    assert result.output.startswith("Error: step 1 (click): '#log[' is not a valid selector (")
    assert result.output.count("\n") == 1 and "never" not in result.output
    assert not (tmp_path / "s").exists()


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 600 KB file system (tmpfs, which needs root and mount rights): room for a few sequences."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=600k", "tmpfs", str(mount)],
                      capture_output=True, check=False).returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (needs root)")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_disk_is_one_line_and_the_run_is_not_finished(racing_url, tmp_path, small_disk):
    session = tmp_path / "session"
    assert CliRunner().invoke(main, ["record", racing_url, "--out", str(session)]).exit_code == 0
    run = small_disk / "run"
    result = CliRunner().invoke(main, ["explore", str(session), "--out", str(run), "--workers", "1",
                                       "--progress", "quiet"])
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert ("database or disk is full" in result.output or "No space left on device" in result.output), result.output
    if (run / "summary.json").is_file():
        assert summary(run)["status"] != "finished"


def test_a_local_dask_cluster_leaves_nothing_in_the_temporary_directory(racing_url, tmp_path):
    pytest.importorskip("distributed")
    temporary = Path(tempfile.mkdtemp(prefix="w4-"))  # short: Chromium keeps a socket in its profile there
    run = tmp_path / "run"
    result = subprocess.run([sys.executable, "-m", "webr4", "check", racing_url, "--out", str(run), "--cluster",
                             "local:2", "--max-sequences", "3", "--progress", "quiet", "--confirm", "none"],
                            capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(temporary)}, timeout=300)
    assert result.returncode in (0, 1), result.stderr
    assert summary(run)["status"] == "finished"
    left = sorted(p.name for p in temporary.iterdir())
    shutil.rmtree(temporary)
    assert left == []


def test_a_response_above_the_size_limit_is_refused_when_recording(tmp_path):
    from webr4.browser.network import MAX_BODY_BYTES

    site = tmp_path / "site"
    site.mkdir()
    (site / "big.txt").write_bytes(b"a" * (MAX_BODY_BYTES + 1))
    (site / "index.html").write_text('<!doctype html><p id=o>wait</p><script>var r = new XMLHttpRequest();'
                                     'r.open("GET", "big.txt"); r.onload = function () {'
                                     'document.getElementById("o").textContent = r.responseText.length; };'
                                     'r.send();</script>')
    with serve(site) as base:
        result = CliRunner().invoke(main, ["record", base, "--out", str(tmp_path / "s")])
    assert result.exit_code == 2
    assert result.output == (f"Error: GET {base}big.txt failed: its response has 10.0 MB, more than the 10 MB "
                             "webr4 records per response; check the request\n")
    assert not (tmp_path / "s").exists()
