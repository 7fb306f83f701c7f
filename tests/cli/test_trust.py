"""What the command line promises without a browser: honest run status, exit statuses 0/1/2/130
only, impossible limits refused, other people's directories left alone, one line per failure."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.ci.runs import reversal, write_run
from webr4.cli import main

ROOT = Path(__file__).resolve().parents[2]


def invoke(*args: str, **options) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), **options)
    return result.exit_code, result.output


def webr4(*args: str, **options) -> subprocess.CompletedProcess:
    """The real command in a process of its own (for file descriptors, signals, environment)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **options.pop("env", {})}
    options.setdefault("stdout", subprocess.PIPE)
    return subprocess.run([sys.executable, "-m", "webr4", *args], stderr=subprocess.PIPE, text=True, env=env,
                          timeout=120, check=False, **options)


def error_line(output: str) -> str:
    """The one ``Error:`` line of a failed command (click prints usage lines above usage errors)."""
    assert "Traceback" not in output, output
    lines = [line for line in output.splitlines() if line.startswith("Error: ")]
    assert len(lines) == 1, output
    return lines[0]


# -- 1. status that does not lie ------------------------------------------------------------------

@pytest.mark.parametrize("status, words", [("running", "is still running, or its process was killed"),
                                           ("interrupted", "was interrupted")])
def test_export_refuses_an_unfinished_sweep_unless_asked(tmp_path, status, words):
    run = write_run(tmp_path / "run", [reversal(1, "harmful", ["exception-diff"])], status=status)
    code, output = invoke("export", str(run), "--junit", str(tmp_path / "j.xml"))
    assert code == 2 and words in error_line(output) and "--allow-unfinished" in output
    assert not (tmp_path / "j.xml").exists()
    code, output = invoke("export", str(run), "--junit", str(tmp_path / "j.xml"), "--allow-unfinished")
    assert code == 1 and f"warning: the sweep in {run} {words}" in output
    assert 'name="status" value="' + status in (tmp_path / "j.xml").read_text()


def test_a_finished_sweep_exports_as_before(tmp_path):
    run = write_run(tmp_path / "run", [reversal(1, "harmless", ["commute"])])
    assert invoke("export", str(run)) == (0, "0 harmful of 1 reversals\n")


def test_the_report_header_says_a_run_is_unfinished(tmp_path):
    run = write_run(tmp_path / "run", [reversal(1, "harmless", ["commute"])], status="interrupted")
    code, output = invoke("report", str(run))
    assert code == 0, output
    page = (run / "report" / "index.html").read_text()
    assert "Unfinished run:" in page and "status: interrupted" in page and "stopped:" not in page
    write_run(run, [reversal(1, "harmless", ["commute"])])
    invoke("report", str(run))
    page = (run / "report" / "index.html").read_text()
    assert "Unfinished run:" not in page and "stopped: exhausted" in page


def test_a_truncated_summary_is_one_error_and_no_report(tmp_path):
    run = write_run(tmp_path / "run", [reversal(1, "harmful", ["exception-diff"])])
    text = (run / "summary.json").read_text()
    (run / "summary.json").write_text(text[: len(text) // 2])
    code, output = invoke("report", str(run))
    assert code == 2 and "summary.json is not valid JSON" in error_line(output)
    assert not (run / "report").exists()


# -- 2. exit statuses -------------------------------------------------------------------------------

def test_an_unexpected_error_is_status_2_and_one_line(tmp_path, monkeypatch):
    run = write_run(tmp_path / "run", [])

    def broken(run_dir: Path) -> Path:
        raise RuntimeError("the template engine fell over\nsecond line")

    monkeypatch.setattr("webr4.cli.reporting.write_report", broken)
    code, output = invoke("report", str(run))
    assert code == 2
    assert error_line(output) == ("Error: unexpected RuntimeError: the template engine fell over; "
                                  "run with --debug (or WEBR4_DEBUG=1) for the traceback")
    result = CliRunner().invoke(main, ["--debug", "report", str(run)])
    assert result.exit_code == 2 and "Traceback" in result.stderr and "fell over" in result.stderr


def test_a_closed_standard_output_is_one_line_not_a_traceback():
    read, write = os.pipe()
    os.close(read)  # nobody will read what webr4 writes
    try:
        result = webr4("sites", "list", stdout=write)
    finally:
        os.close(write)
    assert result.returncode == 2
    assert result.stderr == "Error: standard output was closed before webr4 finished writing\n"


def test_an_unusable_tmpdir_is_named(tmp_path):
    result = webr4("run", "http://127.0.0.1:9/", "--out", str(tmp_path / "o"), env={"TMPDIR": str(tmp_path / "gone")})
    assert result.returncode == 2
    assert result.stderr == \
        f"Error: TMPDIR={tmp_path / 'gone'} is not a writable directory; point TMPDIR at one or unset it\n"
    assert not (tmp_path / "o").exists()


def test_a_browser_that_is_not_a_browser_is_one_line(tmp_path):
    result = webr4("--browser", "/bin/true", "run", "http://127.0.0.1:9/", "--out", str(tmp_path / "o"))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith("Error: cannot start /bin/true as Chromium (") and result.stderr.count("\n") == 1
    assert not (tmp_path / "o").exists()


def test_a_port_out_of_range_is_a_usage_error():
    code, output = invoke("sites", "serve", "--port", "70000")
    assert code == 2 and "'--port': 70000 is not in the range 0<=x<=65535" in error_line(output)


# -- 3. impossible limits -------------------------------------------------------------------------

@pytest.mark.parametrize("command, option, value", [
    ("explore", "--bound", "0"), ("explore", "--max-sequences", "0"), ("explore", "--time-limit", "-5"),
    ("check", "--bound", "-1"), ("check", "--horizon", "0"), ("check", "--max-events", "-3"),
    ("run", "--event-timeout", "0"), ("record", "--horizon", "-10"),
])
def test_impossible_limits_on_the_command_line_are_refused(tmp_path, command, option, value):
    target = str(tmp_path) if command == "explore" else "http://127.0.0.1:9/"
    code, output = invoke(command, target, "--out", str(tmp_path / "out"), option, value)
    assert code == 2 and f"Invalid value for '{option}': {value}" in error_line(output)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("section, key, value, words", [
    ("explore", "bound", "0", "bound = 0 is not in the range x>=1"),
    ("explore", "max-sequences", "-2", "max-sequences = -2 is not in the range x>=1"),
    ("explore", "time-limit", "0", "time-limit = 0 is not in the range x>0"),
    ("explore", "workers", "1.5", "workers = 1.5 is not a valid integer range"),
    ("record", "horizon", "-1.0", "horizon = -1.0 is not in the range x>0"),
    ("record", "max-events", "0", "max-events = 0 is not in the range x>=1"),
    ("record", "event-timeout", '"ten"', 'event-timeout = "ten" is not a valid float range'),
])
def test_impossible_limits_in_the_settings_file_are_refused(tmp_path, monkeypatch, section, key, value, words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "webr4.toml").write_text(f"[{section}]\n{key} = {value}\n")
    code, output = invoke("check", "http://127.0.0.1:9/", "--out", str(tmp_path / "out"))
    assert code == 2 and error_line(output) == f"Error: webr4.toml: {words}"
    assert not (tmp_path / "out").exists()


# -- 4. never clobber -------------------------------------------------------------------------------

def test_check_refuses_a_directory_that_is_not_a_run(tmp_path):
    mine = tmp_path / "mine"
    (mine / "report").mkdir(parents=True)
    (mine / "summary.json").write_text("my own numbers")
    (mine / "report" / "index.html").write_text("my own page")
    code, output = invoke("check", "http://127.0.0.1:9/", "--out", str(mine))
    assert code == 2
    assert error_line(output) == \
        f"Error: --out {mine} is not empty and is not a webr4 run; choose a new or empty directory"
    assert (mine / "summary.json").read_text() == "my own numbers"
    assert (mine / "report" / "index.html").read_text() == "my own page"
    assert sorted(p.name for p in mine.rglob("*")) == ["index.html", "report", "summary.json"]


def test_check_without_resume_keeps_a_recorded_session(tmp_path):
    run = tmp_path / "run"
    (run / "session").mkdir(parents=True)
    (run / "session" / "session.json").write_text("{}")
    code, output = invoke("check", "http://127.0.0.1:9/", "--out", str(run))
    assert code == 2 and "already holds a recorded session; add --resume" in error_line(output)
    assert (run / "session" / "session.json").read_text() == "{}"


# -- 6. the sandbox ---------------------------------------------------------------------------------

def test_the_sandbox_is_off_only_when_asked_or_impossible(monkeypatch):
    from webr4.browser.launch import sandbox_off_reason, sandbox_state

    monkeypatch.setenv("WEBR4_NO_SANDBOX", "1")
    assert sandbox_state() == "off (asked (--no-sandbox or WEBR4_NO_SANDBOX))"
    monkeypatch.delenv("WEBR4_NO_SANDBOX")
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    assert sandbox_off_reason() == "running as root"
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr("webr4.browser.launch._USERNS_SWITCHES", ())
    assert sandbox_state() == "on"


def test_no_sandbox_reaches_the_worker_processes_through_the_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("WEBR4_NO_SANDBOX", raising=False)
    run = write_run(tmp_path / "run", [])
    assert invoke("--no-sandbox", "report", str(run))[0] == 0
    assert os.environ.pop("WEBR4_NO_SANDBOX") == "1"
