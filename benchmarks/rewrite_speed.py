"""Speed of the access-logging rewriter on a synthetic script and on real libraries (jQuery,
react-dom's production and 1 MB development builds, Vue), taken from the npm cache the tests use;
when that cache is missing the benchmark installs the same package versions into it with npm
(and leaves the libraries out, saying so, when npm or the registry is not there).

Then, per app of the real-app corpus (:mod:`benchmarks.real_apps`, when its packages are
installed), the seconds it takes to rewrite every script file the app's page loads, one after
the other in this process: what a recording of the app adds for rewriting before the rewrite
cache has any of it.

``python -m benchmarks.rewrite_speed --against REVISION`` compares this checkout's rewriter with
git ``REVISION``'s on the libraries and on the largest script of each corpus app: rounds of one
rewrite per input, the two revisions taking turns in fresh interpreters, best round of each."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.corpora import APPS_DIR, LIBRARIES, ensure_libraries, load_apps
from benchmarks.section import Section
from webr4.instrument import rewrite
from webr4.instrument.chunks import split_into_chunks

_UNIT = "function f(a) { var b = a.x + g.y; obj[a] = b; return b.c(d, e.f); }\n"
_LIBRARIES = ("jquery/dist/jquery.js", "react-dom/umd/react-dom.production.min.js",
              "react-dom/umd/react-dom.development.js", "vue/dist/vue.global.js")


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
    ensure_libraries()
    for relative in _LIBRARIES:
        path = LIBRARIES / relative
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            rows.append((relative.split("/")[-1], len(text.encode()), _best_of(text, relative)))
    return rows


def app_scripts(app_dir: Path) -> list[Path]:
    """The script files ``app_dir/index.html`` loads as JavaScript, in document order."""
    base = "http://app.test/"
    document = split_into_chunks((app_dir / "index.html").read_text(encoding="utf-8"), base, "m")
    return [app_dir / url.removeprefix(base).split("?")[0] for url in document.blocking_scripts if url.startswith(base)]


def measure_apps() -> list[tuple[str, int, int, float]]:
    """(app, script files, bytes, best-of-3 seconds to rewrite them all) per app of the installed
    corpus; empty when the corpus is not installed (``python -m benchmarks --only real_apps`` does)."""
    rows = []
    for app in load_apps().apps:
        scripts = [path for path in app_scripts(APPS_DIR / app.name) if path.is_file()] if APPS_DIR.is_dir() else []
        if not scripts:
            continue
        sources = [(path.read_text(encoding="utf-8", errors="replace"), path.name) for path in scripts]
        seconds = min(_timed_all(sources) for _ in range(3))
        rows.append((app.name, len(scripts), sum(len(text.encode()) for text, _ in sources), seconds))
    return rows


def _timed_all(sources: list[tuple[str, str]]) -> float:
    started = time.perf_counter()
    for text, name in sources:
        rewrite(text, name)
    return time.perf_counter() - started


def table(rows: list[tuple[str, int, float]]) -> str:
    lines = ["| input | size (KB) | rewrite (s) | MB/s |", "|---|---:|---:|---:|"]
    lines += [f"| {name} | {size / 1024:.0f} | {seconds:.2f} | {size / seconds / 1e6:.2f} |"
              for name, size, seconds in rows]
    return "\n".join(lines)


def apps_table(rows: list[tuple[str, int, int, float]]) -> str:
    if not rows:
        return "Real-app corpus not installed: its rewrite times are not measured."
    lines = ["| app | script files | size (KB) | rewrite, all files (s) |", "|---|---:|---:|---:|"]
    lines += [f"| {name} | {count} | {size / 1024:.0f} | {seconds:.2f} |" for name, count, size, seconds in rows]
    return "\n".join(lines)


def run(sites: list[Path]) -> Section:
    rows = measure()
    apps = measure_apps()
    return Section("Access-logging rewriter", table(rows) + "\n\n" + apps_table(apps),
                   {"inputs": [{"input": n, "bytes": b, "seconds": s} for n, b, s in rows],
                    "apps": [{"app": a, "scripts": c, "bytes": b, "seconds": s} for a, c, b, s in apps]})


_ROOT = Path(__file__).resolve().parent.parent
_TIME_REWRITES = """
import json, sys, time
from webr4.instrument.rewrite import rewrite
rewrite("var warm = up;", "warm.js")  # builds the parser
seconds = {}
for path in json.load(sys.stdin):
    source = open(path, encoding="utf-8").read()
    started = time.perf_counter()
    rewrite(source, path)
    seconds[path] = time.perf_counter() - started
json.dump(seconds, sys.stdout)
"""


def comparison_inputs() -> list[Path]:
    """The libraries and, per installed corpus app, the largest script its page loads."""
    ensure_libraries()
    inputs = [LIBRARIES / relative for relative in _LIBRARIES if (LIBRARIES / relative).is_file()]
    for app in load_apps().apps:
        if not (APPS_DIR / app.name / "index.html").is_file():
            continue
        scripts = [path for path in app_scripts(APPS_DIR / app.name) if path.is_file()]
        if scripts:
            inputs.append(max(scripts, key=lambda path: path.stat().st_size))
    return inputs


def compare(revision: str, inputs: list[Path], rounds: int) -> list[tuple[Path, float, float]]:
    """(input, best seconds at ``revision``, best seconds here) per input, over ``rounds`` rounds in
    which the two revisions take turns."""
    with tempfile.TemporaryDirectory(prefix="webr4-rewrite-speed-") as scratch:
        archive = subprocess.run(["git", "-C", str(_ROOT), "archive", revision, "webr4"], capture_output=True,
                                 check=False)
        if archive.returncode != 0:
            raise SystemExit(f"rewrite_speed: cannot read revision {revision}: {archive.stderr.decode().strip()}")
        subprocess.run(["tar", "-x", "-C", scratch], input=archive.stdout, check=True)
        best: dict[str, dict[str, float]] = {scratch: {}, str(_ROOT): {}}
        paths = [str(path) for path in inputs]
        for _ in range(rounds):
            for root, seconds in best.items():
                done = subprocess.run([sys.executable, "-c", _TIME_REWRITES], input=json.dumps(paths), cwd=root,
                                      env={"PYTHONPATH": root}, capture_output=True, text=True, check=True)
                for path, taken in json.loads(done.stdout).items():
                    seconds[path] = min(taken, seconds.get(path, taken))
        return [(path, best[scratch][str(path)], best[str(_ROOT)][str(path)]) for path in inputs]


def comparison_table(revision: str, rows: list[tuple[Path, float, float]]) -> str:
    lines = [f"| input | size (KB) | {revision} (s) | this checkout (s) | change |", "|---|---:|---:|---:|---:|"]
    lines += [f"| {_label(path)} | {path.stat().st_size / 1024:.0f} | {before:.3f} | {after:.3f} | "
              f"{(after - before) / before:+.0%} |" for path, before, after in rows]
    return "\n".join(lines)


def _label(path: Path) -> str:
    """``path`` from the npm cache or the corpus apps' directory, whichever holds it."""
    for root in (LIBRARIES, APPS_DIR):
        if path.is_relative_to(root):
            return str(path.relative_to(root))
    return path.name


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.rewrite_speed",
                                     description="Compare the rewriter's speed with that of a git revision.")
    parser.add_argument("--against", required=True, metavar="REVISION", help="the git revision to compare with")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per revision (default 3)")
    args = parser.parse_args(argv)
    print(comparison_table(args.against, compare(args.against, comparison_inputs(), args.rounds)))


if __name__ == "__main__":
    main()
