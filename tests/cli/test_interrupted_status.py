"""The status of an interrupted ``python -m webr4`` is 130 wherever the interrupt landed,
including inside code CPython compiled from a string (a dataclass's generated methods, while the
command line is imported): there CPython remembers the interrupt as unhandled and, under ``-m``,
would end the process by SIGINT after webr4 said "interrupted"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = '''
import webr4.cli
from webr4.__main__ import main

def command_line(**options):  # as a signal landing in a dataclass's generated __init__
    exec("raise KeyboardInterrupt")

webr4.cli.main = command_line
main()
'''


def test_an_interrupt_inside_string_compiled_code_still_ends_with_status_130(tmp_path):
    (tmp_path / "interrupted_in_exec.py").write_text(PROGRAM)
    done = subprocess.run([sys.executable, "-m", "interrupted_in_exec"], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])})
    assert (done.returncode, done.stderr) == (130, "interrupted\n")
