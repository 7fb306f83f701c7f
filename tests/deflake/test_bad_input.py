"""``webr4 deflake`` on input it cannot use: one line and exit status 2, the run kept."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).parent / "project"


def _deflake(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "webr4", "deflake", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600)


def test_a_node_id_that_names_no_test_is_one_line_and_status_2(tmp_path: Path) -> None:
    (tmp_path / "test_here.py").write_text("def test_here(page):\n    pass\n")
    done = _deflake(tmp_path, "test_here.py::test_elsewhere", "--out", str(tmp_path / "run"))
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("Error: pytest found no test for test_here.py::test_elsewhere")


def test_an_out_directory_of_something_else_is_refused(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    done = _deflake(tmp_path, "test_here.py", "--out", str(tmp_path / "mine"))
    assert done.returncode == 2 and "holds no deflake run" in done.stderr
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep me"


def test_a_cluster_address_of_no_kind_is_one_line_and_the_run_directory_stays_unmade(tmp_path: Path) -> None:
    (tmp_path / "test_here.py").write_text("def test_here(page):\n    pass\n")
    done = _deflake(tmp_path, "test_here.py", "--out", str(tmp_path / "run"), "--cluster", "scheduler:8786")
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert line == "Error: --cluster 'scheduler:8786': give tcp://HOST:PORT of a Dask scheduler or local:N"
    assert not (tmp_path / "run").exists()


def _project_with(tmp_path: Path, name: str, source: str) -> Path:
    """A copy of the project with one more test file; the copy's directory."""
    project = tmp_path / "project"
    shutil.copytree(PROJECT, project)
    (project / name).write_text(source)
    return project


@pytest.mark.browser
def test_a_test_that_fails_on_its_own_is_status_2_naming_its_line(tmp_path: Path) -> None:
    project = _project_with(tmp_path, "test_broken.py", 'def test_broken(page):\n    page.goto("/cart/")\n'
                                                        '    assert page.inner_text("#count") == "7"\n')
    done = _deflake(project, "test_broken.py", "--out", str(tmp_path / "run"))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].startswith(
        "Error: test_broken.py::test_broken[chromium] fails without any slow response (line 3")
    entry = json.loads((tmp_path / "run" / "summary.json").read_text())["tests"][0]
    assert entry["status"] == "fails-alone"


@pytest.mark.browser
def test_a_test_that_acts_in_a_way_deflake_cannot_replay_is_refused_by_name(tmp_path: Path) -> None:
    project = _project_with(tmp_path, "test_double.py", 'def test_double(page):\n    page.goto("/cart/")\n'
                                                        '    page.dblclick("#add")\n    page.wait_for_timeout(300)\n')
    done = _deflake(project, "test_double.py", "--out", str(tmp_path / "run"))
    assert done.returncode == 2
    assert "deflake does not follow page.dblclick (line 3)" in done.stderr.strip().splitlines()[-1]
