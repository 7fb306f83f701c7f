"""A run written by hand (no browser) and the published SARIF 2.1.0 schema."""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
from pathlib import Path
from typing import Any

import pytest

from tests.ci.runs import reversal, write_run
from tests.conftest import installing

SCHEMA_PACKAGE = "@microsoft/jest-sarif@1.0.0-beta.0"  # ships the SARIF 2.1.0 JSON schema
SCHEMA_MEMBER = "package/lib/schemas/sarif-2.1.0-rtm.5.json"


@pytest.fixture
def mixed_run(tmp_path: Path) -> Path:
    """A run with one reversal of every verdict; the harmful one has both sites, the heap-only one none."""
    site = "http://127.0.0.1:8765/two-xhr/"
    return write_run(tmp_path / "run", [
        reversal(1, "harmful", ["initialization-race", "exception-diff"],
                 sites=(f"{site}cart.js:4:10", f"{site}:17:30")),
        reversal(2, "harmless", ["commute"]),
        reversal(3, "heap-only", ["heap-only"]),
        reversal(4, "error", ["child-failed"]),
    ])


@pytest.fixture(scope="session")
def sarif_schema(request: pytest.FixtureRequest) -> dict[str, Any]:
    """The SARIF 2.1.0 schema, from an npm package (fetched once into the pytest cache); the test
    is skipped with the reason when npm cannot get it."""
    directory = Path(request.config.cache.mkdir("webr4-sarif-schema"))
    schema = directory / "sarif-2.1.0.json"
    with installing(directory):
        if not schema.is_file():
            npm = shutil.which("npm")
            if npm is None:
                pytest.skip("npm is not installed: cannot fetch the SARIF schema")
            try:
                packed = subprocess.run(
                    [npm, "pack", "--silent", "--pack-destination", str(directory), SCHEMA_PACKAGE],
                    capture_output=True, text=True, timeout=300, check=False)
            except subprocess.TimeoutExpired:
                pytest.skip("npm pack timed out: is the npm registry reachable?")
            if packed.returncode != 0:
                pytest.skip(f"npm pack failed (registry unreachable?): {packed.stderr.strip()[-300:]}")
            with tarfile.open(directory / packed.stdout.strip().splitlines()[-1]) as archive:
                member = archive.extractfile(SCHEMA_MEMBER)
                assert member is not None, f"{SCHEMA_PACKAGE} no longer holds {SCHEMA_MEMBER}"
                schema.write_bytes(member.read())
    return json.loads(schema.read_text(encoding="utf-8"))
