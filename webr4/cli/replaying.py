"""The commands that run a finished run's reversals again: ``replay`` one under webr4, keep its
``witness`` in plain Chromium (both start a browser; ``report`` and ``export`` are in
:mod:`webr4.cli.reporting`, which starts none)."""

from __future__ import annotations

from pathlib import Path

import click

from webr4.classify.differences import MAX_ITEMS, differences_line
from webr4.cli.failures import Failure
from webr4.cli.work import run, with_driver
from webr4.rundir.outputs import Output, OutputError, check_outputs
from webr4.sweep.regression import Keep, export_witness
from webr4.sweep.replay import ReplayError, find_reversal, replay_reversal, write_traces
from webr4.witness.export import trace_paths


@click.command("replay", context_settings={"ignore_unknown_options": True})  # ID -1 is an ID, not an option
@click.argument("run_dir", metavar="RUN", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.argument("reversal_id", metavar="ID", type=int)
@click.option("--traces", "traces_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Instead of replaying, write both stored traces to DIR/parent/trace.json and DIR/child/trace.json.")
def replay_command(run_dir: Path, reversal_id: int, traces_dir: Path | None) -> None:
    """Re-execute both sequences of reversal ID and check that the difference reproduces."""
    try:
        if traces_dir is not None:
            for path in write_traces(run_dir, reversal_id, traces_dir):
                click.echo(f"wrote {path}")
            return
        outcome = with_driver(lambda driver: replay_reversal(driver, run_dir, reversal_id), run_dir)
    except ReplayError as error:
        raise click.UsageError(str(error)) from None
    except OSError as error:
        raise Failure(f"cannot write the traces in {traces_dir}: {error.strerror}") from None
    click.echo(f"reported:  {_differences_in_words(outcome.reported)}")
    click.echo(f"replayed:  {_differences_in_words(outcome.now)}")
    click.echo("reproduced" if outcome.reproduced else "NOT reproduced")
    confirmation = find_reversal(run_dir, reversal_id)[1].confirmation
    if confirmation:
        click.echo(f"confirmation: {confirmation['status']}: {confirmation['line']}")
    if not outcome.reproduced:
        raise SystemExit(1)


@click.command("witness")
@click.argument("run_dir", metavar="RUN", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.argument("reversal_id", metavar="ID", type=int)
@click.option("--pytest", "pytest_file", type=click.Path(path_type=Path, dir_okay=False),
              help="Write a pytest-playwright test of the race against the live app (--base-url, else the "
                   "recorded origin): it fails while the race is there and passes once the app is fixed.")
@click.option("--playwright-test", "spec_file", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the same test for Playwright Test in TypeScript (NAME.spec.ts; baseURL, else the "
                   "recorded origin).")
@click.option("--offline", is_flag=True,
              help="Write --pytest in its recorded form instead: every response served from the HAR copied "
                   "beside it (for pages whose third-party responses cannot be reached); it cannot see a fix.")
@click.option("--trace", "trace_file", type=click.Path(path_type=Path, dir_okay=False),
              help="Write Playwright traces of both orders in plain Chromium: the reversed one here, the "
                   "parent's beside it (NAME-parent.zip); open them with 'playwright show-trace'.")
@click.option("--force", is_flag=True, help="Replace existing files that webr4 did not write.")
def witness_command(run_dir: Path, reversal_id: int, pytest_file: Path | None, spec_file: Path | None,
                    offline: bool, trace_file: Path | None, force: bool) -> None:
    """Keep reversal ID's race as plain Chromium shows it, without webr4: tests and traces."""
    if pytest_file is None and spec_file is None and trace_file is None:
        raise click.UsageError("give --pytest FILE, --playwright-test FILE, --trace FILE or several")
    if offline and pytest_file is None:
        raise click.UsageError("--offline is a form of --pytest FILE: give it too")
    outputs = []
    if pytest_file is not None and pytest_file.suffix != ".py":
        raise click.UsageError(f"--pytest {pytest_file} must end in .py: pytest collects only .py files")
    if spec_file is not None and not spec_file.name.endswith((".spec.ts", ".test.ts")):
        raise click.UsageError(f"--playwright-test {spec_file} must end in .spec.ts or .test.ts: "
                               "Playwright Test collects only those")
    if pytest_file is not None:
        outputs.append(Output("--pytest", pytest_file, "pytest"))
        if offline:
            outputs.append(Output("--pytest", pytest_file.with_suffix(".har"), "har"))
    if spec_file is not None:
        outputs.append(Output("--playwright-test", spec_file, "spec"))
    if trace_file is not None:
        outputs += [Output("--trace", path, "trace") for path in reversed(trace_paths(trace_file))]
    try:
        check_outputs(outputs, keep=[run_dir], force=force)
    except OutputError as error:
        raise click.UsageError(str(error)) from None
    keep = Keep(pytest=pytest_file, playwright_test=spec_file, offline=offline, trace=trace_file)
    for path in run(lambda: export_witness(run_dir, reversal_id, keep)):
        click.echo(f"wrote {path}")


def _differences_in_words(differences: dict[str, list[str]]) -> str:
    return differences_line(differences, per_category=MAX_ITEMS) if differences else "no difference"
