"""Every module does one job, and none is over 500 lines: webr4's Python and the JavaScript it
injects (the runtime and the logs are split into parts, joined when injected)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 500


def test_no_module_is_over_500_lines() -> None:
    modules = [*(ROOT / "webr4").rglob("*.py"), *(ROOT / "instrument_js").rglob("*.js")]
    assert modules
    too_long = {str(path.relative_to(ROOT)): lines for path in modules
                if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LIMIT}
    assert too_long == {}
