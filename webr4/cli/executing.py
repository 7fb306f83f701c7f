"""``webr4 run``: one execution under control, its trace and final state written to a directory."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import click

from webr4.browser.limits import Limits
from webr4.browser.actions import UserAction
from webr4.browser.responses import ResponseStore
from webr4.cli.failures import Failure
from webr4.cli.options import WEB_URL, execution_limits, limit_options
from webr4.cli.inputs import load_actions, load_plan, load_store
from webr4.cli.work import with_driver
from webr4.execution import Execution
from webr4.rundir.execution_files import ExecutionFiles
from webr4.rundir.summary import blocked_service_workers_line
from webr4.state.categories import compared_state
from webr4.state.snapshot import StateSnapshot


@click.command("run")
@click.argument("url", type=WEB_URL)
@click.option("--out", "out_dir", type=click.Path(path_type=Path), required=True,
              help="Directory for trace.json, state.json, network.har (and screenshot.png).")
@click.option("--sequence", type=click.Path(path_type=Path, dir_okay=False),
              help="JSON list of event ids to execute in order (or a trace.json); default schedule otherwise.")
@click.option("--actions", type=click.Path(path_type=Path, dir_okay=False),
              help='JSON list of user steps, e.g. [{"click": "#add"}, {"wait": 500}].')
@click.option("--network", type=click.Path(path_type=Path, dir_okay=False),
              help="Serve the network from this HAR file instead of the live site.")
@click.option("--seed", default=0, show_default=True, help="Seed for Math.random and crypto.getRandomValues.")
@click.option("--screenshot/--no-screenshot", default=True, show_default=True)
@limit_options
def run_command(url: str, out_dir: Path, sequence: Path | None, actions: Path | None, network: Path | None,
                seed: int, screenshot: bool, horizon: float, max_events: int, event_timeout: float,
                parse_chunks: str, chunk_kb: int, step_wait: float, block_service_workers: bool) -> None:
    """Execute URL once under control and write its trace and final state to --out."""
    plan = load_plan(sequence) if sequence else []
    steps = load_actions(actions) if actions else []
    store = load_store(network) if network else ResponseStore()
    limits = execution_limits(horizon, max_events, event_timeout, parse_chunks, chunk_kb, step_wait,
                              block_service_workers)
    execution = _run_once(url, plan, steps, store, live_network=network is None, seed=seed, screenshot=screenshot,
                          limits=limits)
    files = _write_execution(out_dir, execution, store)
    trace = execution.trace
    if trace.navigation is not None:
        ended = f"left the page for {trace.navigation.target}"
    else:
        ended = f"cut by {trace.truncated}" if trace.truncated else "nothing left pending"
    click.echo(f"{len(trace.steps)} events, {len(trace.skipped)} skipped, {len(trace.errors)} errors, {ended}")
    if limits.service_workers == "block" and trace.service_workers:
        click.echo(blocked_service_workers_line(trace.service_workers))
    click.echo(f"wrote {files.trace}")


def _run_once(url: str, plan: list[str], actions: list[UserAction], store: ResponseStore, *, live_network: bool,
              seed: int, screenshot: bool, limits: Limits) -> Execution:
    capture = replace(compared_state(), screenshot=screenshot)
    return with_driver(lambda driver: driver.execute(url, plan, capture=capture, actions=actions, store=store,
                                                     live_network=live_network, limits=limits, seed=seed))


def _write_execution(out_dir: Path, execution: Execution, store: ResponseStore) -> ExecutionFiles:
    files = ExecutionFiles(out_dir)
    try:
        files.write(execution.trace, StateSnapshot.from_execution(execution, execution.heap))
        store.save_har(files.network)
    except OSError as error:
        raise Failure(f"cannot write to {out_dir}: {error.strerror}") from None
    return files
