"""A static file server for the flaky-test corpus: ``site/`` on loopback, never cached, never slowed.

Every delay a corpus test meets comes from its adversary (``--slow``, see ``tests/conftest.py``), so
the server answers each request as fast as it can: one thread per request, a deep listen queue, and
``Cache-Control: no-store`` so that a slowed response is never taken from the browser's cache.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

SITE = Path(__file__).resolve().parent / "site"
"""The corpus's pages, one app per subfolder."""
HOST = "127.0.0.1"


class _Handler(SimpleHTTPRequestHandler):
    """Serves ``site/`` without caching and without a log line per request."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript",
                      ".json": "application/json", ".html": "text/html; charset=utf-8"}

    def end_headers(self) -> None:
        """Forbids caching, so that every load asks the server (and meets the adversary) again."""
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        """Keeps the test output free of access logs."""


class _Server(ThreadingHTTPServer):
    """One daemon thread per request and room for many pending connections."""

    daemon_threads = True
    request_queue_size = 128


@contextmanager
def serve_corpus(site: Path = SITE) -> Iterator[str]:
    """Serves ``site`` on 127.0.0.1 at a free port while the block runs; yields the base URL
    (``http://127.0.0.1:PORT``, no trailing slash)."""
    server = _Server((HOST, 0), partial(_Handler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, name="flaky-corpus-server", daemon=True)
    thread.start()
    try:
        yield f"http://{HOST}:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
