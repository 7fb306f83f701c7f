"""What a user keeps of a race: the exported pytest test, run in a fresh virtual environment with
only pytest and playwright, fails on the racy page and passes on its fixed twin; the exported
traces hold both plain runs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from playwright.sync_api import sync_playwright

from webr4.browser.launch import chromium_path
from webr4.cli import main
from webr4.serve import serve

from ..conftest import SITES

pytestmark = pytest.mark.browser

FIXED = Path(__file__).parent / "pages" / "two-xhr-fixed.html"


@pytest.fixture(scope="module")
def fresh_python(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The Python of a new virtual environment outside the checkout holding only pytest and
    playwright (from the package index), removed once the module's tests are done; the test is
    skipped with the reason when pip cannot get them."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    python = venv / "bin" / "python"
    try:
        installed = subprocess.run([str(python), "-m", "pip", "install", "-q", "pytest", "playwright"],
                                   capture_output=True, text=True, timeout=600, check=False)
    except subprocess.TimeoutExpired:
        pytest.skip("pip install timed out: is the package index reachable?")
    if installed.returncode != 0:
        pytest.skip(f"pip install failed (package index unreachable?): {installed.stderr.strip()[-300:]}")
    yield python
    shutil.rmtree(venv, ignore_errors=True)


def _trace_events(path: Path) -> tuple[list[dict], list[str]]:
    with zipfile.ZipFile(path) as trace:
        events = [json.loads(line) for line in trace.read("trace.trace").decode().splitlines() if line]
        return events, trace.namelist()


def test_the_exported_test_fails_on_the_race_and_passes_on_its_fixed_twin(tmp_path, fresh_python):
    site = tmp_path / "site" / "shop"
    shutil.copytree(SITES / "two-xhr", site)
    kept = tmp_path / "kept"
    exported, traces = kept / "test_shop.py", kept / "shop.zip"
    with serve(tmp_path / "site") as base:
        url = f"{base}shop/"
        checked = CliRunner().invoke(main, ["check", url, "--out", str(tmp_path / "run"), "--workers", "1"])
        assert checked.exit_code == 1, checked.output
        harmful = next(r for r in json.loads((tmp_path / "run" / "summary.json").read_text())["reversals"]
                       if r["verdict"] == "harmful")
        witness = CliRunner().invoke(main, ["witness", str(tmp_path / "run"), str(harmful["id"]),
                                            "--pytest", str(exported), "--trace", str(traces)])
        assert witness.exit_code == 0, witness.output
        shutil.copyfile(FIXED, site / "index.html")
        twin = CliRunner().invoke(main, ["record", url, "--out", str(tmp_path / "twin")])
        assert twin.exit_code == 0, twin.output
    with sync_playwright() as playwright:
        chromium = chromium_path(playwright)
    environment = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "CHROMIUM": chromium}

    def run_exported() -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(fresh_python), "-m", "pytest", "-q", "-p", "no:cacheprovider", exported.name],
                              cwd=kept, env=environment, capture_output=True, text=True, timeout=300, check=False)

    racy = run_exported()
    assert racy.returncode == 1 and "dom differs" in racy.stdout, racy.stdout + racy.stderr
    shutil.copyfile(tmp_path / "twin" / "network.har", exported.with_suffix(".har"))
    fixed = run_exported()
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr

    for path in (kept / "shop-parent.zip", traces):
        events, files = _trace_events(path)
        navigations = [e for e in events if e.get("type") == "before" and e.get("method") == "goto"]
        assert [e["params"]["url"] for e in navigations] == [url]
        assert any(name.startswith("screencast/") for name in files)
        assert any(e.get("type") == "frame-snapshot" for e in events)
