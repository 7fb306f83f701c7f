"""A Dask plugin that takes a local cluster's worker processes out of webr4's process group.

A local cluster's workers are webr4's child processes (their nannies are objects in webr4's).
A signal to the process group (Ctrl-C in a terminal) is webr4's to act on: it closes the
cluster in order. Were the workers to take the signal too, each would die printing its own
traceback. They start with the signals held (:func:`~webr4.sweep.parent_death.signals_held`),
and the plugin, run in each as it joins, binds it to the process that started it
(:func:`~webr4.sweep.parent_death.bind_to_parent`).

Imported only when a cluster is used: ``distributed`` is an optional dependency.
"""

from __future__ import annotations

import os
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

from webr4.sweep.parent_death import bind_to_parent


class LeaveGroupWorker(WorkerPlugin):
    """Binds each worker process to webr4's, which started it."""

    name = "webr4-leave-group-worker"

    def setup(self, worker: Any) -> None:
        bind_to_parent(os.getppid())
