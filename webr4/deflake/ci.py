"""A deflake run's tests in the formats CI systems read: JUnit XML and SARIF 2.1.0, from
``RUN/summary.json`` alone (:mod:`webr4.deflake.results`), for ``webr4 export``.

- JUnit: one ``testcase`` per test, named by its node id. A test that an explored order fails is a
  ``failure`` (its failing orders and its fix, in words); one that fails alone, or that webr4 could
  not deflake, is an ``error``; one no order fails passes.
- SARIF: one result per race that fails a test (its failing orders alike: one line, one racing
  pair, one fault, one plain-Chromium word), located at the test's failing line. Its rule says
  whose fault it is: the test's (it acts or reads before the page gets there) or the app's too
  (what the user did is lost).

Neither starts a browser or imports Playwright.
"""

from __future__ import annotations

import hashlib
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from webr4.deflake.words import alike, in_words, representative
from webr4.errors import Webr4Error
from webr4.report.ci import SARIF_SCHEMA, xml_text
from webr4.rundir.outputs import write_atomically
from webr4.version import __version__

RULES = {
    "test": ("deflake-test-order", "A test's step or read comes before the page event it needs; the test's fault: "
                                   "the app gets there a little later, and the test should wait for it."),
    "app": ("deflake-app-race", "A test's step comes before the page event it races, and what the user did is lost "
                                "or the page ends otherwise; the app's fault too: a change to the test is a stopgap."),
}
"""The SARIF rule of each fault (``id``, description)."""


class NotDeflakeRun(Webr4Error):
    """A directory holds no deflake run's summary that can be read."""


def is_deflake_run(directory: Path) -> bool:
    """Whether ``directory`` holds a deflake run's summary (``summary.json`` with its ``tests``)."""
    try:
        return "tests" in _read(directory)
    except NotDeflakeRun:
        return False


def read_summary(directory: Path) -> dict[str, Any]:
    """The deflake run's summary in ``directory``; :class:`NotDeflakeRun` when there is none."""
    summary = _read(directory)
    if not isinstance(summary.get("tests"), list):
        raise NotDeflakeRun(f"{directory} holds no deflake run")
    return summary


def _read(directory: Path) -> dict[str, Any]:
    try:
        summary = json.loads((directory / "summary.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise NotDeflakeRun(f"{directory}/summary.json cannot be read: {error}") from None
    if not isinstance(summary, dict):
        raise NotDeflakeRun(f"{directory}/summary.json is not a run's summary")
    return summary


def unfinished_reason(directory: Path, summary: dict[str, Any]) -> str | None:
    """Why the deflake run in ``directory`` is partial (one line), or ``None`` when it finished."""
    pending = summary.get("pending") or []
    if summary.get("status", "finished") == "finished" and not pending:
        return None
    return (f"the deflake run in {directory} was interrupted with {len(pending)} test(s) not judged: its verdicts are "
            f"partial; finish it with webr4 deflake … --out {directory} --resume")


def junit_tree(summary: dict[str, Any]) -> ET.ElementTree:
    """The JUnit XML document of a deflake run: ``testsuites`` holding one ``testsuite``."""
    tests = summary["tests"]
    counts = {"tests": str(len(tests)),
              "failures": str(sum(t["status"] == "flaky" for t in tests)),
              "errors": str(sum(t["status"] in ("fails-alone", "error") for t in tests)),
              "skipped": "0", "time": "0"}
    root = ET.Element("testsuites", {"name": "webr4 deflake", **counts})
    suite = ET.SubElement(root, "testsuite", {"name": "webr4 deflake", **counts})
    for test in tests:
        file, _, name = test["test"].partition("::")
        case = ET.SubElement(suite, "testcase", {"classname": xml_text(file), "name": xml_text(name or file)})
        if test["status"] == "flaky":
            orders = test["flaky"]
            failure = ET.SubElement(case, "failure", {
                "type": "flaky", "message": xml_text(f"fails in {len(orders)} of {test['sequences']} explored orders: "
                                                  f"line {orders[0]['line']}: {orders[0]['message']}")})
            failure.text = xml_text("\n".join(in_words(test)))
        elif test["status"] != "stable":
            ET.SubElement(case, "error", {"type": test["status"], "message": xml_text(test.get("message", ""))})
        else:
            ET.SubElement(case, "system-out").text = f"no failing order in {test['sequences']} explored"
    ET.indent(root)
    return ET.ElementTree(root)


def sarif_log(summary: dict[str, Any]) -> dict[str, Any]:
    """The SARIF 2.1.0 log of a deflake run (one ``run``)."""
    faults = sorted({order["fault"] for test in summary["tests"] for order in test["flaky"]})
    index = {fault: number for number, fault in enumerate(faults)}
    results = [_result(test, orders, index) for test in summary["tests"] for orders in alike(test["flaky"])]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "webr4 deflake", "version": __version__,
                                "rules": [_rule(fault) for fault in faults]}},
            "results": results,
            "properties": {"status": summary.get("status", "finished"), "tests": len(summary["tests"]),
                           "flaky": sum(t["status"] == "flaky" for t in summary["tests"])},
        }],
    }


def _rule(fault: str) -> dict[str, Any]:
    rule_id, words = RULES[fault]
    return {"id": rule_id, "name": "".join(part.capitalize() for part in rule_id.split("-")),
            "shortDescription": {"text": words.split("; ")[0] + "."}, "fullDescription": {"text": words},
            "defaultConfiguration": {"level": "error"}, "properties": {"fault": fault}}


def _result(test: dict[str, Any], orders: list[dict[str, Any]], index: dict[str, int]) -> dict[str, Any]:
    order = representative(orders)
    racing, proof, fix = order["racing"], order["confirmation"], test.get("fix") or {}
    file = test["test"].partition("::")[0]
    more = f" (and {len(orders) - 1} more order(s) with this race)" if len(orders) > 1 else ""
    fixed = (f"; fix ({'verified' if fix.get('verified') else 'not verified'}): {fix['summary']}"
             if fix.get("summary") else "")
    race = "\n".join([test["test"], str(order["line"]), racing["words"], order["fault"]])
    return {
        "ruleId": RULES[order["fault"]][0],
        "ruleIndex": index[order["fault"]],
        "level": "error",
        "message": {"text": f"{test['test']} fails at line {order['line']}: {order['message']}{more}; "
                            f"{racing['words']}; plain Chromium with {racing.get('url') or 'no slow response'} slow: "
                            f"{proof['status']}{fixed}"},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": file},
                                            "region": {"startLine": max(int(order["line"] or 1), 1)}}}],
        "partialFingerprints": {"webr4Deflake/v1": hashlib.sha256(race.encode()).hexdigest()[:32]},
        "properties": {"test": test["test"], "run": test.get("run"), "reversal": order.get("reversal"),
                       "fault": order["fault"], "confirmation": proof["status"], "orders": len(orders),
                       "regression": order.get("regression"), "fix_verified": bool(fix.get("verified"))},
    }


def write_junit(directory: Path, path: Path) -> Path:
    """Write the JUnit XML of the deflake run in ``directory`` to ``path``; return ``path``."""
    tree = junit_tree(read_summary(directory))
    return write_atomically(path, lambda temporary: tree.write(temporary, encoding="utf-8", xml_declaration=True))


def write_sarif(directory: Path, path: Path) -> Path:
    """Write the SARIF log of the deflake run in ``directory`` to ``path``; return ``path``."""
    return write_atomically(path, json.dumps(sarif_log(read_summary(directory)), indent=1, ensure_ascii=False))
