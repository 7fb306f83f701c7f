"""``webr4 deflake``: the failing event orders of existing Playwright tests, and verified fixes.

The tests run under pytest in this process, unchanged, with the webr4 plugin's
``--webr4-deflake`` (:mod:`webr4.deflake`); this command adds the exit status, the summary in
words and ``--apply``.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import logging
import shlex
import sys
from pathlib import Path
from typing import Any

import click

from webr4 import interrupts
from webr4.cli.failures import Failure, Interrupted
from webr4.cli.options import DURATION
from webr4.errors import Webr4Error

_NO_TESTS = (4, 5)  # pytest's usage error, no tests collected
_INTERRUPTED = 2  # pytest's exit status when interrupted
_QUIET = ("-p", "no:cacheprovider", "-p", "no:xdist", "-q",
          # webr4 is imported before pytest, so pytest cannot rewrite the asserts of its plugin; it has none
          "-W", "ignore:Module already imported so cannot be rewritten; webr4:pytest.PytestAssertRewriteWarning")


class _Collected:
    """A pytest plugin keeping the node ids a collection found, and the root they are relative to."""

    def __init__(self) -> None:
        self.nodeids: list[str] = []
        self.root = Path.cwd()

    def pytest_collection_finish(self, session: Any) -> None:
        self.nodeids = [item.nodeid for item in session.items]
        self.root = Path(session.config.rootpath)


def _collected(nodeids: tuple[str, ...]) -> _Collected:
    """Collect the tests first, pytest's words kept to ourselves: a node id that names no test is
    one line, before any browser starts."""
    import pytest

    said, found = io.StringIO(), _Collected()
    with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
        code = pytest.main([*nodeids, "--collect-only", *_QUIET], plugins=[found])
    if code in _NO_TESTS:
        why = next((line.strip() for line in said.getvalue().splitlines() if line.startswith("ERROR")), "")
        raise Failure(f"pytest found no test for {' '.join(nodeids)}{f' ({why})' if why else ''}; name tests as "
                      "pytest does: path/to/test_file.py::test_name")
    if code != 0:
        raise Failure(f"pytest could not collect {' '.join(nodeids)} (status {int(code)}); run pytest --collect-only "
                      "on them to see why")
    return found


@click.command("deflake")
@click.argument("nodeids", nargs=-1, required=True, metavar="NODEID...")
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=Path("runs/deflake"),
              show_default=True, help="Run directory: each test's run, summary.json and fix.diff.")
@click.option("--bound", type=click.IntRange(min=0), default=None,
              help="Conflict-reversal bound of each test's exploration  [default: 2]")
@click.option("--budget", type=DURATION, metavar="DURATION",
              help="Explore each test anytime for this long (90s, 5m): bound 1's reversals most likely to fail "
                   "it first, then deeper bounds up to --bound.")
@click.option("--apply", "apply_fixes", is_flag=True,
              help="Write every verified fix into its test file (only a file unchanged since the run).")
@click.option("--resume", is_flag=True,
              help="Continue the deflake run in --out: keep each test it has judged, deflake the others.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Executions of each test's sweep run at once, each worker process with a browser of its own.")
@click.option("--cluster", metavar="ADDRESS",
              help="Run the tests side by side on a Dask cluster, as many at once as it has workers, their "
                   "executions spread over it: tcp://HOST:PORT of its scheduler, or local:N to start N local "
                   "workers (needs webr4[cluster]).")
@click.option("--part", is_flag=True, hidden=True)  # one test of a side-by-side run: its entry, no summary
def deflake_command(nodeids: tuple[str, ...], out_dir: Path, bound: int | None, budget: float | None,
                    apply_fixes: bool, resume: bool, workers: int, cluster: str | None, part: bool) -> None:
    """Find the event orders that fail Playwright tests, and fixes proven to remove them."""
    out = out_dir.resolve()
    plugin = [*_plugin("deflake", out), *_plugin("bound", bound), *_plugin("budget", budget),
              *_plugin("workers", workers), *(["--webr4-resume"] if resume else [])]
    if part:  # the side-by-side run that started this process checked the run directory and the tests
        if _pytest([*nodeids, *plugin, *_plugin("cluster", cluster), "--webr4-part", *_QUIET]) == _INTERRUPTED:
            raise Interrupted("interrupted")
        raise SystemExit(0)
    summary_path = out / "summary.json"
    holds_run = summary_path.is_file() or any((out / "tests").glob("*/deflake.json"))
    if out.exists() and any(out.iterdir()) and not holds_run:
        raise Failure(f"{out_dir} is not empty and holds no deflake run; choose another --out")
    if holds_run and not resume:
        raise Failure(f"{out_dir} holds a deflake run already; continue it with --resume, or choose another --out")
    explored = [*_given("--bound", bound), *_given("--budget", None if budget is None else f"{budget:g}s")]
    again = [*explored, *_given("--workers", workers if workers != 1 else None), *_given("--cluster", cluster)]
    interrupted = (f"interrupted; the tests judged so far are kept in {out_dir}, continue with: "
                   + shlex.join(["webr4", "deflake", *nodeids, "--out", str(out_dir), *again, "--resume"]))
    collected = _collected(nodeids)
    summary_path.unlink(missing_ok=True)
    if cluster is None:
        code = _pytest([*nodeids, *plugin, *_QUIET])
        if code == _INTERRUPTED:
            raise Interrupted(interrupted)
        if not summary_path.is_file():
            raise Failure(f"pytest stopped with status {code} before any test was deflaked")
    else:
        _side_by_side(collected, out, cluster, explored, interrupted)
    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    _report(summary, out)
    if apply_fixes:
        _apply(summary, out)
    broken = [t for t in summary["tests"] if t["status"] in ("fails-alone", "error")]
    if broken:
        raise Failure(broken[0]["message"])
    raise SystemExit(1 if summary["flaky"] else 0)


def _side_by_side(collected: _Collected, out: Path, cluster: str, options: list[str], interrupted: str) -> None:
    """Deflake the tests not judged yet side by side on ``cluster``, each in a ``webr4 deflake
    --part`` process given ``options``; the run's summary gathered as each ends."""
    from webr4.deflake.results import gather, read_entry
    from webr4.deflake.sidebyside import PartEnd, deflake_side_by_side, log_path
    from webr4.sweep.hosting import hosted_cluster

    tests = collected.nodeids
    todo = [test for test in tests if read_entry(out, test) is None]
    lost: list[PartEnd] = []

    def ended(end: PartEnd) -> None:
        judged = gather(out, tests)["tests"]
        entry = read_entry(out, end.test)
        click.echo(f"[{len(judged)}/{len(tests)}] {end.test}: "
                   f"{entry['status'] if entry else f'not deflaked ({end.reason or end.status})'}", err=True)
        if entry is None:
            lost.append(end)

    if not todo:
        gather(out, tests)
        return
    try:
        with hosted_cluster(cluster) as hosted:
            click.echo(f"deflaking {len(todo)} test(s), {min(hosted.workers, len(todo))} at once on {cluster}",
                       err=True)

            def command(test: str) -> list[str]:
                return [sys.executable, "-m", "webr4", "deflake", f"{collected.root}/{test}", "--out", str(out),
                        "--resume", "--part", "--cluster", hosted.address, *options]

            deflake_side_by_side(todo, hosted.workers, command, out, ended)
    except KeyboardInterrupt:
        gather(out, tests)
        raise Interrupted(interrupted) from None
    except Webr4Error as error:  # the cluster cannot serve webr4
        raise Failure(str(error)) from None
    gather(out, tests)
    if lost:
        raise Failure(f"{lost[0].test} could not be deflaked: {lost[0].reason or f'status {lost[0].status}'}; "
                      f"its output is in {log_path(out, lost[0].test)}")


def _given(option: str, value: object) -> list[str]:
    """``option`` and ``value`` as command-line arguments, none when ``value`` is not given."""
    return [] if value is None else [option, str(value)]


def _plugin(name: str, value: object) -> list[str]:
    """The pytest plugin's ``--webr4-NAME`` option set to ``value``, none when it is not given."""
    return [] if value is None else [f"--webr4-{name}={value}"]


def _pytest(arguments: list[str]) -> int:
    """pytest's exit status for ``arguments``, run in this process; :data:`_INTERRUPTED` when a
    signal came, whatever pytest made of it."""
    import pytest

    try:
        code = pytest.main(arguments)
    except Exception:  # pytest's own teardown of a browser the signal took down with webr4
        if not interrupts.requested():
            raise
        code = _INTERRUPTED
    if code == _INTERRUPTED or interrupts.requested():
        # The test's own Playwright lost its driver to the signal: what its event loop still holds
        # would be reported as it is collected, after the one line.
        logging.getLogger("asyncio").setLevel(logging.CRITICAL)
        return _INTERRUPTED
    return int(code)


def _report(summary: dict[str, Any], out: Path) -> None:
    from webr4.deflake.words import in_words

    for entry in summary["tests"]:
        if entry["status"] == "stable":
            click.echo(f"{entry['test']}: no failing order in {entry['sequences']} explored")
        elif entry["status"] == "flaky":
            click.echo("\n".join(in_words(entry)))
    verified = [t for t in summary["tests"] if (t.get("fix") or {}).get("verified")]
    if verified:
        click.echo(f"{len(verified)} verified fix(es): {out / 'fix.diff'}")


def _apply(summary: dict[str, Any], out: Path) -> None:
    """Write each verified fix into its test file, when the file is still as the run read it."""
    for entry in summary["tests"]:
        fix = entry.get("fix") or {}
        if not fix.get("verified"):
            continue
        target, fixed = Path(fix["file"]), out / fix["fixed"]
        after = fixed.read_text(encoding="utf-8")
        current = target.read_text(encoding="utf-8")
        if current == after:
            continue
        if hashlib.sha256(current.encode("utf-8")).hexdigest() != fix["before_sha256"]:
            click.echo(f"not applied: {target} changed since the run; apply {fix['fixed']} by hand", err=True)
            continue
        target.write_text(after, encoding="utf-8")
        click.echo(f"applied: {target}")

