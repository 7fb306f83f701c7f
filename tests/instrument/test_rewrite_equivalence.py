"""The rewriter's output is byte for byte what a reference revision of it produced.

Speed work on the rewriter must not change a single byte of what it returns (code, sites,
uncontrolled constructs, kept runs): rewrite caches, site ids recorded in traces and the position
maps all depend on it. The reference is the revision before that work, taken from the repository's
own history with ``git archive`` and run in a separate interpreter; the inputs are the tricky-
construct corpus (as script, module and handler body), the npm libraries and, when the real-app
corpus is installed, every script its apps' pages load (as script and as module). The test is
skipped when git or the reference commit is not there.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.corpora import APPS_DIR
from benchmarks.rewrite_speed import app_scripts
from webr4.instrument import rewrite

REFERENCE = "2bb99f43655283f1f673a4daec7d5592880b2164"
"""The last revision before the rewriter was made faster."""

REPOSITORY = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).with_name("corpus")
LIBRARIES = ("jquery/dist/jquery.js", "react-dom/umd/react-dom.production.min.js",
             "react-dom/umd/react-dom.development.js", "vue/dist/vue.global.js")

_RUN_REFERENCE = """
import json, sys
from webr4.instrument.rewrite import rewrite
results = []
for path, options in json.load(sys.stdin):
    result = rewrite(open(path, encoding="utf-8").read(), path, script_id="t", **options)
    results.append([result.code, result.sites, [[u.kind, u.site] for u in result.uncontrolled], list(result.kept)])
json.dump(results, sys.stdout)
"""


def _reference_package(directory: Path) -> Path:
    """The reference revision's ``webr4`` package, extracted under ``directory``."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed: cannot extract the reference rewriter")
    known = subprocess.run(["git", "-C", str(REPOSITORY), "cat-file", "-e", f"{REFERENCE}^{{commit}}"],
                           capture_output=True, check=False)
    if known.returncode != 0:
        pytest.skip(f"reference commit {REFERENCE[:10]} is not in this repository's history")
    archive = subprocess.run(["git", "-C", str(REPOSITORY), "archive", REFERENCE, "webr4"],
                             capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(directory)], input=archive.stdout, check=True)
    return directory


def _jobs(npm_dir: Path) -> list[tuple[str, dict[str, bool]]]:
    jobs: list[tuple[str, dict[str, bool]]] = []
    for path in sorted(CORPUS.iterdir()):
        jobs += [(str(path), {}), (str(path), {"module": True}), (str(path), {"handler": True})]
    scripts = [npm_dir / "node_modules" / library for library in LIBRARIES]
    apps = APPS_DIR
    if apps.is_dir():
        scripts += [script for app in sorted(apps.iterdir()) if (app / "index.html").is_file()
                    for script in app_scripts(app) if script.is_file()]
    for path in dict.fromkeys(scripts):
        jobs += [(str(path), {}), (str(path), {"module": True})]
    return jobs


@pytest.mark.slow  # builds the reference revision and rewrites every script of the corpora twice
def test_output_is_that_of_the_reference_revision(npm_dir: Path, tmp_path: Path) -> None:
    reference = _reference_package(tmp_path)
    jobs = _jobs(npm_dir)
    completed = subprocess.run([sys.executable, "-c", _RUN_REFERENCE], input=json.dumps(jobs),
                               capture_output=True, text=True, cwd=reference, env={"PYTHONPATH": str(reference)},
                               check=True, timeout=1800)
    expected = json.loads(completed.stdout)
    compared = 0
    for (path, options), (code, sites, uncontrolled, kept) in zip(jobs, expected, strict=True):
        result = rewrite(Path(path).read_text(encoding="utf-8"), path, script_id="t", **options)
        where = f"{path} {options}"
        assert result.code == code, where
        assert result.sites == sites and list(result.sites) == list(sites), where
        assert [[u.kind, u.site] for u in result.uncontrolled] == uncontrolled, where
        assert list(result.kept) == kept, where
        compared += len(code)
    assert compared > 1_000_000  # the libraries at least were there
