"""The flaky-test corpus's pages on loopback, as webr4 serves its own sites: never cached, never slowed.

Every delay a corpus test meets comes from its adversary (``--slow``, see ``tests/conftest.py``);
``Cache-Control: no-store`` keeps a slowed response from being taken from the browser's cache.

Besides the corpus's own apps (``site/``), the server shows real apps from the npm registry where
their benchmarks have installed them: the TodoMVC apps under ``/todomvc/`` (``real_apps``) and the
real-web pages with their packages under ``/web/`` (``real_web``: ``/web/pages/NAME/``). The tests
on them are skipped, saying so, where they are not installed; ``benchmarks/deflake.py`` installs
them before it runs the corpus.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from benchmarks.corpora import APPS_DIR, WEB_ROOT
from webr4.serve import serve

SITE = Path(__file__).resolve().parent / "site"
"""The corpus's own pages, one app per subfolder."""
REAL_APPS = {"todomvc": APPS_DIR, "web": WEB_ROOT}
"""Where the real apps are served from, by the path they are served under, once installed."""


def installed(mount: str) -> bool:
    """Whether the real apps served under ``/mount/`` are installed."""
    return REAL_APPS[mount].is_dir()


@contextmanager
def serve_corpus(site: Path = SITE) -> Iterator[str]:
    """Serve ``site`` and the installed real apps on 127.0.0.1 at a free port while the block runs;
    yields the base URL (``http://127.0.0.1:PORT``, no trailing slash, as the tests join paths to it)."""
    with tempfile.TemporaryDirectory(prefix="webr4-flaky-") as scratch:
        root = Path(scratch)
        for entry in site.iterdir():
            (root / entry.name).symlink_to(entry.resolve())
        for mount, directory in REAL_APPS.items():
            if directory.is_dir():
                (root / mount).symlink_to(directory.resolve())
        with serve(root) as url:
            yield url.rstrip("/")
