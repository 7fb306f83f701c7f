"""The command line starts light: ``--version`` and ``--help`` import none of the commands (the
browser, the sweep and the report take a second or more to import), and the command list that
``--help`` shows without importing them says what each command's own help says; ``record`` imports
what recording needs and not the sweep, the classifier, the report or the state comparison."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from webr4.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("playwright", "webr4.browser.driver", "webr4.sweep.explore", "webr4.report.write", "webr4.checking")
NOT_RECORDING = ("webr4.checking", "webr4.sweep.explore", "webr4.sweep.confirm", "webr4.report", "webr4.classify",
                 "webr4.engine", "webr4.witness", "deepdiff", "jinja2", "rich")
"""What sweeping, judging and reporting import, and a recording never runs."""


def _imported(probe: str, modules: tuple[str, ...], *args: str) -> tuple[list[str], str]:
    """Which of ``modules`` a new Python process has imported after running ``probe`` (given
    ``args``), and what it printed on stdout."""
    report = f"import sys, json\nprint(json.dumps([m for m in {modules!r} if m in sys.modules]), file=sys.stderr)"
    code = f"{probe}\n{report}"
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    return json.loads(done.stderr.splitlines()[-1]), done.stdout


@pytest.mark.parametrize("option", ["--version", "--help"])
def test_version_and_help_import_no_command(option):
    probe = "from webr4.__main__ import main\ntry:\n    main()\nexcept SystemExit:\n    pass"
    imported, printed = _imported(probe, HEAVY, option)
    assert imported == []
    assert "webr4" in printed


def test_record_imports_no_sweep_judge_or_report():
    probe = ("from importlib import import_module\nfrom webr4.cli import COMMANDS\n"
             "import_module(COMMANDS['record'].module)")
    assert _imported(probe, NOT_RECORDING)[0] == []


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_command_list_says_what_each_command_says(name):
    command = main.get_command(None, name)  # type: ignore[arg-type]
    assert command is not None and command.name == name
    assert (command.help or "").splitlines()[0] == COMMANDS[name].summary
