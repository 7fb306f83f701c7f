"""A run's verdicts in the formats CI systems read: JUnit XML and SARIF 2.1.0.

Both writers read only ``RUN/summary.json`` (its schema is documented in
:mod:`webr4.sweep.explore`):

- :func:`write_junit` writes one ``testcase`` per explored reversal; a harmful reversal is a
  ``failure`` (racing events, location, differences, reasons, report page, replay command), an
  ``error`` verdict is an ``error``, an ``unrealised`` one (the planned order did not happen) is
  ``skipped``, every other verdict passes.
- :func:`write_sarif` writes one rule per reason code the results use and one result per
  harmful (level ``error``), heap-only (level ``warning``) or unrealised (level ``note``)
  reversal, located at the source sites of the two racing accesses.

Every one of them states the reversal's :func:`headline`: the order that ran and how far it is
from the recorded timing, or the order that was planned and why it did not happen.

A run "has a harmful race" exactly when :func:`harmful` is not empty; ``webr4 export`` and the
pytest plugin fail on that. A run that has not finished (:func:`status`) is refused by both
unless asked for: its verdicts are partial.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from webr4 import __version__
from webr4.classify.differences import differences_line, differences_lines
from webr4.report.source import split_site
from webr4.errors import Webr4Error

Reversal = dict[str, Any]
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_LEVELS = {"harmful": "error", "heap-only": "warning", "unrealised": "note"}
ROLES = ("ran first in the parent sequence", "ran first after the reversal")  # the two racing events
UNREALISED_ROLES = ("ran first in the parent sequence", "planned to run first, but did not")
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


class SummaryError(Webr4Error, ValueError):
    """The run directory holds no readable ``summary.json``."""


def load_summary(run_dir: Path) -> dict[str, Any]:
    """The parsed ``run_dir/summary.json``; :class:`SummaryError` with a one-line reason otherwise."""
    path = run_dir / "summary.json"
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SummaryError(f"{run_dir} holds no summary.json: not a run directory") from None
    except OSError as error:
        raise SummaryError(f"cannot read {path}: {error.strerror}") from None
    except ValueError as error:
        raise SummaryError(f"{path} is not valid JSON ({error})") from None
    reversals = summary.get("reversals") if isinstance(summary, dict) else None
    if not isinstance(reversals, list) or not all(isinstance(r, dict) and "id" in r and "verdict" in r
                                                  for r in reversals):
        raise SummaryError(f"{path} is not a webr4 run summary (no list of reversals with id and verdict)")
    return summary


def status(summary: dict[str, Any]) -> str:
    """``running``, ``interrupted`` or ``finished``; a summary from before webr4 recorded its status
    counts as finished."""
    value = summary.get("status", "finished")
    return value if isinstance(value, str) else "unknown"


def unfinished_reason(run_dir: Path, summary: dict[str, Any]) -> str | None:
    """Why the run in ``run_dir`` cannot be trusted as complete (one line), or ``None`` when it finished."""
    state = status(summary)
    if state == "finished":
        return None
    explored = summary.get("sequences_explored", "?")
    how = {"running": "is still running, or its process was killed",
           "interrupted": "was interrupted"}.get(state, f"has status {state!r}")
    return (f"the sweep in {run_dir} {how} after {explored} sequence(s): its verdicts are partial; "
            "finish it with --resume")


def harmful(summary: dict[str, Any]) -> list[Reversal]:
    """The harmful reversals of a run, in the order they were explored."""
    return [r for r in summary["reversals"] if r["verdict"] == "harmful"]


def report_page(reversal: Reversal) -> str:
    """The reversal's page of the HTML report, relative to the run directory."""
    return f"report/reversal-{reversal['id']}.html"


def replay_command(run_dir: Path, reversal: Reversal) -> str:
    return shlex.join(["webr4", "replay", str(run_dir), str(reversal["id"])])


def _events(reversal: Reversal) -> list[dict[str, Any]]:
    """The two racing events (``id``, ``label``, ``site``), from ``events`` or the older keys."""
    events = reversal.get("events")
    if isinstance(events, list) and events:
        return [e for e in events if isinstance(e, dict)]
    return [{"id": reversal.get(f"{which}_id"), "label": reversal.get(which), "site": None}
            for which in ("first", "second") if reversal.get(which)]


def _differences(reversal: Reversal) -> str:
    return differences_line(reversal.get("differences") or {})


def _locations(reversal: Reversal) -> list[str]:
    """Every location the two events race on, most visible first (``location`` in older runs)."""
    locations = reversal.get("locations")
    if isinstance(locations, list) and locations:
        return [str(location) for location in locations]
    return [str(reversal["location"])] if reversal.get("location") else []


def title(reversal: Reversal) -> str:
    """One line: the reversal, its two events and the location they race on."""
    labels = " vs ".join(str(e.get("label")) for e in _events(reversal)) or "order of events"
    return f"reversal {reversal['id']}: {labels} on {reversal.get('location') or 'an unknown location'}"


def _roles(reversal: Reversal) -> tuple[str, str]:
    """What each racing event did, in words: never that the reversal ran first when it did not."""
    return UNREALISED_ROLES if reversal.get("unrealised") else ROLES


def headline(reversal: Reversal) -> str:
    """What ran, in one line: ``click on #add ran before parse chunk 1/1 (click on #add came
    0.2 ms earlier, before parse chunk 1/1)``, or for a planned order that did not happen
    ``planned click on #add before parse chunk 1/1, but click on #add … ran after parse chunk 1/1``."""
    labels = [str(e.get("label")) for e in _events(reversal)]
    first, second = (labels + ["an event", "an event"])[:2]
    if reversal.get("unrealised"):
        return f"planned {second} before {first}, but {reversal['unrealised']}"
    timing = f" ({reversal['timing']})" if reversal.get("timing") else ""
    return f"{second} ran before {first}{timing}"


def in_words(run_dir: Path, reversal: Reversal) -> str:
    """What a person needs to act on one reversal: events and their sites, location, reasons,
    differences, report page and replay command; several lines."""
    lines = [f"{title(reversal)} [{reversal['verdict']}: {', '.join(reversal.get('reasons') or []) or 'no reason'}]",
             f"  {headline(reversal)}"]
    for role, event in zip(_roles(reversal), _events(reversal)):
        lines.append(f"  {event.get('label')} ({role}) at {event.get('site') or 'an unknown site'}")
    if len(_locations(reversal)) > 1:
        lines.append(f"  both touch: {', '.join(_locations(reversal))}")
    lines.extend(f"  {line}" for line in differences_lines(reversal.get("differences") or {}) or ["no difference"])
    lines.append(f"  report: {run_dir / report_page(reversal)}")
    lines.append(f"  replay: {replay_command(run_dir, reversal)}")
    return "\n".join(lines)


def _xml_text(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot hold (a site's labels may contain any)."""
    return _NOT_XML.sub("\ufffd", text)


def junit_tree(run_dir: Path, summary: dict[str, Any]) -> ET.ElementTree:
    """The JUnit XML document of a run: ``testsuites`` holding one ``testsuite``."""
    reversals = summary["reversals"]
    counts = {
        "tests": str(len(reversals)),
        "failures": str(sum(r["verdict"] == "harmful" for r in reversals)),
        "errors": str(sum(r["verdict"] == "error" for r in reversals)),
        "skipped": str(sum(r["verdict"] == "unrealised" for r in reversals)),
        "time": str(summary.get("seconds", 0)),
    }
    site = _xml_text(str(summary.get("site") or summary.get("url") or ""))
    root = ET.Element("testsuites", {"name": "webr4", **counts})
    suite = ET.SubElement(root, "testsuite", {"name": f"webr4 {site}".strip(), **counts})
    properties = ET.SubElement(suite, "properties")
    for key in ("site", "bound", "strategy", "status", "parse_chunks", "seed_events", "races_uncovered",
                "sequences_explored", "truncated"):
        value = summary.get(key)
        ET.SubElement(properties, "property", {"name": key, "value": "" if value is None else _xml_text(str(value))})
    for reversal in reversals:
        case = ET.SubElement(suite, "testcase", {"classname": site or "webr4", "name": _xml_text(title(reversal))})
        verdict, reasons = reversal["verdict"], ", ".join(reversal.get("reasons") or [])
        words = _xml_text(in_words(run_dir, reversal))
        if verdict in ("harmful", "error"):
            tag = "failure" if verdict == "harmful" else "error"
            message = f"{verdict}: {reasons}"
            if verdict == "harmful" and reversal.get("differences"):
                message += f"; {differences_line(reversal['differences'], per_category=1)}"
            outcome = ET.SubElement(case, tag, {"type": verdict, "message": _xml_text(message)})
            outcome.text = words
        elif verdict == "unrealised":
            ET.SubElement(case, "skipped", {"message": _xml_text(f"order not realised: {headline(reversal)}")})
            ET.SubElement(case, "system-out").text = words
        else:
            ET.SubElement(case, "system-out").text = words
    ET.indent(root)
    return ET.ElementTree(root)


def write_junit(run_dir: Path, path: Path) -> Path:
    """Write the JUnit XML of the run in ``run_dir`` to ``path``; return ``path``."""
    tree = junit_tree(run_dir, load_summary(run_dir))
    path.parent.mkdir(parents=True, exist_ok=True)
    tree.write(path, encoding="utf-8", xml_declaration=True)
    return path


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


def _result(run_dir: Path, reversal: Reversal, rule_index: dict[str, int]) -> dict[str, Any]:
    reasons = list(reversal.get("reasons") or [reversal["verdict"]])
    logical = [{"name": name, "kind": "variable"} for name in _locations(reversal) or [""]]
    logical[0]["fullyQualifiedName"] = str(reversal.get("location_key") or "")
    events = _events(reversal)
    located = [loc for number, (event, role) in enumerate(zip(events, _roles(reversal)))
               if (loc := _location(event, number, role, logical)) is not None]
    race = "\n".join([str(reversal.get("location_key"))] + [str(e.get("label")) for e in events])
    return {
        "ruleId": reasons[0],
        "ruleIndex": rule_index[reasons[0]],
        "level": SARIF_LEVELS[reversal["verdict"]],
        "message": {"text": f"{_kind_in_words(reversal['verdict'])}, {title(reversal)} "
                            f"({', '.join(reasons)}); {headline(reversal)}; differences: {_differences(reversal)}; "
                            f"report: {report_page(reversal)}; replay: {replay_command(run_dir, reversal)}"},
        "locations": located[:1] or [{"logicalLocations": logical}],
        "relatedLocations": located[1:],
        "partialFingerprints": {"webr4Race/v1": hashlib.sha256(race.encode()).hexdigest()[:32]},
        "properties": {"reversal": reversal["id"], "verdict": reversal["verdict"], "reasons": reasons,
                       "differences": reversal.get("differences") or {}, "report": report_page(reversal),
                       "witness": reversal.get("witness"), "replay": replay_command(run_dir, reversal),
                       "unrealised": reversal.get("unrealised"), "timing": reversal.get("timing"),
                       "timing_ms": reversal.get("timing_ms")},
    }


def sarif_log(run_dir: Path, summary: dict[str, Any]) -> dict[str, Any]:
    """The SARIF 2.1.0 log of a run (one ``run``)."""
    reported = [r for r in summary["reversals"] if r["verdict"] in SARIF_LEVELS]
    verdicts = {code: r["verdict"] for r in reported for code in r.get("reasons") or [r["verdict"]]}
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
            "properties": {key: summary.get(key) for key in ("site", "bound", "strategy", "status", "parse_chunks",
                                                             "counts", "truncated")},
        }],
    }


def write_sarif(run_dir: Path, path: Path) -> Path:
    """Write the SARIF log of the run in ``run_dir`` to ``path``; return ``path``."""
    log = sarif_log(run_dir, load_summary(run_dir))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(log, indent=1, ensure_ascii=False), encoding="utf-8")
    return path
