"""A Dask cluster whose workers run another webr4 is refused in one line, before any execution."""

from __future__ import annotations

import asyncio

import pytest

from webr4.sweep import backends
from webr4.sweep.backends import BackendError, DaskConnection
from webr4.version import __version__


def test_workers_of_another_webr4_version_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    distributed = pytest.importorskip("distributed")

    async def connect() -> tuple[str, str]:
        async with distributed.LocalCluster(n_workers=1, processes=False, protocol="tcp", dashboard_address=None,
                                            asynchronous=True) as cluster:
            monkeypatch.setattr(backends, "__version__", "0.0.1")  # this side only: the worker keeps its own
            with pytest.raises(BackendError) as refused:
                await DaskConnection.open(cluster.scheduler_address)
            return cluster.scheduler_address, str(refused.value)

    address, message = asyncio.run(connect())
    assert message == (f"the Dask workers at {address} run webr4 {__version__}, this machine 0.0.1; install the "
                       "same version on both")
