"""Bad input and odd surroundings at the command line: exit status 2 (0 where nothing failed), one
line on stderr naming what to change, and nothing written that should not be."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest
from click.testing import CliRunner

from webr4.cli import main
from webr4.serve import serve

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "tests" / "sweep" / "pages"
URL = "http://127.0.0.1:9/"  # never reached: each case below fails before any page loads


def webr4(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "webr4", *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)


def test_a_usage_error_is_one_line_without_the_usage_header(tmp_path):
    actions = tmp_path / "actions.json"
    actions.write_text("[")
    result = CliRunner().invoke(main, ["record", URL, "--actions", str(actions), "--out", str(tmp_path / "s")])
    assert result.exit_code == 2
    assert result.stderr == (f"Error: actions file {actions} is not valid JSON "
                             "(Expecting value: line 1 column 2 (char 1))\n")
    assert not (tmp_path / "s").exists()


def test_a_20_kb_action_is_named_in_a_line_a_person_reads(tmp_path):
    actions = tmp_path / "actions.json"
    actions.write_text(json.dumps([{"clack": "x" * 20_000}]))
    result = CliRunner().invoke(main, ["record", URL, "--actions", str(actions), "--out", str(tmp_path / "s")])
    assert result.exit_code == 2
    line, = result.stderr.splitlines()
    assert len(line) < len(str(actions)) + 300 and "{\"clack\": \"xxx" in line and "(20,013 characters)" in line


def test_the_example_tests_go_only_into_a_new_or_empty_directory(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_mine.py").write_text("def test_mine():\n    pass\n")
    refused = CliRunner().invoke(main, ["sites", "example", str(tmp_path / "tests")])
    assert (refused.exit_code, refused.stderr) == (2, f"Error: {tmp_path / 'tests'} is not empty; "
                                                      "choose a new or empty directory\n")
    written = CliRunner().invoke(main, ["sites", "example", str(tmp_path / "more")])
    assert written.exit_code == 0 and (tmp_path / "more" / "test_shop.py").is_file()


def test_a_session_longer_than_the_documented_limit_is_refused_up_front(tmp_path):
    actions = tmp_path / "actions.json"
    actions.write_text(json.dumps([{"click": "#add"}] * 1_001))
    result = CliRunner().invoke(main, ["check", URL, "--actions", str(actions), "--out", str(tmp_path / "run")])
    assert (result.exit_code, result.stderr) == (2, f"Error: {actions}: 1001 steps are more than a session may "
                                                    "have (1000): every explored sequence replays them all; keep "
                                                    "the part of the flow around the race\n")
    assert not (tmp_path / "run").exists()


def test_a_bad_limit_is_one_line(tmp_path):
    result = CliRunner().invoke(main, ["check", URL, "--horizon", "0", "--out", str(tmp_path / "run")])
    assert result.exit_code == 2
    assert result.stderr == "Error: Invalid value for '--horizon': 0.0 is not in the range x>0.\n"
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(("option", "value"), [("--time-limit", "nan"), ("--time-limit", "inf"),
                                               ("--horizon", "inf"), ("--event-timeout", "nan"),
                                               ("--step-wait", "inf"), ("--pace", "nan")])
def test_a_number_that_is_not_finite_is_one_line(tmp_path, option, value):
    missing = tmp_path / "actions.json"  # stops the command before any browser, had the value passed
    result = CliRunner().invoke(main, ["check", URL, option, value, "--actions", str(missing),
                                       "--out", str(tmp_path / "run")])
    assert (result.exit_code, result.stderr) == (2, f"Error: Invalid value for '{option}': {value} is not a finite "
                                                    "number.\n")
    assert not (tmp_path / "run").exists()


def test_a_budget_too_long_to_count_is_one_line(tmp_path):
    missing = tmp_path / "actions.json"  # stops the command before any browser, had the budget passed
    result = CliRunner().invoke(main, ["check", URL, "--budget", "9" * 400 + "h", "--actions", str(missing),
                                       "--out", str(tmp_path / "run")])
    assert result.exit_code == 2
    line, = result.stderr.splitlines()
    assert line.startswith("Error: Invalid value for '--budget': '9999")
    assert line.endswith("is too long to count; give a duration such as 90s, 5m or 1h")


def test_a_bad_settings_file_is_one_line(tmp_path):
    (tmp_path / "webr4.toml").write_text("rules = [\n")
    result = webr4("sites", "list", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "Error: cannot read webr4.toml: Invalid value (at end of document)\n"


@pytest.mark.parametrize("command", ["export", "report"])
def test_a_damaged_summary_is_one_line(tmp_path, command):
    (tmp_path / "summary.json").write_text("{")
    result = CliRunner().invoke(main, [command, str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr == (f"Error: {tmp_path / 'summary.json'} is not valid JSON "
                             "(Expecting property name enclosed in double quotes: line 1 column 2 (char 1))\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["summary.json"]


@pytest.mark.parametrize("url", ["data:text/html,<p>hi</p>", "file:///etc/hostname", "example.com"])
def test_a_url_webr4_cannot_serve_is_refused_up_front(tmp_path, url):
    result = CliRunner().invoke(main, ["check", url, "--out", str(tmp_path / "run")])
    assert result.exit_code == 2
    assert result.stderr == (f"Error: Invalid value for 'URL': {url} is not an http:// or https:// URL; webr4 loads "
                             "pages from a web server (serve a local page with: python -m http.server)\n")
    assert not (tmp_path / "run").exists()


def test_a_page_as_a_long_data_url_is_named_by_its_media_type_and_size(tmp_path):
    page = "data:text/html," + "<p>hi</p>" * 2_000
    result = CliRunner().invoke(main, ["check", page, "--out", str(tmp_path / "run")])
    assert result.exit_code == 2
    assert result.stderr == ("Error: Invalid value for 'URL': data:text/html (18,000 bytes) is not an http:// or "
                             "https:// URL; webr4 loads pages from a web server (serve a local page with: python -m "
                             "http.server)\n")


def test_a_20_kb_selector_of_a_bad_step_is_cut_to_a_line_a_person_reads(tmp_path):
    actions = tmp_path / "actions.json"
    actions.write_text(json.dumps([{"click": "#" + "a" * 20_000, "value": "x"}]))
    result = CliRunner().invoke(main, ["record", URL, "--actions", str(actions), "--out", str(tmp_path / "s")])
    assert result.exit_code == 2
    line, = result.stderr.splitlines()
    said = line.removeprefix(f"Error: {actions}: ")
    assert said.startswith('action 1: click takes a selector, got {"click": "#aaa')
    assert said.endswith('"value": "x"} (20,028 characters)') and len(said) < 250


def test_a_missing_browser_is_named_as_the_user_gave_it(tmp_path):
    missing = tmp_path / "chromium"
    given = CliRunner().invoke(main, ["--browser", str(missing), "record", URL, "--out", str(tmp_path / "s")])
    assert (given.exit_code, given.stderr) == (2, f"Error: --browser {missing} is not a file: point it at a "
                                                  "Chromium binary\n")
    from_environment = CliRunner(env={"WEBR4_CHROMIUM": str(missing)}).invoke(
        main, ["record", URL, "--out", str(tmp_path / "s")])
    assert from_environment.stderr == f"Error: WEBR4_CHROMIUM={missing} is not a file: point it at a Chromium binary\n"
    assert not (tmp_path / "s").exists()


@pytest.mark.parametrize("args", [["sites", "list"], ["--help"]])
def test_a_closed_standard_output_is_an_error_not_silence(args):
    result = subprocess.run([sys.executable, "-m", "webr4", *args], stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: os.close(1), env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert result.returncode == 2
    assert result.stderr == ("Error: standard output is closed, and webr4 writes its results there; redirect it "
                             "instead (>/dev/null to discard them)\n")


# -- with a real Chromium ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def racing_url() -> Iterator[str]:
    with serve(PAGES) as base:
        yield base + "racing-xhr/"


@pytest.fixture(scope="module")
def small_run(racing_url, tmp_path_factory) -> Path:
    """A finished run of two sequences, one harmful reversal."""
    run = tmp_path_factory.mktemp("small") / "run"
    result = CliRunner().invoke(main, ["check", racing_url, "--out", str(run), "--workers", "1", "--max-sequences",
                                       "2", "--progress", "quiet"])
    assert result.exit_code == 1, result.output
    return run


def _script(tmp_path: Path, body: str) -> Path:
    script = tmp_path / "flow.py"
    script.write_text("import sys\n\n\ndef run(page):\n    page.click('h1')\n" + body)
    return script


def test_a_script_s_5000_character_exception_is_cut_to_a_line_a_person_reads(tmp_path):
    script = tmp_path / "flow.py"
    script.write_text("raise ValueError('no such user: ' + 'x' * 5_000)\n\n\ndef run(page):\n    pass\n")
    result = CliRunner().invoke(main, ["record", URL, "--script", str(script), "--out", str(tmp_path / "s")])
    assert result.exit_code == 2
    line, = result.stderr.splitlines()
    said = line.removeprefix(f"Error: script {script} failed to load: ValueError: ")
    assert said.startswith("no such user: xxx") and said.endswith("xxx (5,014 characters) (line 1, in <module>)")
    assert len(said) < 200


@pytest.mark.browser
def test_a_script_that_raises_is_named_with_its_line(racing_url, tmp_path):
    script = _script(tmp_path, "    helper()\n\n\ndef helper():\n    raise RuntimeError('flow broke')\n")
    result = CliRunner().invoke(main, ["record", racing_url, "--script", str(script), "--out", str(tmp_path / "s")])
    assert result.exit_code == 2
    assert result.stderr == f"Error: script {script} raised RuntimeError: flow broke (line 10, in helper)\n"
    assert not (tmp_path / "s").exists()


@pytest.mark.browser
def test_debug_shows_the_script_s_own_traceback(racing_url, tmp_path):
    script = _script(tmp_path, "    1 / 0\n")
    result = CliRunner().invoke(main, ["--debug", "record", racing_url, "--script", str(script),
                                       "--out", str(tmp_path / "s")])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert f'  File "{script}", line 6, in run' in lines and lines[-2] == "ZeroDivisionError: division by zero"
    assert lines[-1] == f"Error: script {script} raised ZeroDivisionError: division by zero (line 6, in run)"


@pytest.mark.browser
def test_a_script_that_exits_is_one_line(racing_url, tmp_path):
    script = _script(tmp_path, "    sys.exit(3)\n")
    result = CliRunner().invoke(main, ["check", racing_url, "--script", str(script), "--out", str(tmp_path / "run")])
    assert result.exit_code == 2
    assert result.stderr == (f"Error: script {script} called sys.exit(3) in run(page) (line 6, in run); "
                             "let run return instead\n")
    assert not (tmp_path / "run").exists()


@pytest.mark.browser
def test_replay_of_a_negative_id_names_the_ids_there_are(small_run):
    summary = json.loads((small_run / "summary.json").read_text())
    known = ", ".join(str(r["id"]) for r in summary["reversals"])
    result = CliRunner().invoke(main, ["replay", str(small_run), "-1"])
    assert (result.exit_code, result.stderr) == (2, f"Error: the run has no reversal -1 (reversals: {known})\n")


@pytest.fixture
def read_only_copy(small_run, tmp_path) -> Iterator[Path]:
    """The run, copied and bind-mounted read-only (as on a CI artifact's media; needs mount rights)."""
    copy, mount = tmp_path / "copy", tmp_path / "ro"
    subprocess.run(["cp", "-a", str(small_run), str(copy)], check=True)
    mount.mkdir()
    if subprocess.run(["mount", "--bind", str(copy), str(mount)], capture_output=True).returncode != 0:
        pytest.skip("cannot bind-mount here (needs root)")
    try:
        if subprocess.run(["mount", "-o", "remount,bind,ro", str(mount)], capture_output=True).returncode != 0:
            pytest.skip("cannot remount read-only here")
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


@pytest.mark.browser
def test_replay_works_from_read_only_media(read_only_copy):
    with pytest.raises(OSError):
        (read_only_copy / "probe").write_text("")
    result = CliRunner().invoke(main, ["replay", str(read_only_copy), "1"])
    assert result.exit_code == 0, result.output
    assert "reproduced" in result.stdout.splitlines() and result.stderr == ""  # then its confirmation's line


@pytest.mark.browser
def test_report_open_without_a_desktop_is_one_line(small_run):
    environment = {name: value for name, value in os.environ.items()
                   if name not in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")}
    result = subprocess.run([sys.executable, "-m", "webr4", "report", str(small_run), "--open"], capture_output=True,
                            text=True, env={**environment, "PYTHONPATH": str(ROOT)}, timeout=120)
    page = small_run / "report" / "index.html"
    assert (result.returncode, result.stdout) == (0, f"report: {page}\n")
    assert result.stderr == f"note: no browser to open the report with here; open {page} in one\n"
    assert page.is_file()


@pytest.mark.browser
@pytest.mark.parametrize("damage, reason", [("truncated", "database disk image is malformed"),
                                            ("overwritten", "file is not a database")])
def test_a_damaged_store_is_named_with_what_still_works(small_run, racing_url, tmp_path, damage, reason):
    run = tmp_path / "run"
    subprocess.run(["cp", "-a", str(small_run), str(run)], check=True)
    store = run / "webr4.sqlite"
    store.write_bytes(store.read_bytes()[:8192] if damage == "truncated" else b"not a database at all" * 100)
    kept = store.read_bytes()
    line = (f"Error: the run store {store} is damaged ({reason}); the run's verdicts are still in its summary.json "
            f"(webr4 export {run} reads them); explore again into a new --out\n")
    for command in (["report", str(run)], ["check", racing_url, "--out", str(run), "--resume", "--workers", "1"]):
        result = CliRunner().invoke(main, command)
        assert (result.exit_code, result.stderr) == (2, line), command
    assert store.read_bytes() == kept
    assert CliRunner().invoke(main, ["export", str(run)]).exit_code == 1  # the summary still says harmful


@pytest.mark.parametrize(("args", "error"), [
    (["--budget", "5x"], "Error: Invalid value for '--budget': '5x' is not a duration; write a number and a unit: "
                         "90s, 5m or 1h\n"),
    (["--budget", "300"], "Error: Invalid value for '--budget': '300' is not a duration; write a number and a "
                          "unit: 90s, 5m or 1h\n"),
    (["--budget", "0m"], "Error: Invalid value for '--budget': '0m' is no time at all; give a duration above 0, "
                         "such as 90s, 5m or 1h\n"),
    (["--budget", "5m", "--time-limit", "60"], "Error: --budget and --time-limit both limit the sweep's time; "
                                                "give one of them\n"),
    (["--budget", "5m", "--strategy", "wave"], "Error: --budget orders R4's reversals by likely harm; drop "
                                                "--strategy wave or --budget\n"),
])
def test_a_budget_that_cannot_be_used_is_one_line(tmp_path, args, error):
    result = CliRunner().invoke(main, ["check", URL, *args, "--out", str(tmp_path / "run")])
    assert (result.exit_code, result.stderr) == (2, error)
    assert not (tmp_path / "run").exists()
