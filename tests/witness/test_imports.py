"""The witness proves verdicts without webr4's harness: it never imports the browser harness,
the recorder, the sweep or the report (ARCHITECTURE.md's import rule)."""

from __future__ import annotations

import subprocess
import sys


def test_the_witness_imports_no_harness_recorder_sweep_or_report():
    probe = ("import sys, webr4.witness.confirm, webr4.witness.export, webr4.witness.plain; "
             "print(sorted(m for m in sys.modules if m.startswith("
             "('webr4.browser', 'webr4.record', 'webr4.sweep', 'webr4.report'))))")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"
