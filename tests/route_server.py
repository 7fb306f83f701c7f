"""A loopback HTTP server whose answers come from a function, for pages that need slow or
hand-made responses (the bundled sites are served from files by :func:`webr4.serve.serve`)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Answer = tuple[str, bytes] | tuple[str, bytes, dict[str, str]]
Respond = Callable[[str], Answer | None]
"""Request path (with its query) → (content type, body) or (content type, body, more headers),
or ``None`` for a 404. It may sleep to make a response late: every request is answered on a
thread of its own."""


@contextmanager
def route_server(respond: Respond) -> Iterator[str]:
    """Serve GET requests from ``respond`` on 127.0.0.1; yields the base URL (no trailing slash)."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            answer = respond(self.path)
            kind, body, *more = answer if answer is not None else ("text/plain", b"")
            self.send_response(200 if answer is not None else 404)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            for name, value in (more[0] if more else {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


@contextmanager
def page_server(html: str) -> Iterator[str]:
    """Serve one page, ``html``, at ``/`` (everything else is a 404); yields the page's URL."""
    page = html.encode()
    with route_server(lambda path: ("text/html", page) if path == "/" else None) as base:
        yield base + "/"
