"""A campaign's overview and its verdicts for CI, from ``campaign.json`` and each entry's run.

- :func:`write_campaign_report` writes ``RUN/report/index.html``: a row per entry with its
  status, verdicts and confirmations, linked to the entry's own report.
- :func:`write_campaign_junit` writes one JUnit document holding a ``testsuite`` per entry (each
  as :func:`~webr4.report.ci.junit_suite` writes a run's), and :func:`write_campaign_sarif` one
  SARIF log holding a ``run`` per entry (each as :func:`~webr4.report.ci.sarif_log` writes it,
  told apart by ``automationDetails.id``: ``webr4/<name>/``). An entry that has no summary yet
  (not run, or failed before its sweep began) is a JUnit ``error`` and a SARIF run whose
  invocation did not succeed.

Nothing here starts a browser; names and sources come from the user and are escaped by Jinja2.
"""

from __future__ import annotations

import json
import os
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from webr4.report.ci import JUNIT_COUNTS, SARIF_SCHEMA, junit_suite, sarif_log
from webr4.report.run_view import VERDICTS
from webr4.resources import resource_dir
from webr4.rundir.campaign import FAILED, FINISHED, INTERRUPTED, RUNNING, Campaign, CampaignDir, CampaignEntry
from webr4.rundir.outputs import write_atomically
from webr4.rundir.summary import Summary, SummaryError


def entry_summary(directory: Path, entry: CampaignEntry) -> Summary | None:
    """The summary of ``entry``'s run in the campaign ``directory``; None before its sweep began."""
    try:
        return CampaignDir(directory).run(entry).read_summary()
    except SummaryError:
        return None


def unfinished_campaign(directory: Path, campaign: Campaign) -> str | None:
    """Why the campaign in ``directory`` cannot be trusted as complete (one line), or None."""
    left = [entry.name for entry in campaign.entries if entry.status != FINISHED]
    if not left:
        return None
    how = {RUNNING: "is still running, or its process was killed", INTERRUPTED: "was interrupted",
           FAILED: "ran to its end, but not every entry could run"}.get(campaign.status, f"is {campaign.status}")
    return (f"the campaign in {directory} {how}: {len(left)} of its {len(campaign.entries)} entries unfinished "
            f"({', '.join(left)}), its verdicts are partial; finish it with --resume")


def write_campaign_report(directory: Path) -> Path:
    """Write the overview of the campaign in ``directory``; return the path of its index page."""
    files = CampaignDir(directory)
    campaign = files.read()
    out = files.report
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(resource_dir("reports") / "report.css", out / "report.css")
    seen = {verdict for entry in campaign.entries for verdict in entry.counts}
    verdicts = list(VERDICTS) + sorted(seen - set(VERDICTS))
    links = {entry.name: os.path.relpath(directory / entry.report, out) if entry.report else None
             for entry in campaign.entries}
    env = Environment(loader=FileSystemLoader(resource_dir("reports")), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True)
    page = files.report_page()
    page.write_text(env.get_template("campaign.html.j2").render(
        campaign=campaign, verdicts=verdicts, links=links, unfinished=unfinished_campaign(directory, campaign),
        harmful=sum(entry.harmful > 0 for entry in campaign.entries)), encoding="utf-8")
    return page


def campaign_junit(directory: Path, campaign: Campaign) -> ET.ElementTree:
    """The JUnit XML document of a campaign: ``testsuites`` holding a ``testsuite`` per entry."""
    root = ET.Element("testsuites", {"name": f"webr4 campaign {campaign.source}"})
    for entry in campaign.entries:
        summary = entry_summary(directory, entry)
        if summary is not None:
            root.append(junit_suite(directory / entry.run, summary, entry.name))
        else:
            root.append(_unrun_suite(entry))
    totals = {key: sum(float(suite.get(key) or 0) for suite in root) for key in JUNIT_COUNTS}
    root.attrib.update({key: f"{value:g}" for key, value in totals.items()})
    ET.indent(root)
    return ET.ElementTree(root)


def _unrun_suite(entry: CampaignEntry) -> ET.Element:
    """The ``testsuite`` of an entry that has no sweep to show: one ``error`` saying why."""
    suite = ET.Element("testsuite", {"name": entry.name, "tests": "1", "failures": "0", "errors": "1",
                                     "skipped": "0", "time": "0"})
    case = ET.SubElement(suite, "testcase", {"classname": entry.source, "name": f"{entry.name}: run"})
    why = entry.error if entry.status == FAILED and entry.error else f"not run ({entry.status})"
    ET.SubElement(case, "error", {"type": entry.status, "message": why}).text = f"{entry.source}: {why}"
    return suite


def write_campaign_junit(directory: Path, path: Path) -> Path:
    """Write the JUnit XML of the campaign in ``directory`` to ``path``; return ``path``."""
    tree = campaign_junit(directory, CampaignDir(directory).read())
    return write_atomically(path, lambda temporary: tree.write(temporary, encoding="utf-8", xml_declaration=True))


def campaign_sarif(directory: Path, campaign: Campaign) -> dict[str, Any]:
    """The SARIF 2.1.0 log of a campaign: a ``run`` per entry."""
    runs = []
    for entry in campaign.entries:
        summary = entry_summary(directory, entry)
        if summary is not None:
            run = sarif_log(directory / entry.run, summary)["runs"][0]
        else:
            why = entry.error if entry.status == FAILED and entry.error else f"not run ({entry.status})"
            run = {"tool": {"driver": {"name": "webr4"}}, "results": [],
                   "invocations": [{"executionSuccessful": False,
                                    "toolExecutionNotifications": [{"message": {"text": why}, "level": "error"}]}]}
        run["automationDetails"] = {"id": f"webr4/{entry.name}/"}
        run.setdefault("properties", {}).update(entry=entry.name, source=entry.source, run=entry.run)
        runs.append(run)
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": runs}


def write_campaign_sarif(directory: Path, path: Path) -> Path:
    """Write the SARIF log of the campaign in ``directory`` to ``path``; return ``path``."""
    log = campaign_sarif(directory, CampaignDir(directory).read())
    return write_atomically(path, json.dumps(log, indent=1, ensure_ascii=False))

