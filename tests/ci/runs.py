"""Run directories written by hand: a ``summary.json`` as :mod:`webr4.sweep.explore` writes it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def reversal(id: int, verdict: str, reasons: list[str], *, sites: tuple[str | None, str | None] = (None, None),
             labels: tuple[str, str] = ("XHR GET /a.json load", "XHR GET /b.json load"),
             location: str = "#price.textContent") -> dict[str, Any]:
    """One reversal as ``summary.json`` lists it."""
    return {
        "id": id, "index": id, "parent": 0, "depth": 1, "first": labels[0], "second": labels[1],
        "first_id": f"e{id}a", "second_id": f"e{id}b", "location": location, "location_key": f"key:{location}",
        "verdict": verdict, "reasons": reasons, "locations": [location],
        "differences": {"dom": ['#price: "$39.00" → "$49.00"']} if reasons else {},
        "skipped": 0, "sequence": [],
        "events": [{"id": f"e{id}a", "label": labels[0], "site": sites[0]},
                   {"id": f"e{id}b", "label": labels[1], "site": sites[1]}],
        "witness": f"reversals/{id}",
    }


def write_run(directory: Path, reversals: list[dict[str, Any]], status: str = "finished") -> Path:
    """A run directory holding only ``summary.json`` with ``reversals``, its sweep in ``status``."""
    directory.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    for r in reversals:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    summary = {"url": "http://127.0.0.1:8765/two-xhr/", "site": "http://127.0.0.1:8765/two-xhr/", "bound": 1,
               "strategy": "r4", "seed_events": 8, "races_uncovered": len(reversals), "sequences": len(reversals) + 1,
               "sequences_explored": len(reversals) + 1, "status": status,
               "stop_reason": "exhausted" if status == "finished" else None, "truncated": None,
               "seconds": 3.5, "noise": [], "counts": counts, "session": str(directory / "session"),
               "reversals": reversals}
    (directory / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    return directory
