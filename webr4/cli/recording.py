"""``webr4 record``: a session recorded, and nothing else imported: neither the sweep, the
classifier nor the report, which recording never uses (``tests/cli/test_startup.py`` holds it to
that)."""

from __future__ import annotations

from pathlib import Path

import click

from webr4.cli.options import WEB_URL, execution_limits, record_options
from webr4.cli.inputs import session_steps
from webr4.cli.work import with_driver
from webr4.record.session import record
from webr4.rundir.summary import blocked_service_workers_line


@click.command("record")
@click.argument("url", type=WEB_URL)
@click.option("--out", "out_dir", type=click.Path(path_type=Path), required=True, help="New session directory.")
@record_options
def record_command(url: str, out_dir: Path, actions: Path | None, script: Path | None, pace: float | None,
                   auto: int | None, seed: int, horizon: float, max_events: int, event_timeout: float,
                   parse_chunks: str, chunk_kb: int, step_wait: float, block_service_workers: bool) -> None:
    """Record a session of URL: the seed every exploration replays."""
    steps = session_steps(url, actions, script, pace, auto, seed)
    limits = execution_limits(horizon, max_events, event_timeout, parse_chunks, chunk_kb, step_wait,
                              block_service_workers)
    session = with_driver(lambda driver: record(driver, url, out_dir, steps, seed=seed, limits=limits))
    trace = session.seed_trace()
    click.echo(f"recorded {len(trace.steps)} events of {url} into {out_dir}")
    if limits.service_workers == "block" and trace.service_workers:
        click.echo(blocked_service_workers_line(trace.service_workers))
