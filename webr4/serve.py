"""A static file server on loopback, for the bundled sites and for tests.

``serve(directory)`` is a context manager that serves ``directory`` on ``127.0.0.1`` from a
background thread and yields the base URL (ending in ``/``).
"""

from __future__ import annotations

import contextlib
import sys
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator


class _QuietHandler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript", ".json": "application/json",
                      ".mjs": "text/javascript", ".svg": "image/svg+xml"}

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib signature
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


class _Server(ThreadingHTTPServer):
    # A page asks for its scripts, styles and images at once. With the standard library's five,
    # connections past the fifth that arrive while the accepting thread waits for the interpreter
    # lock are dropped, and Chromium's retry comes a second later: a page load here took up to a
    # second longer now and then, with or without webr4.
    request_queue_size = 128

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away mid-response (a page closed, a load cut short) is no error of
        the server's, and says nothing; any other error is printed as the standard library does."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serve(directory: Path, port: int = 0) -> Iterator[str]:
    """Serve ``directory`` on 127.0.0.1:``port`` (0: any free port) while the block runs."""
    if not directory.is_dir():
        raise FileNotFoundError(f"{directory} is not a directory")
    server = _Server(("127.0.0.1", port), partial(_QuietHandler, directory=str(directory)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="webr4-serve", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
