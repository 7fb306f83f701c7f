"""Speed of the access-logging rewriter on a synthetic script and, when ``make test`` has
installed them into its npm cache, on real libraries (jQuery, react-dom, Vue)."""

from __future__ import annotations

import time
from pathlib import Path

from benchmarks.section import Section
from webr4.instrument import rewrite

_UNIT = "function f(a) { var b = a.x + g.y; obj[a] = b; return b.c(d, e.f); }\n"
_NPM_CACHE = Path(__file__).resolve().parent.parent / ".pytest_cache" / "d" / "webr4-instrument-npm" / "node_modules"
_LIBRARIES = ("jquery/dist/jquery.js", "react-dom/umd/react-dom.production.min.js", "vue/dist/vue.global.js")


def _best_of(source: str, url: str, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        rewrite(source, url)
        times.append(time.perf_counter() - started)
    return min(times)


def measure() -> list[tuple[str, int, float]]:
    """(name, size in bytes, best-of-3 seconds) per input."""
    rows = [("synthetic", len(_UNIT * 4000), _best_of(_UNIT * 4000, "synthetic.js"))]
    for relative in _LIBRARIES:
        path = _NPM_CACHE / relative
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            rows.append((relative.split("/")[-1], len(text.encode()), _best_of(text, relative)))
    return rows


def table(rows: list[tuple[str, int, float]]) -> str:
    lines = ["| input | size (KB) | rewrite (s) | MB/s |", "|---|---:|---:|---:|"]
    lines += [f"| {name} | {size / 1024:.0f} | {seconds:.2f} | {size / seconds / 1e6:.2f} |" for name, size, seconds in rows]
    return "\n".join(lines)


def run(sites: list[Path]) -> Section:
    rows = measure()
    return Section("Access-logging rewriter", table(rows),
                   [{"input": n, "bytes": b, "seconds": s} for n, b, s in rows])
