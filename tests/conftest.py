"""Shared fixtures: the bundled sites on loopback and one Chromium for the whole run."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from webr4.resources import resource_dir
from webr4.serve import serve

SITES = resource_dir("sites")


def site_names() -> list[str]:
    return sorted(p.name for p in SITES.iterdir() if (p / "expected.json").is_file())


def expected(name: str) -> dict[str, Any]:
    return json.loads((SITES / name / "expected.json").read_text())


@pytest.fixture(scope="session")
def sites_url() -> Iterator[str]:
    with serve(SITES) as base:
        yield base


@pytest.fixture(scope="session")
def output_dir() -> Path:
    """Where tests leave files for people to look at (screenshots, reports)."""
    path = Path(__file__).resolve().parent.parent / "test-output"
    path.mkdir(exist_ok=True)
    return path


class SyncDriver:
    """The asynchronous driver, run on one event loop for the whole test session."""

    def __init__(self) -> None:
        from webr4.browser.driver import Driver

        self._runner = asyncio.Runner()
        self._driver = self._runner.run(Driver().__aenter__())

    def execute(self, url: str, plan: list[str] | tuple[str, ...] = (), **options: Any):
        return self._runner.run(self._driver.execute(url, plan, **options))

    def close(self) -> None:
        self._runner.run(self._driver.__aexit__(None, None, None))
        self._runner.close()


@pytest.fixture(scope="session")
def driver() -> Iterator[SyncDriver]:
    d = SyncDriver()
    yield d
    d.close()
