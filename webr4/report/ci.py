"""A run's verdicts in the formats CI systems read: JUnit XML and SARIF 2.1.0.

Both writers read only ``RUN/summary.json``, through :meth:`webr4.rundir.run.RunDir.read_summary`:

- :func:`write_junit` writes one ``testcase`` per explored reversal; a harmful reversal is a
  ``failure`` (racing events, location, differences, reasons, report page, replay command), an
  ``error`` verdict is an ``error``, an ``unrealised`` one (the planned order did not happen) is
  ``skipped``, every other verdict passes.
- :func:`write_sarif` writes one rule per reason code the results use and one result per
  harmful (level ``error``), heap-only (level ``warning``) or unrealised (level ``note``)
  reversal, located at the source sites of the two racing accesses.

Every one of them states the reversal's :func:`headline`: the order that ran and how far it is
from the recorded timing, or the order that was planned and why it did not happen.

A run "has a harmful race" exactly when :meth:`Summary.harmful <webr4.rundir.summary.Summary.harmful>`
is not empty; ``webr4 export`` and the pytest plugin fail on that. A run that has not finished
(:func:`unfinished_reason`) is refused by both unless asked for: its verdicts are partial.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from webr4.version import __version__
from webr4.classify.differences import differences_line, differences_lines
from webr4.engine.describe import waiting_words
from webr4.report.source import split_site
from webr4.rundir.outputs import write_atomically
from webr4.rundir.run import RunDir
from webr4.rundir.summary import FINISHED, ReversalReport, Summary

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_LEVELS = {"harmful": "error", "heap-only": "warning", "unrealised": "note"}
ROLES = ("ran first in the parent sequence", "ran first after the reversal")  # the two racing events
UNREALISED_ROLES = ("ran first in the parent sequence", "planned to run first, but did not")
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def unfinished_reason(run_dir: Path, summary: Summary) -> str | None:
    """Why the run in ``run_dir`` cannot be trusted as complete (one line), or ``None`` when it finished."""
    if summary.status == FINISHED:
        return None
    how = {"running": "is still running, or its process was killed",
           "interrupted": "was interrupted"}.get(summary.status, f"has status {summary.status!r}")
    return (f"the sweep in {run_dir} {how} after {summary.sequences} sequence(s): its verdicts are partial; "
            "finish it with --resume")


def report_page(reversal: ReversalReport) -> str:
    """The reversal's page of the HTML report, relative to the run directory."""
    return RunDir(Path()).report_page(reversal.id).as_posix()


def replay_command(run_dir: Path, reversal: ReversalReport) -> str:
    return shlex.join(["webr4", "replay", str(run_dir), str(reversal.id)])


def title(reversal: ReversalReport) -> str:
    """One line: the reversal, its two events and the location they race on."""
    labels = " vs ".join(_event_words(e) for e in reversal.events) or "order of events"
    return f"reversal {reversal.id}: {labels} on {reversal.location or 'an unknown location'}"


def _event_words(event: dict[str, Any]) -> str:
    """One of a reversal's two events in words: its label, and what it waits for (a parse chunk)."""
    return waiting_words(str(event.get("label")), event.get("waits_for"))


def _roles(reversal: ReversalReport) -> tuple[str, str]:
    """What each racing event did, in words: never that the reversal ran first when it did not."""
    return UNREALISED_ROLES if reversal.unrealised else ROLES


def headline(reversal: ReversalReport) -> str:
    """What ran, in one line: ``click on #add ran before parse chunk 1/1 (click on #add came
    0.2 ms earlier, before parse chunk 1/1)``, for a planned order that did not happen
    ``planned click on #add before parse chunk 1/1, but click on #add … ran after parse chunk 1/1``,
    and for an execution that failed ``planned …, but the reversal's execution failed: …``."""
    labels = [_event_words(e) for e in reversal.events]
    first, second = (labels + ["an event", "an event"])[:2]
    if reversal.failure or reversal.unrealised:
        return f"planned {second} before {first}, but {reversal.failure or reversal.unrealised}"
    timing = f" ({reversal.timing})" if reversal.timing else ""
    return f"{second} ran before {first}{timing}"


def in_words(run_dir: Path, reversal: ReversalReport) -> str:
    """What a person needs to act on one reversal: events and their sites, location, reasons,
    differences, its confirmation in plain Chromium (when checked), report page and replay
    command; several lines."""
    lines = [f"{title(reversal)} [{reversal.verdict}: {', '.join(reversal.reasons) or 'no reason'}]",
             f"  {headline(reversal)}"]
    for role, event in zip(_roles(reversal), reversal.events):
        lines.append(f"  {event.get('label')} ({role}) at {event.get('site') or 'an unknown site'}")
    if len(reversal.locations) > 1:
        lines.append(f"  both touch: {', '.join(reversal.locations)}")
    lines.extend(f"  {line}" for line in differences_lines(reversal.differences) or ["no difference"])
    if reversal.confirmation:
        lines.append(f"  confirmation: {reversal.confirmation['status']}: {reversal.confirmation['line']}")
    lines.append(f"  report: {run_dir / report_page(reversal)}")
    lines.append(f"  replay: {replay_command(run_dir, reversal)}")
    return "\n".join(lines)


def _confirmation_words(reversal: ReversalReport) -> str:
    """``; confirmation: STATUS: LINE`` when the reversal was checked in plain Chromium, else ""."""
    confirmation = reversal.confirmation
    return f"; confirmation: {confirmation['status']}: {confirmation['line']}" if confirmation else ""


def xml_text(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot hold (a site's labels may contain any)."""
    return _NOT_XML.sub("\ufffd", text)


JUNIT_COUNTS = ("tests", "failures", "errors", "skipped", "time")
"""The counts a ``testsuite`` carries, and ``testsuites`` their sums."""


def junit_tree(run_dir: Path, summary: Summary) -> ET.ElementTree:
    """The JUnit XML document of a run: ``testsuites`` holding one ``testsuite``."""
    suite = junit_suite(run_dir, summary)
    root = ET.Element("testsuites", {"name": "webr4", **{key: suite.get(key, "") for key in JUNIT_COUNTS}})
    root.append(suite)
    ET.indent(root)
    return ET.ElementTree(root)


def junit_suite(run_dir: Path, summary: Summary, name: str | None = None) -> ET.Element:
    """The ``testsuite`` of a run, a ``testcase`` per reversal; ``name`` (default: ``webr4 URL``)."""
    reversals = summary.reversals
    counts = {
        "tests": str(len(reversals)),
        "failures": str(sum(r.verdict == "harmful" for r in reversals)),
        "errors": str(sum(r.verdict == "error" for r in reversals)),
        "skipped": str(sum(r.verdict == "unrealised" for r in reversals)),
        "time": str(summary.seconds),
    }
    site = xml_text(summary.url)
    written = summary.to_json()
    suite = ET.Element("testsuite", {"name": xml_text(name) if name else f"webr4 {site}".strip(), **counts})
    properties = ET.SubElement(suite, "properties")
    for key in ("site", "bound", "strategy", "status", "parse_chunks", "seed_events", "races_uncovered",
                "sequences_explored", "truncated"):
        value = written.get(key)
        ET.SubElement(properties, "property", {"name": key, "value": "" if value is None else xml_text(str(value))})
    for reversal in reversals:
        _junit_case(suite, run_dir, reversal, site)
    return suite


def _junit_case(suite: ET.Element, run_dir: Path, reversal: ReversalReport, site: str) -> None:
    case = ET.SubElement(suite, "testcase", {"classname": site or "webr4", "name": xml_text(title(reversal))})
    verdict, reasons = reversal.verdict, ", ".join(reversal.reasons)
    words = xml_text(in_words(run_dir, reversal))
    if verdict in ("harmful", "error"):
        tag = "failure" if verdict == "harmful" else "error"
        message = f"{verdict}: {reasons}"
        if verdict == "harmful" and reversal.differences:
            message += f"; {differences_line(reversal.differences, per_category=1)}"
        if reversal.confirmation:
            message += _confirmation_words(reversal)
        outcome = ET.SubElement(case, tag, {"type": verdict, "message": xml_text(message)})
        outcome.text = words
    elif verdict == "unrealised":
        ET.SubElement(case, "skipped", {"message": xml_text(f"order not realised: {headline(reversal)}")})
        ET.SubElement(case, "system-out").text = words
    else:
        ET.SubElement(case, "system-out").text = words


def write_junit(run_dir: Path, path: Path) -> Path:
    """Write the JUnit XML of the run in ``run_dir`` to ``path``; return ``path``."""
    tree = junit_tree(run_dir, RunDir(run_dir).read_summary())
    return write_atomically(path, lambda temporary: tree.write(temporary, encoding="utf-8", xml_declaration=True))


def _rule(code: str, verdict: str) -> dict[str, Any]:
    """The SARIF rule of a reason code, described by the classifier rule's docstring; ``verdict``
    stands in for the rule's kind when the classifier does not know the code."""
    from webr4.classify.rules import RULES

    rule = RULES.get(code)
    doc = " ".join((rule.test.__doc__ or "").split()) if rule else ""
    full = doc or f"Reversals judged with reason code {code}."
    kind = rule.kind if rule else verdict
    return {
        "id": code,
        "name": "".join(part.capitalize() for part in code.split("-")),
        "shortDescription": {"text": full.split(". ")[0].rstrip(".") + "."},
        "fullDescription": {"text": full},
        "defaultConfiguration": {"level": SARIF_LEVELS.get(kind, "note")},
        "properties": {"verdict": kind},
    }


def _location(event: dict[str, Any], number: int, role: str, logical: list[dict[str, str]]) -> dict[str, Any] | None:
    """A SARIF location for the racing access of ``event``; ``None`` when its site is unknown."""
    parsed = split_site(event["site"]) if isinstance(event.get("site"), str) else None
    if parsed is None:
        return None
    uri, line, column = parsed
    return {
        "id": number,
        "physicalLocation": {"artifactLocation": {"uri": uri},
                             "region": {"startLine": max(line, 1), "startColumn": max(column, 1)}},
        "logicalLocations": logical,
        "message": {"text": f"{event.get('label')} ({role})"},
    }


def _kind_in_words(verdict: str) -> str:
    return "Planned reversal not realised" if verdict == "unrealised" else f"{verdict.capitalize()} event race"


def _result(run_dir: Path, reversal: ReversalReport, rule_index: dict[str, int]) -> dict[str, Any]:
    reasons = reversal.reasons or [reversal.verdict]
    logical = [{"name": name, "kind": "variable"} for name in reversal.locations or [""]]
    logical[0]["fullyQualifiedName"] = reversal.location_key
    events = reversal.events
    located = [loc for number, (event, role) in enumerate(zip(events, _roles(reversal)))
               if (loc := _location(event, number, role, logical)) is not None]
    race = "\n".join([reversal.location_key] + [str(e.get("label")) for e in events])
    return {
        "ruleId": reasons[0],
        "ruleIndex": rule_index[reasons[0]],
        "level": SARIF_LEVELS[reversal.verdict],
        "message": {"text": f"{_kind_in_words(reversal.verdict)}, {title(reversal)} "
                            f"({', '.join(reasons)}); {headline(reversal)}; "
                            f"differences: {differences_line(reversal.differences)}; "
                            f"report: {report_page(reversal)}; replay: {replay_command(run_dir, reversal)}"
                            + _confirmation_words(reversal)},
        "locations": located[:1] or [{"logicalLocations": logical}],
        "relatedLocations": located[1:],
        "partialFingerprints": {"webr4Race/v1": hashlib.sha256(race.encode()).hexdigest()[:32]},
        "properties": {"reversal": reversal.id, "verdict": reversal.verdict, "reasons": reasons,
                       "differences": reversal.differences, "report": report_page(reversal),
                       "witness": reversal.witness, "replay": replay_command(run_dir, reversal),
                       "failure": reversal.failure, "unrealised": reversal.unrealised, "timing": reversal.timing,
                       "timing_ms": reversal.timing_ms, "confirmation": reversal.confirmation_status},
    }


def sarif_log(run_dir: Path, summary: Summary) -> dict[str, Any]:
    """The SARIF 2.1.0 log of a run (one ``run``)."""
    reported = [r for r in summary.reversals if r.verdict in SARIF_LEVELS]
    verdicts = {code: r.verdict for r in reported for code in r.reasons or [r.verdict]}
    written = summary.to_json()
    codes = sorted(verdicts)
    rule_index = {code: i for i, code in enumerate(codes)}
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "webr4", "version": __version__,
                                "rules": [_rule(c, verdicts[c]) for c in codes]}},
            "columnKind": "unicodeCodePoints",
            "results": [_result(run_dir, r, rule_index) for r in reported],
            "properties": {key: written.get(key) for key in ("site", "bound", "strategy", "status", "parse_chunks",
                                                             "counts", "truncated")},
        }],
    }


def write_sarif(run_dir: Path, path: Path) -> Path:
    """Write the SARIF log of the run in ``run_dir`` to ``path``; return ``path``."""
    log = sarif_log(run_dir, RunDir(run_dir).read_summary())
    return write_atomically(path, json.dumps(log, indent=1, ensure_ascii=False))
