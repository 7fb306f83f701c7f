"""``write_report(run_dir)``: the static HTML report of a run, under ``run_dir/report/``.

Pages: ``index.html`` (overview, sortable and filterable table of reversals, near-identical ones
in expandable groups: :mod:`webr4.report.groups`), one ``reversal-<n>.html`` per reversal (one
section per state category, drawn by the category's template in ``reports/categories/``), and
``timeline.html``. Everything from the site is escaped by
Jinja2's autoescaping and no site URL is ever put in ``href`` or ``src``: a hostile page cannot
run script in the report. The pages need no network and work from ``file://``.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from webr4.classify.differences import differences_line
from webr4.report.ci import replay_command, unfinished_reason
from webr4.report.groups import groups
from webr4.report.run_view import VERDICTS, Run
from webr4.report.timeline import layout
from webr4.resources import resource_dir
from webr4.rundir.run import DIFF, SCREENSHOT, RunDir
from webr4.state.categories import CATEGORIES

ASSETS = ("report.css", "report.js")
MAX_VALUE_CHARS = 300


def _value(value: Any) -> str:
    """A heap value as short JSON text."""
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= MAX_VALUE_CHARS else text[:MAX_VALUE_CHARS] + "…"


_PATH = re.compile(r"(?:https?://[^\s/]+)?(?:/[^\s/:()'\"]+)+/([^\s/:()'\"]+)")


def brief(text: str, limit: int = 90) -> str:
    """``text`` for a table cell: each URL or path as its last part (``/a/b/require.js:16:9`` →
    ``require.js:16:9``), cut to ``limit`` characters."""
    short = _PATH.sub(r"\1", str(text))
    return short if len(short) <= limit else short[:limit - 1] + "…"


def _environment() -> Environment:
    env = Environment(loader=FileSystemLoader(resource_dir("reports")), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["value"] = _value
    env.filters["brief"] = brief
    env.filters["differences"] = differences_line
    return env


def write_report(run_dir: Path) -> Path:
    """Write the report of the run in ``run_dir``; return the path of ``report/index.html``."""
    run = Run(run_dir)
    files = RunDir(run_dir)
    out = files.report
    out.mkdir(parents=True, exist_ok=True)
    for asset in ASSETS:
        shutil.copyfile(resource_dir("reports") / asset, out / asset)
    env = _environment()
    reversals = run.reversals
    counts = run.summary.counts
    verdicts = list(VERDICTS) + sorted(set(counts) - set(VERDICTS))
    common = {"summary": run.summary, "verdicts": verdicts, "counts": counts,
              "unfinished": unfinished_reason(run_dir, run.summary)}
    shots = {r.index: (run.image(r.parent, SCREENSHOT), run.image(r.index, SCREENSHOT)) for r in reversals}
    plain_shots = {r.index: run.plain_images(r.index) for r in reversals}
    thumbs = {r.index: run.changed_thumbs(r) for r in reversals}
    stories = {r.index: run.as_test(r.index).story for r in reversals}
    _write(files.report_page(), env.get_template("index.html.j2").render(
        **common, page="index", reversals=reversals, groups=groups(reversals, run.pair_kinds), shots=thumbs,
        stories=stories))
    seed = run.trace(0)
    timeline = layout(seed, ((r.index, r.first_id, r.second_id) for r in reversals)) if seed else None
    _write(out / "timeline.html", env.get_template("timeline.html.j2").render(
        **common, page="timeline", timeline=timeline, reversals=reversals))
    template = env.get_template("reversal.html.j2")
    for r in reversals:
        index = r.index
        _write(files.report_page(index), template.render(
            **common, page="reversal", r=r, categories=CATEGORIES,
            events=[run.racing_event(r, "first"), run.racing_event(r, "second")],
            rows=run.alignment(r), departures=run.departures(index), diff=run.diff(index),
            shots=shots[index], plain_shots=plain_shots[index], diff_image=run.image(index, f"{DIFF}.png"),
            as_test=run.as_test(index),
            command=replay_command(run_dir, r)))
    return files.report_page()


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
