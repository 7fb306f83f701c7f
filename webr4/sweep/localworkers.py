"""A Dask plugin that makes a local cluster's worker processes webr4's own: out of its process
group, and quiet.

A local cluster's workers are webr4's child processes (their nannies are objects in webr4's).
A signal to the process group (Ctrl-C in a terminal) is webr4's to act on: it closes the
cluster in order. Were the workers to take the signal too, each would die printing its own
traceback. They start with the signals held (:func:`~webr4.sweep.parent_death.signals_held`),
and the plugin, run in each as it joins, binds it to the process that started it
(:func:`~webr4.sweep.parent_death.bind_to_parent`).

What a worker has to say reaches webr4 as its tasks' results. Its own log lines would come on
webr4's standard error, under webr4's words: most at shutdown, when a heartbeat races the
scheduler's closing. The plugin keeps all but the critical ones to the worker.

Imported only when a cluster is used: ``distributed`` is an optional dependency.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

from webr4.sweep.parent_death import bind_to_parent


class LocalWorker(WorkerPlugin):
    """Binds each worker process to webr4's, which started it, and quiets its log."""

    name = "webr4-local-worker"

    def setup(self, worker: Any) -> None:
        bind_to_parent(os.getppid())
        logging.getLogger("distributed").setLevel(logging.CRITICAL)
