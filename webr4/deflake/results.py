"""What ``deflake`` keeps of a test: one entry per test in ``RUN/summary.json``, the ``flaky`` list
the issue tracker and CI read, and ``RUN/fix.diff`` with every verified fix.

Layout of a deflake run directory ``RUN``:

* ``RUN/tests/<test>/`` — the test's own run: its session, explored sequences and report, as
  ``webr4 check`` writes one; ``fix/<n>/`` under it, the fixed test's explorations;
* ``RUN/tests/<test>/deflake.json`` — the test's entry, written as soon as it is judged;
* ``RUN/summary.json`` — ``{"status", "tests": [entry, …], "pending": [node id, …], "flaky":
  [failing order, …]}``: ``status`` ``finished``, or ``interrupted`` while tests are ``pending``
  (``webr4 deflake --resume`` deflakes those and keeps the rest);
* ``RUN/fix.diff`` — one unified diff of the test files, every verified fix;
* ``RUN/report/index.html`` — a section per test (:mod:`webr4.deflake.report`).

A test's entry: ``test`` (its node id), ``status`` (``flaky``, ``stable``, ``fails-alone``,
``error``), ``message`` (why, for the last two), ``run`` (its directory, relative to ``RUN``),
``sequences``, ``flaky`` (its failing orders), ``fix`` (``diff``, ``verified``, ``summary``,
``why``: why it is not verified or not made). A failing order: ``test``, ``line``, ``message``
(what pytest would print), ``racing`` (``step``, ``event``, ``url``, ``pair``), ``fault``
(``test`` or ``app``), ``reversal`` and ``parent`` (the failing order's id in the test's run, and
the id of the order it was reversed from, which the test passes), ``confirmation`` (plain
Chromium under the slow response: ``status``, ``url``, ``delay_ms``, ``original``, ``fixed``),
``fix`` (the test's) and, on the first order that is the app's fault, ``regression``: the race as
tests against the live app (``pytest``, ``playwright_test``: paths relative to ``RUN``, in
``RUN/tests/<test>/regression/``), or ``why`` there are none.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from webr4.deflake.report import write_deflake_report

_UNSAFE = re.compile(r"[^\w.-]+")


def test_dir(run: Path, nodeid: str) -> Path:
    """The directory of one test's run under ``run``."""
    return run / "tests" / _UNSAFE.sub("-", nodeid).strip("-")


def write_json(path: Path, value: Any) -> None:
    """Write ``value`` as JSON through a temporary name, so that a full disk leaves no half file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(value, indent=1, ensure_ascii=False), encoding="utf-8")
    os.replace(partial, path)


def write_entry(run: Path, entry: dict[str, Any]) -> None:
    write_json(test_dir(run, entry["test"]) / "deflake.json", entry)


def read_entry(run: Path, nodeid: str) -> dict[str, Any] | None:
    """The entry ``run`` holds for the test ``nodeid``, or ``None`` when it has not judged it
    (an entry is written whole, once the test is judged)."""
    path = test_dir(run, nodeid) / "deflake.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def gather(run: Path, nodeids: list[str]) -> dict[str, Any]:
    """The run's summary from the entries of ``nodeids`` written so far (in that order), and
    ``RUN/summary.json`` and ``RUN/fix.diff`` written from them. Its ``status`` is ``finished``
    when every test has its entry, else ``interrupted``; ``pending`` lists the tests without one."""
    entries, pending = [], []
    for nodeid in nodeids:
        entry = read_entry(run, nodeid)
        if entry is None:
            pending.append(nodeid)
        else:
            entries.append(entry)
    summary = {"status": "interrupted" if pending else "finished", "tests": entries, "pending": pending,
               "flaky": [order for entry in entries for order in entry.get("flaky", [])]}
    write_json(run / "summary.json", summary)
    diffs = [entry["fix"]["diff"] for entry in entries
             if entry.get("fix") and entry["fix"].get("verified") and entry["fix"].get("diff")]
    partial = run / "fix.diff.partial"
    partial.write_text("".join(diffs), encoding="utf-8")
    os.replace(partial, run / "fix.diff")
    write_deflake_report(run, summary)
    return summary
