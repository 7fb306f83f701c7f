"""What a user installs is the wheel: it must run webr4 from any directory, with no source tree.

The wheel is built the way an index would get it (sdist first, then the wheel from the sdist),
installed into a fresh virtual environment outside the checkout, and a bundled site is checked
from an empty directory through the installed ``webr4`` script.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import venv
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_is_listed_in_pyproject() -> None:
    """Renamed resource packages rule out package discovery, so the list must be complete."""
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "webr4").rglob("__init__.py")
    }
    assert on_disk - listed == set()


def _run(command: list[str | os.PathLike[str]], cwd: Path, env: dict[str, str], timeout: float = 600) -> str:
    completed = subprocess.run([str(part) for part in command], cwd=cwd, env=env, capture_output=True,
                               text=True, timeout=timeout, check=False)
    assert completed.returncode == 0, f"{command} exited {completed.returncode}:\n{completed.stderr[-3000:]}"
    return completed.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    """A fresh virtual environment holding only the built wheel and its dependencies, removed once
    the module's tests are done (it takes a quarter of a gigabyte)."""
    base = tmp_path_factory.mktemp("wheel")
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "VIRTUAL_ENV"))}
    dist = base / "dist"
    _run([sys.executable, "-m", "build", "--wheel", "--outdir", dist, ROOT], cwd=base, env=env)
    wheels = list(dist.glob("webr4-*.whl"))
    assert len(wheels) == 1, f"expected one wheel, found {wheels}"
    environment = base / "venv"
    venv.EnvBuilder(with_pip=False).create(environment)  # this pip installs into it: a third of the time
    _run([sys.executable, "-m", "pip", "--python", environment / "bin" / "python", "install", "--quiet",
          "--no-compile", wheels[0]], cwd=base, env=env)
    yield environment, env
    shutil.rmtree(base, ignore_errors=True)


@pytest.mark.browser
@pytest.mark.slow
def test_installed_wheel_checks_a_bundled_site_from_outside_the_checkout(
        installed: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    environment, env = installed
    webr4 = environment / "bin" / "webr4"
    server = subprocess.Popen([str(webr4), "sites", "serve", "--port", "0"], cwd=tmp_path, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        first_line = server.stdout.readline()
        assert " at http://127.0.0.1:" in first_line, server.stderr.read() if server.stderr else first_line
        base = first_line.split(" at ", 1)[1].split()[0]
        assert "site-packages" in first_line  # the sites come from the installed package
        completed = subprocess.run([str(webr4), "check", f"{base}two-xhr/", "--out", "run", "--workers", "1",
                                    "--progress", "quiet"],
                                   cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False)
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert completed.returncode in (0, 1), completed.stderr[-3000:]
    assert (tmp_path / "run" / "summary.json").is_file()
    assert (tmp_path / "run" / "report" / "index.html").is_file()


@pytest.mark.slow
def test_python_dash_m_is_the_webr4_command(installed: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    environment, env = installed
    by_module = _run([environment / "bin" / "python", "-m", "webr4", "sites", "list"], cwd=tmp_path, env=env)
    by_script = _run([environment / "bin" / "webr4", "sites", "list"], cwd=tmp_path, env=env)
    assert by_module == by_script and "two-xhr" in by_script


@pytest.mark.slow
def test_the_installed_wheel_gives_the_pytest_example(installed: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    environment, env = installed
    _run([environment / "bin" / "webr4", "sites", "example", "tests"], cwd=tmp_path, env=env)
    example = ROOT / "examples" / "pytest" / "test_shop.py"
    assert (tmp_path / "tests" / example.name).read_text() == example.read_text()
