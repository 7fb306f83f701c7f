"""``webr4 campaign``: every flow of a suite checked in one command, each into a run of its own,
with one overview, one exit status and one pair of CI files (:mod:`webr4.campaign`).

It is a command of its own rather than a form of ``check``: ``check`` records one URL with one
set of steps (``--actions``, ``--script``, ``--auto``) into one run, while a campaign takes its
pages and steps from its source and writes a directory of runs.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from webr4.campaign.run import CampaignOptions, run_campaign
from webr4.campaign.sources import SourceError, read_source
from webr4.cli.explore_options import explore_options, settle_conflicts
from webr4.cli.failures import Failure
from webr4.cli.options import execution_limits, limit_options
from webr4.cli.sweeping import SweepOutputs, resume_command, sweep_options
from webr4.cli.work import interruptible
from webr4.report.campaign import write_campaign_junit, write_campaign_sarif
from webr4.rundir.campaign import FAILED, Campaign, CampaignDir
from webr4.runlock import RunInUse, claim
from webr4.sweep.progress import Bar, JsonLines, Progress, Quiet


@click.command("campaign")
@click.argument("source", metavar="SOURCE", type=click.Path(path_type=Path))
@click.option("--out", "out_dir", type=click.Path(path_type=Path), required=True,
              help="Campaign directory: campaign.json, each entry's run in RUN/sessions/NAME, the overview in "
                   "RUN/report/index.html.")
@click.option("--seed", default=0, show_default=True,
              help="Seed for Math.random and crypto.getRandomValues of the entries recorded.")
@limit_options
@explore_options
def campaign_command(source: Path, out_dir: Path, seed: int, horizon: float, max_events: int, event_timeout: float,
                     parse_chunks: str, chunk_kb: int, step_wait: float, block_service_workers: bool,
                     **sweep: Any) -> None:
    """Check every entry of SOURCE, each into a run of its own, and write one overview.

    SOURCE is a directory of recorded sessions (or check runs) and of actions files holding
    {"url": ..., "actions": [...]}, or a text file of lines 'URL [ACTIONS_FILE]' (# begins a
    comment). The limits apply to the entries recorded. With --cluster, entries run side by side
    on it. Exits with status 1 when an entry has a harmful reversal, 2 when an entry could not
    be run.
    """
    try:
        entries = read_source(source)
    except SourceError as error:
        raise click.UsageError(str(error)) from None
    _refuse_foreign(out_dir, sweep["resume"])
    resume = resume_command()
    mode = sweep["progress"] or ("bar" if sys.stderr.isatty() else "quiet")
    options, _, outputs = sweep_options(out_dir, keep=(out_dir,), **settle_conflicts(sweep))
    limits = execution_limits(horizon, max_events, event_timeout, parse_chunks, chunk_kb, step_wait,
                              block_service_workers)
    given = CampaignOptions(options, seed=seed, limits=limits,
                            progress=lambda name, side_by_side: _progress(mode, name, side_by_side))
    campaign = interruptible(lambda: run_campaign(str(source), entries, out_dir, given, resume=options.resume),
                             out_dir, resume)
    _close(campaign, out_dir, outputs, resume)


def _refuse_foreign(out_dir: Path, resume: bool) -> None:
    """Write a campaign only into a new or empty directory, or with ``--resume`` into one holding a
    campaign; hold it for the rest of the command (:func:`~webr4.runlock.claim`)."""
    if out_dir.exists() and not out_dir.is_dir():
        raise Failure(f"--out {out_dir} is a file; choose a directory")
    if not out_dir.is_dir():
        return
    try:
        click.get_current_context().with_resource(claim(out_dir))
    except RunInUse as error:
        raise Failure(str(error)) from None
    files = CampaignDir(out_dir)
    if files.is_campaign() and not resume:
        raise Failure(f"{out_dir} already holds a campaign; add --resume to finish it, or choose another --out")
    if not files.is_campaign() and any(out_dir.iterdir()):
        raise Failure(f"--out {out_dir} is not empty and is not a webr4 campaign; choose a new or empty directory")


def _progress(mode: str, name: str, side_by_side: bool) -> Progress:
    """An entry's reporter: JSON lines tagged with its name; a bar of its own, under a line naming
    it, when entries run one after another (bars of entries side by side would overwrite each other)."""
    if mode == "json":
        return JsonLines(tags={"entry": name})
    if mode == "bar":
        click.echo(f"{name}: started" if side_by_side else f"{name}:", err=True)
        return Quiet() if side_by_side else Bar()
    return Quiet()


def _close(campaign: Campaign, out_dir: Path, outputs: SweepOutputs, resume: str) -> None:
    """The campaign's closing lines (an entry's each) and its CI files; status 2 when an entry
    failed, else 1 when an entry has a harmful reversal (a confirmed one with ``--fail-on
    confirmed``)."""
    for entry in campaign.entries:
        click.echo(entry.line(), err=outputs.to_stderr)
    found = [e for e in campaign.entries if (e.confirmed if outputs.fail_on == "confirmed" else e.harmful)]
    click.echo(f"campaign: {len(found)} of {len(campaign.entries)} entries with a "
               f"{'confirmed' if outputs.fail_on == 'confirmed' else 'harmful'} race", err=outputs.to_stderr)
    click.echo(f"report: {CampaignDir(out_dir).report_page()}", err=outputs.to_stderr)
    for path, write in ((outputs.junit, write_campaign_junit), (outputs.sarif, write_campaign_sarif)):
        if path is not None:
            try:
                click.echo(f"wrote {write(out_dir, path)}", err=outputs.to_stderr)
            except OSError as error:
                raise Failure(f"cannot write {path}: {error.strerror}; choose another path") from None
    failed = [entry.name for entry in campaign.entries if entry.status == FAILED]
    if failed:
        raise Failure(f"{len(failed)} of {len(campaign.entries)} entries failed ({', '.join(failed)}: see above); "
                      f"once fixed, continue with: {resume}")
    if found:
        raise SystemExit(1)
