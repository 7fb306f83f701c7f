"""The rewrite cache: off the event loop, on disk across processes, and where webr4 keeps it; one
rewrite per script however often it is asked for at once, the longest waiting script first."""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

from webr4.instrument import cache as cache_module
from webr4.instrument import pool
from webr4.instrument.cache import CachedRewriter, cache_root, persistent_directory, rewriter_fingerprint
from webr4.instrument.rewrite import RewriteResult, rewrite

SOURCES = [
    ("var q = 1; q++; o.p = q; function f() { return o[q]; }", {}),
    ("import {a} from './a.js'; export let b = a.c;", {"module": True}),
    ("this.value = event.type + x;", {"handler": True}),
    ("var = ;", {}),  # does not parse: returned unchanged, with the same uncontrolled entry
]


@pytest.mark.parametrize(("source", "options"), SOURCES)
def test_rewrite_in_a_worker_is_the_rewrite(source: str, options: dict[str, bool]) -> None:
    expected = rewrite(source, "w.js", script_id="w", **options)
    got = asyncio.run(CachedRewriter().rewrite_async(source, "w.js", script_id="w", **options))
    assert got == expected


def test_the_event_loop_goes_on_while_a_script_is_rewritten() -> None:
    source = "var total = 0;\n" + "total += o.items[i].price * rate(i);\n" * 2000

    async def scenario() -> bool:
        rewriting = asyncio.ensure_future(CachedRewriter().rewrite_async(source, "big.js"))
        await asyncio.sleep(0)  # the rewrite starts and hands the loop back while it runs
        ran_meanwhile = not rewriting.done()
        await rewriting
        return ran_meanwhile

    assert asyncio.run(scenario())


def test_without_worker_processes_the_rewrite_runs_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "_pool", None)  # a fresh pool, whose workers cannot start
    monkeypatch.setattr(sys, "executable", "/nonexistent/python")
    source = SOURCES[0][0]
    got = asyncio.run(pool.rewrite_elsewhere(source, "w.js", script_id="w", module=False, handler=False))
    assert got == rewrite(source, "w.js", script_id="w")
    assert pool._shared_pool().unavailable


def test_a_second_process_takes_the_rewrite_from_disk(tmp_path: Path) -> None:
    source = "var q = 1; q++;"
    first = asyncio.run(CachedRewriter(directory=tmp_path).rewrite_async(source, "c.js"))
    (stored,) = tmp_path.glob("*.json")
    stored.write_text(stored.read_text().replace("q++", "q--"))  # what another process left there
    assert "q--" in CachedRewriter(directory=tmp_path).rewrite(source, "c.js").code
    assert "q++" in first.code


def test_an_unreadable_cache_file_is_a_miss(tmp_path: Path) -> None:
    source = "var q = 1;"
    CachedRewriter(directory=tmp_path).rewrite(source, "c.js")
    (stored,) = tmp_path.glob("*.json")
    stored.write_text("{not json")
    assert CachedRewriter(directory=tmp_path).rewrite(source, "c.js") == rewrite(source, "c.js")


def test_cache_directory_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBR4_CACHE_DIR", str(tmp_path / "mine"))
    assert persistent_directory() == tmp_path / "mine" / "rewrite" / rewriter_fingerprint()
    monkeypatch.setenv("WEBR4_CACHE_DIR", "")
    assert persistent_directory() is None
    monkeypatch.delenv("WEBR4_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_root() == tmp_path / "xdg" / "webr4"


def test_rewrites_of_an_earlier_webr4_are_removed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBR4_CACHE_DIR", str(tmp_path))
    stale = tmp_path / "rewrite" / "0123456789abcdef"
    stale.mkdir(parents=True)
    (stale / "x.json").write_text("{}")
    directory = persistent_directory()
    assert directory is not None and not stale.exists()


def test_the_same_script_asked_for_twice_at_once_is_rewritten_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    async def counted(source: str, url: str, **options: object) -> object:
        calls.append(url)
        await asyncio.sleep(0.05)
        return rewrite(source, url, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(cache_module, "rewrite_elsewhere", counted)
    source = "var q = 1; q++;"

    async def scenario() -> tuple[object, object, Sequence[object]]:
        rewriter = CachedRewriter()
        first = asyncio.ensure_future(rewriter.rewrite_async(source, "twice.js"))
        withdrawn = asyncio.ensure_future(rewriter.rewrite_async(source, "twice.js"))
        second = asyncio.ensure_future(rewriter.rewrite_async(source, "twice.js"))
        await asyncio.sleep(0)
        withdrawn.cancel()  # one caller gives up: the others still get the rewrite
        return await first, await second, await asyncio.gather(withdrawn, return_exceptions=True)

    first, second, (withdrawn,) = asyncio.run(scenario())
    assert calls == ["twice.js"]
    assert first == second == rewrite(source, "twice.js")
    assert isinstance(withdrawn, asyncio.CancelledError)


def test_waiting_rewrites_run_longest_source_first(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[str] = []
    go_on = threading.Event()

    def held_rewrite(job: pool.Job) -> RewriteResult:
        started.append(job[1])
        go_on.wait(10)
        return RewriteResult(job[0], {}, ())

    workers = pool._Pool()
    monkeypatch.setattr(workers, "rewrite", held_rewrite)

    async def scenario() -> None:
        busy = [asyncio.ensure_future(workers.submit(("x", f"busy{i}", "0", False, False)))
                for i in range(pool.WORKERS)]
        while len(started) < pool.WORKERS:  # every worker is taken
            await asyncio.sleep(0.01)
        waiting = [asyncio.ensure_future(workers.submit((source, url, "0", False, False)))
                   for source, url in (("s", "short"), ("l" * 300, "long"), ("m" * 20, "middle"))]
        await asyncio.sleep(0.05)  # the waiting jobs are all queued
        go_on.set()
        await asyncio.gather(*busy, *waiting)

    try:
        asyncio.run(scenario())
    finally:
        go_on.set()
        workers.close()
    assert started[pool.WORKERS:] == ["long", "middle", "short"]
