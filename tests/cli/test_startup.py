"""The command line starts light: ``--version`` and ``--help`` import none of the commands (the
browser, the sweep and the report take a second or more to import), and the command list that
``--help`` shows without importing them says what each command's own help says."""

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


@pytest.mark.parametrize("option", ["--version", "--help"])
def test_version_and_help_import_no_command(option):
    probe = ("import sys, json\nfrom webr4.interrupts import main\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
             f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", probe, option], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert json.loads(done.stderr.splitlines()[-1]) == []
    assert "webr4" in done.stdout


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_command_list_says_what_each_command_says(name):
    command = main.get_command(None, name)  # type: ignore[arg-type]
    assert command is not None and command.name == name
    assert (command.help or "").splitlines()[0] == COMMANDS[name].summary
