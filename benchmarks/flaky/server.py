"""The flaky-test corpus's ``site/`` on loopback, as webr4 serves its own sites: never cached, never slowed.

Every delay a corpus test meets comes from its adversary (``--slow``, see ``tests/conftest.py``);
``Cache-Control: no-store`` keeps a slowed response from being taken from the browser's cache.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from webr4.serve import serve

SITE = Path(__file__).resolve().parent / "site"
"""The corpus's pages, one app per subfolder."""


@contextmanager
def serve_corpus(site: Path = SITE) -> Iterator[str]:
    """Serve ``site`` on 127.0.0.1 at a free port while the block runs; yields the base URL
    (``http://127.0.0.1:PORT``, no trailing slash, as the tests join paths to it)."""
    with serve(site) as url:
        yield url.rstrip("/")
