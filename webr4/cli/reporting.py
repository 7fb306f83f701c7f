"""The commands that read a finished run and start no browser: write its ``report``, ``export``
its verdicts for CI. Either takes a campaign's directory too (``campaign.json``): its overview,
each entry's report, one JUnit and one SARIF file for all of its entries. Neither imports
Playwright (a test keeps it so)."""

from __future__ import annotations

import sqlite3
import webbrowser
from collections.abc import Callable
from pathlib import Path

import click

from webr4.cli.failures import Failure
from webr4.deflake import ci as deflake_ci
from webr4.deflake.report import write_deflake_report
from webr4.report import ci
from webr4.report.campaign import (entry_summary, unfinished_campaign, write_campaign_junit, write_campaign_report,
                                   write_campaign_sarif)
from webr4.report.write import write_report
from webr4.rundir.campaign import CampaignDir, CampaignError
from webr4.rundir.outputs import Output, OutputError, check_outputs
from webr4.rundir.run import RunDir
from webr4.rundir.store import StoreError, damaged
from webr4.rundir.summary import Summary, SummaryError


@click.command("report")
@click.argument("run_dir", metavar="RUN", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.option("--open", "open_page", is_flag=True, help="Open the report in the default browser.")
def report_command(run_dir: Path, open_page: bool) -> None:
    """Write the HTML report of the run directory RUN to RUN/report/index.html."""
    try:
        if deflake_ci.is_deflake_run(run_dir):
            page = write_deflake_report(run_dir, deflake_ci.read_summary(run_dir))
        elif CampaignDir(run_dir).is_campaign():
            page = _write_campaign_reports(run_dir)
        else:
            page = write_report(run_dir)
    except (SummaryError, CampaignError) as error:
        raise click.UsageError(str(error)) from None
    except StoreError as error:
        raise Failure(str(error)) from None
    except sqlite3.DatabaseError as error:  # found damaged only where it was read
        raise Failure(str(damaged(RunDir(run_dir).store, error))) from None
    except OSError as error:
        raise Failure(f"cannot write the report in {run_dir}: {error.strerror}") from None
    click.echo(f"report: {page}")
    if open_page and not webbrowser.open(page.resolve().as_uri()):
        click.echo(f"note: no browser to open the report with here; open {page} in one", err=True)


@click.command("export")
@click.argument("run_dir", metavar="RUN", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.option("--junit", type=click.Path(path_type=Path, dir_okay=False), help="Write JUnit XML here.")
@click.option("--sarif", type=click.Path(path_type=Path, dir_okay=False), help="Write SARIF 2.1.0 here.")
@click.option("--force", is_flag=True, help="Replace an existing --junit or --sarif file that webr4 did not write.")
@click.option("--allow-unfinished", is_flag=True,
              help="Export a sweep that is still running or was interrupted (its verdicts are partial).")
def export_command(run_dir: Path, junit: Path | None, sarif: Path | None, force: bool, allow_unfinished: bool) -> None:
    """Write the verdicts of RUN for CI; exit status 1 when RUN has a harmful race.

    A sweep that has not finished is refused (status 2) unless --allow-unfinished is given. RUN
    may be a campaign: its JUnit file holds a testsuite per entry, its SARIF file a run per entry.
    It may be a deflake run: a testcase per test, a SARIF result per race that fails one.
    """
    try:
        check_outputs([Output(option, path, option.removeprefix("--"))
                       for option, path in (("--junit", junit), ("--sarif", sarif)) if path is not None],
                      keep=[run_dir], force=force)
    except OutputError as error:
        raise click.UsageError(str(error)) from None
    if deflake_ci.is_deflake_run(run_dir):
        _export_deflake(run_dir, junit, sarif, allow_unfinished)
        return
    try:
        campaign = CampaignDir(run_dir).read() if CampaignDir(run_dir).is_campaign() else None
        summary = RunDir(run_dir).read_summary() if campaign is None else None
    except (SummaryError, CampaignError) as error:
        raise click.UsageError(str(error)) from None
    if campaign is not None:
        _export((("--junit", junit, write_campaign_junit), ("--sarif", sarif, write_campaign_sarif)), run_dir,
                allow_unfinished, unfinished_campaign(run_dir, campaign))
        found = 0
        for entry in campaign.entries:
            found += _harmful_in_words(run_dir / entry.run, entry_summary(run_dir, entry), f"{entry.name}: ")
    else:
        assert summary is not None
        _export((("--junit", junit, ci.write_junit), ("--sarif", sarif, ci.write_sarif)), run_dir, allow_unfinished,
                ci.unfinished_reason(run_dir, summary))
        found = _harmful_in_words(run_dir, summary)
    if found:
        raise SystemExit(1)


def _export(writers: tuple[tuple[str, Path | None, Callable[[Path, Path], Path]], ...], run_dir: Path,
            allow_unfinished: bool, unfinished: str | None) -> None:
    """Write the files ``writers`` name (option, path, writer) for the run or campaign ``run_dir``,
    unless it is ``unfinished`` and that is not allowed."""
    if unfinished and not allow_unfinished:
        raise Failure(f"{unfinished}, or pass --allow-unfinished")
    if unfinished:
        click.echo(f"warning: {unfinished}", err=True)
    for option, path, write in writers:
        if path is not None:
            try:
                click.echo(f"wrote {write(run_dir, path)}")
            except OSError as error:
                raise click.BadParameter(f"cannot write {path}: {error.strerror}", param_hint=option) from None


def _export_deflake(run_dir: Path, junit: Path | None, sarif: Path | None, allow_unfinished: bool) -> None:
    """Export the deflake run in ``run_dir``; exit status 1 when an explored order fails one of its tests."""
    from webr4.deflake.words import in_words

    summary = deflake_ci.read_summary(run_dir)
    _export((("--junit", junit, deflake_ci.write_junit), ("--sarif", sarif, deflake_ci.write_sarif)), run_dir,
            allow_unfinished, deflake_ci.unfinished_reason(run_dir, summary))
    flaky = [test for test in summary["tests"] if test["status"] == "flaky"]
    click.echo(f"{len(flaky)} of {len(summary['tests'])} tests can fail")
    for test in flaky:
        click.echo("\n".join(in_words(test)))
    if flaky:
        raise SystemExit(1)


def _harmful_in_words(run_dir: Path, summary: Summary | None, entry: str = "") -> int:
    """Say how many of the run's reversals are harmful (``entry``: the campaign entry's name and a
    colon), and each of those in words; return how many."""
    found = summary.harmful() if summary is not None else []
    click.echo(f"{entry}{len(found)} harmful of {len(summary.reversals) if summary else 0} reversals")
    for reversal in found:
        click.echo(ci.in_words(run_dir, reversal))
    return len(found)


def _write_campaign_reports(directory: Path) -> Path:
    """Write the report of every entry of the campaign in ``directory`` that has a run, then its
    overview; return the overview's path."""
    files = CampaignDir(directory)
    for entry in files.read().entries:
        if entry_summary(directory, entry) is not None:
            write_report(files.run(entry).directory)
    return write_campaign_report(directory)
