"""webr4 on TodoMVC apps that build their page from web-component polyfills or a boot loader.

The apps are examples of the ``todomvc`` package (the real-app corpus's pinned version, installed
by :func:`benchmarks.corpora.ensure_apps`), served as the package ships them, each with the
corpus's session (add two todos, complete one, show the completed ones). What they do before
the first step is what webr4's runtime must leave as Chromium does it:

* ``polymer``: Polymer 0.3 on the platform.js polyfills: HTML imports fetched by XHR whose
  scripts run as script elements the polyfill inserts (inline ones as ``data:`` URLs), a Shadow
  DOM polyfill that puts wrappers in the globals (``Event``, ``HTMLScriptElement``, …) and elements
  that finish their set-up in an animation frame;
* ``enyo_backbone``: Enyo's debug boot loader, which ``document.write``s its packages' style
  sheets and scripts, the scripts written while the style sheets before them still load.

Per app, as :mod:`benchmarks.real_web` measures a page (:func:`benchmarks.real_web.measure_page`):
the plain session, webr4's final DOM against plain Chromium's, the recording, a bound-1 sweep and
the confirmation of its harmful verdicts in plain Chromium.

``python -m benchmarks --only wc_apps`` writes ``benchmarks/results/wc_apps.{md,json}``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from benchmarks.corpora import TODOMVC, WebPage, ensure_apps, load_apps
from benchmarks.real_web import MAX_SEQUENCES, measure, table
from benchmarks.section import Section

PACKAGE = "todomvc"
APPS = {
    "polymer": "web components on polyfills (Polymer 0.3, platform.js)",
    "enyo_backbone": "boot loader writing its packages (Enyo)",
}
"""The examples measured, with what builds their page."""


def pages(session: list[dict[str, Any]]) -> list[WebPage]:
    """The apps as pages of the examples' folder, each with ``session``."""
    return [WebPage(name, kind, PACKAGE, f"{name}/", session) for name, kind in APPS.items()]


def run(sites: list[Path]) -> Section:  # noqa: ARG001 - the section measures the npm apps, not the sites
    title = f"Web-component and boot-loader apps: explore bound 1 --max-sequences {MAX_SEQUENCES}, one worker"
    corpus = load_apps()
    if ensure_apps(corpus) is None:
        return Section(title, "Not measured: the npm packages could not be installed.", [])
    results = asyncio.run(measure(pages(corpus.session), TODOMVC))
    return Section(title, table(results), [r.to_json() for r in results])
